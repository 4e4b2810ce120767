package org.langid.jobs.evaluate;

import java.util.List;
import org.langid.serving.Detection;
import org.langid.model.predict.LanguageDetector;
import org.langid.text.Alphabet;

/** This project's model, through the same {@link LanguageDetector} users call. */
public final class ModelCandidate implements Candidate {

    /** Windows or sentences per call: big enough for batched inference, small enough to share out over threads. */
    private static final int CHUNK = 4096;

    private final LanguageDetector detector;
    private final int threads;

    /** @param threads callers at once; the detector serves up to its concurrency in parallel */
    public ModelCandidate(LanguageDetector detector, int threads) {
        this.detector = detector;
        this.threads = threads;
    }

    @Override
    public String name() {
        return "langid";
    }

    @Override
    public String description() {
        return "this model (" + detector.manifest().modelVersion() + "), run by " + detector.engine() + ", window stride "
                + detector.options().stride()
                + (detector.options().foldCapitals() ? ", windows in capitals read in lower case" : ", capitals as written");
    }

    @Override
    public boolean mayDecline() {
        return false;   // a sentence that normalises to nothing would be und, but prepare keeps none
    }

    @Override
    public int[] predictWindows(char[] symbols, int window, Alphabet alphabet) {
        int[] predicted = new int[symbols.length / window];
        Chunks.run(predicted.length, CHUNK, threads, (from, to) -> predictWindows(symbols, window, from, to, predicted));
        return predicted;
    }

    private void predictWindows(char[] symbols, int window, int from, int to, int[] predicted) {
        float[] probabilities = detector.windowProbabilities(
                java.util.Arrays.copyOfRange(symbols, from * window, to * window));   // (to − from, C)
        int classes = detector.languages().size();
        for (int row = 0; row < to - from; row++) {
            int best = 0;
            for (int c = 1; c < classes; c++) {
                if (probabilities[row * classes + c] > probabilities[row * classes + best]) {
                    best = c;
                }
            }
            predicted[from + row] = best;
        }
    }

    @Override
    public int[] predictSentences(List<String> sentences, Alphabet alphabet) {
        int[] predicted = new int[sentences.size()];
        Chunks.run(predicted.length, CHUNK, threads, (from, to) -> {
            List<Detection> detections = detector.detectAll(sentences.subList(from, to));
            for (int i = from; i < to; i++) {
                predicted[i] = detector.languages().indexOf(detections.get(i - from).language());
                if (predicted[i] < 0) {
                    throw new IllegalStateException("langid declined sentence " + i + ", which prepare should have dropped");
                }
            }
        });
        return predicted;
    }
}
