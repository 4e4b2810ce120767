package org.langid.jobs.evaluate;

import java.util.List;
import org.langid.serving.Detection;
import org.langid.serving.TextDetector;
import org.langid.model.predict.LanguageDetector;
import org.langid.text.Alphabet;

/**
 * This project's model, through the same {@link LanguageDetector} users call; restricted to a
 * {@link LanguageSubset}, through the detector users get from {@link LanguageDetector#restrictedTo}.
 */
public final class ModelCandidate implements Candidate {

    /** Windows or sentences per call: big enough for batched inference, small enough to share out over threads. */
    private static final int CHUNK = 4096;

    private final LanguageDetector detector;
    private final LanguageSubset subset;
    private final TextDetector texts;
    private final boolean[] answering;
    private final int[] indexOfClass;
    private final int threads;

    /** @param threads callers at once; the detector serves up to its concurrency in parallel */
    public ModelCandidate(LanguageDetector detector, int threads) {
        this(detector, LanguageSubset.all(detector.languages()), threads);
    }

    /** Answering from {@code subset} only: its classes (and the model's und class), probabilities renormalised over them. */
    public ModelCandidate(LanguageDetector detector, LanguageSubset subset, int threads) {
        this.detector = detector;
        this.subset = subset;
        this.texts = subset.restricted() ? detector.restrictedTo(subset.languages()) : detector.textDetector();
        this.answering = subset.answering();
        this.indexOfClass = subset.indexOfClass();
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
                + (detector.options().foldCapitals() ? ", windows in capitals read in lower case" : ", capitals as written")
                + (subset.restricted() ? ", " + subset.describe() : "");
    }

    /**
     * Below a confidence floor (the manifest's) the model answers und; otherwise it answers every
     * text prepare keeps. Restricted to a subset without it, the model's und class is a decline too.
     */
    @Override
    public boolean mayDecline() {
        return texts.confidenceFloor() > 0 || subset.answersUndOutside();
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
        int classes = answering.length;
        for (int row = 0; row < to - from; row++) {
            predicted[from + row] = indexOfClass[best(probabilities, row * classes, answering)];
        }
    }

    /** The most probable of the classes {@code answering} allows, in the row of C probabilities at {@code offset}. */
    static int best(float[] probabilities, int offset, boolean[] answering) {
        int best = -1;
        for (int c = 0; c < answering.length; c++) {
            if (answering[c] && (best < 0 || probabilities[offset + c] > probabilities[offset + best])) {
                best = c;
            }
        }
        return best;
    }

    @Override
    public Answers predictTexts(List<String> texts, Alphabet alphabet) {
        int[] predicted = new int[texts.size()];
        double[] confidence = new double[texts.size()];
        int declined = subset.languages().size();
        Chunks.run(predicted.length, CHUNK, threads, (from, to) -> {
            List<Detection> detections = this.texts.detectAll(texts.subList(from, to));
            for (int i = from; i < to; i++) {
                Detection detection = detections.get(i - from);
                int index = subset.languages().indexOf(detection.language());
                predicted[i] = index < 0 ? declined : index;   // und, when it is not one of the languages evaluated
                confidence[i] = detection.confidence();
            }
        });
        return new Answers(predicted, confidence);
    }
}
