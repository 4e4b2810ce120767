package org.langid.jobs.evaluate;

import java.util.List;
import org.langid.model.predict.Detection;
import org.langid.model.predict.LanguageDetector;

/** This project's model, through the same {@link LanguageDetector} users call. */
public final class ModelCandidate implements Candidate {

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
        return "this model (" + detector.manifest().modelVersion() + "), window stride " + detector.options().stride();
    }

    @Override
    public boolean mayDecline() {
        return false;   // a sentence that normalises to nothing would be und, but prepare keeps none
    }

    @Override
    public int[] predictWindows(byte[] symbols, int window) {
        int[] predicted = new int[symbols.length / window];
        inChunks(predicted.length, (from, to) -> predictWindows(symbols, window, from, to, predicted));
        return predicted;
    }

    private void predictWindows(byte[] symbols, int window, int from, int to, int[] predicted) {
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
    public int[] predictSentences(List<String> sentences) {
        int[] predicted = new int[sentences.size()];
        inChunks(predicted.length, (from, to) -> {
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

    /** Runs {@code work} over [0, n) in chunks of at most 4096, {@code threads} at a time. */
    private void inChunks(int n, java.util.function.BiConsumer<Integer, Integer> work) {
        int chunk = 4096;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
        try {
            List<java.util.concurrent.Future<?>> tasks = new java.util.ArrayList<>();
            for (int from = 0; from < n; from += chunk) {
                int start = from;
                int end = Math.min(n, from + chunk);
                tasks.add(pool.submit(() -> work.accept(start, end)));
            }
            for (java.util.concurrent.Future<?> task : tasks) {
                task.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while detecting", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } finally {
            pool.shutdown();
        }
    }
}
