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

    /** Below a confidence floor (the manifest's) the model answers und; otherwise it answers every text prepare keeps. */
    @Override
    public boolean mayDecline() {
        return detector.textDetector().confidenceFloor() > 0;
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
    public Answers predictTexts(List<String> texts, Alphabet alphabet) {
        int[] predicted = new int[texts.size()];
        double[] confidence = new double[texts.size()];
        int declined = detector.languages().size();
        Chunks.run(predicted.length, CHUNK, threads, (from, to) -> {
            List<Detection> detections = detector.detectAll(texts.subList(from, to));
            for (int i = from; i < to; i++) {
                Detection detection = detections.get(i - from);
                int index = detector.languages().indexOf(detection.language());
                predicted[i] = index < 0 ? declined : index;   // und, when it is not one of the model's classes
                confidence[i] = detection.confidence();
            }
        });
        return new Answers(predicted, confidence);
    }
}
