package org.langid.serving;

/**
 * Language probabilities of fixed-length windows of symbol indices: the one thing a detector
 * needs from a model. The ONNX Runtime path ({@link OnnxWindowClassifier}) and the SameDiff
 * graph (in model/) both implement it, so they can be checked against each other.
 */
public interface WindowClassifier extends AutoCloseable {

    /**
     * @param symbols rows × window symbol indices (PAD allowed), row-major
     * @param rows    number of windows
     * @return (rows, C) probabilities, row-major, languages in the model's order
     */
    float[] probabilities(int[] symbols, int rows);

    /** Which engine runs the model, for logs and reports (e.g. "onnxruntime 1.29.0"). */
    String engine();

    @Override
    void close();
}
