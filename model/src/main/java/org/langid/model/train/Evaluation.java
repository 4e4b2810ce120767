package org.langid.model.train;

import org.langid.model.graph.ModelConfig;
import org.langid.model.graph.NgramFilter;
import org.langid.model.onnx.OnnxGraphWriter;
import org.langid.serving.OnnxWindowClassifier;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Accuracy and mean cross-entropy of a parameter vector on labelled windows (inference graph, no
 * dropout), computed by the same ONNX graph that {@code langid export} writes and serving runs
 * (on the CPU, also for GPU workers). SameDiff's op-by-op inference took twice as long: ~21 s
 * against ~12 s for the d-128 pipeline's 130,332 validation windows on 2 workers (bench/EXPERIMENTS.md,
 * "Training speed: the step").
 */
public record Evaluation(long windows, long correct, double meanLoss) implements java.io.Serializable {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Evaluation.class);
    private static final String VERSION = "validation";

    /** Two evaluations of disjoint windows as one. */
    public static Evaluation combine(Evaluation a, Evaluation b) {
        long windows = a.windows + b.windows;
        return new Evaluation(windows, a.correct + b.correct,
                windows == 0 ? 0 : (a.meanLoss * a.windows + b.meanLoss * b.windows) / windows);
    }

    public double accuracy() {
        return windows == 0 ? 0 : correct / (double) windows;
    }

    /**
     * @param threads ONNX Runtime threads for each batch: 1 inside a Spark task (one per core), the
     *                machine's cores for a lone trainer
     */
    public static Evaluation of(ModelConfig config, INDArray parameters, LabelledWindows data, int batchSize, int threads) {
        return of(config, parameters, null, data, batchSize, threads);
    }

    /**
     * As {@link #of(ModelConfig, INDArray, LabelledWindows, int, int)}, the model reading its n-grams
     * through {@code filter} (null: every n-gram, as validation during training does: the filter is
     * made after training).
     */
    public static Evaluation of(ModelConfig config, INDArray parameters, NgramFilter filter, LabelledWindows data, int batchSize, int threads) {
        int n = data.size();
        if (n == 0) {
            return new Evaluation(0, 0, 0);
        }
        int t = data.windowLength();
        int classes = config.classes();
        long correct = 0;
        double lossSum = 0;
        long started = System.nanoTime();
        byte[] graph = OnnxGraphWriter.write(config, parameters, VERSION, OnnxGraphWriter.Precision.FLOAT, filter);
        long written = System.nanoTime();
        long loaded;
        try (OnnxWindowClassifier classifier = new OnnxWindowClassifier(graph, VERSION, t, classes, threads)) {
            loaded = System.nanoTime();
            char[] symbols = data.symbols();
            int[] batch = new int[Math.min(n, batchSize) * t];
            for (int from = 0; from < n; from += batchSize) {
                int rows = Math.min(n, from + batchSize) - from;
                for (int i = 0; i < rows * t; i++) {
                    batch[i] = symbols[from * t + i];
                }
                float[] probabilities = classifier.probabilities(batch, rows);                 // (rows, C)
                for (int row = 0; row < rows; row++) {
                    int label = data.labels()[from + row];
                    int predicted = 0;
                    for (int c = 1; c < classes; c++) {
                        if (probabilities[row * classes + c] > probabilities[row * classes + predicted]) {
                            predicted = c;
                        }
                    }
                    if (predicted == label) {
                        correct++;
                    }
                    lossSum -= Math.log(Math.max(1e-12, probabilities[row * classes + label]));
                }
            }
        }
        LOG.debug(String.format("validation of %d windows: graph written in %.2f s, loaded in %.2f s, run in %.2f s (%d threads)",
                n, (written - started) / 1e9, (loaded - written) / 1e9, (System.nanoTime() - loaded) / 1e9, threads));
        return new Evaluation(n, correct, lossSum / n);
    }
}
