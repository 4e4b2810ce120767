package org.langid.serving;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.langid.text.Alphabet;
import org.langid.text.CaseFolding;

/**
 * Detects the language of any string with a {@link WindowClassifier}: normalise with the model's
 * {@link Alphabet}, as training did,
 * cut windows of the model's length every {@code stride} characters (always including the last
 * one), classify them in batches, and combine the windows' log-probabilities. A window in
 * capitals is read in lower case unless {@link Options#foldCapitals} is off.
 *
 * <p>Combining: the mean of the windows' log-probabilities per language, renormalised (a
 * geometric mean of the window distributions). Not the sum: overlapping windows share most of
 * their characters, and a sum would count the same evidence up to {@code window} times and
 * report near-certainty for nearly any sentence.
 *
 * <p>Text shorter than a window becomes one window padded with the alphabet's PAD, which the model
 * masks out of attention and pooling (the model saw padded windows the same way). Thread-safe
 * when the classifier is.
 */
public final class TextDetector {

    /** The answer for text with nothing to classify (ISO 639-2 "undetermined"). */
    public static final String UNDETERMINED = "und";
    /**
     * Characters between a text's window starts unless told otherwise. Measured with the released
     * model (docs/RESULTS.md, "Detection speed"): sentence accuracy on the sample's test split and on UDHR was the
     * same at stride 1, 2 and 4 (99.745% and 100%), one test sentence lower at 8 and 16; stride 4
     * classifies a quarter of the windows.
     */
    public static final int DEFAULT_STRIDE = 4;

    /**
     * @param stride            characters between window starts (1: every window, as training cut them)
     * @param maxWindowsPerText longer texts get this many windows spread evenly over them, bounding the cost of a line
     * @param batchSize         windows per classifier call
     * @param foldCapitals      read windows in capitals in lower case ({@link CaseFolding#foldCapitalWindows})
     */
    public record Options(int stride, int maxWindowsPerText, int batchSize, boolean foldCapitals) {

        public Options {
            if (stride < 1 || maxWindowsPerText < 1 || batchSize < 1) {
                throw new IllegalArgumentException("stride, max windows per text and batch size must each be at least 1");
            }
        }
    }

    /** Windows per model call unless told otherwise: ONNX Runtime spent the least per window at 64-512 (2048: 1.7x more, cache). */
    public static final int DEFAULT_BATCH = 256;

    private final WindowClassifier classifier;
    private final Alphabet alphabet;
    private final boolean[] allowed;   // null: every language of the model; else the subset answers come from
    private final double confidenceFloor;   // a text whose combined probability is below this is und
    private final Options options;
    private final List<String> languages;
    private final int window;
    private final java.util.concurrent.ForkJoinPool pool;   // null: batches run on the caller's thread

    /** One batch at a time, on the caller's thread (a server's inference threads are the parallelism). */
    public TextDetector(WindowClassifier classifier, List<String> languages, int window, Alphabet alphabet, Options options) {
        this(classifier, languages, window, alphabet, options, 1);
    }

    /**
     * @param parallelism batches of one call classified at once (each on its own thread, each a
     *                    single-threaded model call: on 2 cores faster than one call on 2 threads)
     */
    public TextDetector(WindowClassifier classifier, List<String> languages, int window, Alphabet alphabet, Options options,
                        int parallelism) {
        this.classifier = classifier;
        this.alphabet = alphabet;
        this.allowed = null;
        this.confidenceFloor = 0;
        this.languages = List.copyOf(languages);
        this.window = window;
        this.options = options;
        this.pool = parallelism > 1 ? new java.util.concurrent.ForkJoinPool(parallelism, pool -> {
            var thread = java.util.concurrent.ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
            thread.setDaemon(true);
            thread.setName("langid-detect-" + thread.getPoolIndex());
            return thread;
        }, null, false) : null;
    }

    private TextDetector(TextDetector whole, boolean[] allowed, double confidenceFloor) {
        this.classifier = whole.classifier;
        this.alphabet = whole.alphabet;
        this.allowed = allowed;
        this.confidenceFloor = confidenceFloor;
        this.languages = whole.languages;
        this.window = whole.window;
        this.options = whole.options;
        this.pool = whole.pool;
    }

    /**
     * This detector answering from {@code subset} of the model's languages only: their
     * probabilities renormalised over the subset (the model is the same; nothing is loaded).
     * A model's {@value #UNDETERMINED} class (text in none of its languages) stays in every subset.
     *
     * @throws IllegalArgumentException naming a language the model does not know, or an empty subset
     */
    public TextDetector restrictedTo(java.util.Collection<String> subset) {
        if (subset.isEmpty()) {
            throw new IllegalArgumentException("no languages to restrict detection to");
        }
        boolean[] chosen = new boolean[languages.size()];
        for (String language : subset) {
            int index = languages.indexOf(language);
            if (index < 0) {
                throw new IllegalArgumentException("'" + language + "' is not one of the model's languages (" + String.join(", ", languages) + ")");
            }
            chosen[index] = true;
        }
        int other = languages.indexOf(UNDETERMINED);
        if (other >= 0) {
            chosen[other] = true;
        }
        return new TextDetector(this, chosen, confidenceFloor);
    }

    /**
     * This detector answering {@value #UNDETERMINED} for a text whose combined probability is below
     * {@code floor} (its probabilities still reported): a model's evidence that the text is in none
     * of its languages. An artefact's manifest may name the floor its evidence supports
     * ({@code confidence_floor}); 0 answers every text that has windows.
     */
    public TextDetector withConfidenceFloor(double floor) {
        if (!(floor >= 0 && floor < 1)) {
            throw new IllegalArgumentException("the confidence floor must be in [0, 1), got " + floor);
        }
        return new TextDetector(this, allowed, floor);
    }

    public double confidenceFloor() {
        return confidenceFloor;
    }

    /** The model's languages, in its output order (all of them, also when {@link #restrictedTo restricted}). */
    public List<String> languages() {
        return languages;
    }

    /** The languages answers come from: {@link #languages()}, or the subset this detector is restricted to. */
    public List<String> answering() {
        if (allowed == null) {
            return languages;
        }
        List<String> subset = new ArrayList<>();
        for (int c = 0; c < allowed.length; c++) {
            if (allowed[c]) {
                subset.add(languages.get(c));
            }
        }
        return subset;
    }

    /** How the model reads text. */
    public Alphabet alphabet() {
        return alphabet;
    }

    public Options options() {
        return options;
    }

    public WindowClassifier classifier() {
        return classifier;
    }

    public Detection detect(String text) {
        return detectAll(Collections.singletonList(text)).get(0);   // null too, as detectAll takes it
    }

    /** Detects each text; all their windows go through the classifier together, in batches. */
    public List<Detection> detectAll(List<String> texts) {
        int n = texts.size();
        Plan[] plans = new Plan[n];
        forEach(n, i -> plans[i] = plan(texts.get(i)));                              // normalising is a third of the work for short texts
        int[] firstRow = new int[n + 1];
        for (int i = 0; i < n; i++) {
            firstRow[i + 1] = firstRow[i] + plans[i].windows();
        }
        int total = firstRow[n];
        int[] symbols = new int[total * window];                                   // (N, T)
        forEach(n, i -> plans[i].writeSymbols(symbols, firstRow[i] * window, window));
        float[] probabilities = classify(symbols, total);                          // (N, C)
        Detection[] detections = new Detection[n];
        forEach(n, i -> detections[i] = combine(probabilities, firstRow[i], plans[i].windows()));
        return java.util.Arrays.asList(detections);
    }

    /** action(0 … n−1), on the detector's threads when it has them and n is worth splitting. */
    private void forEach(int n, java.util.function.IntConsumer action) {
        if (pool == null || n < 512) {
            for (int i = 0; i < n; i++) {
                action.accept(i);
            }
        } else {
            pool.submit(() -> java.util.stream.IntStream.range(0, n).parallel().forEach(action)).join();
        }
    }

    /**
     * Probabilities of {@code rows} windows given as symbol indices, in batches; capitals are
     * folded first when the options say so ({@code symbols} is changed in place).
     *
     * @return (rows, C) row-major, in the order of {@link #languages()}
     */
    public float[] classify(int[] symbols, int rows) {
        if (options.foldCapitals()) {
            CaseFolding.foldCapitalWindows(alphabet, symbols, window);
        }
        int classes = languages.size();
        float[] out = new float[rows * classes];
        int batch = options.batchSize();
        int batches = (rows + batch - 1) / batch;
        java.util.function.IntConsumer classifyBatch = b -> {
            int from = b * batch;
            int n = Math.min(batch, rows - from);
            int[] slice = batches == 1 ? symbols : java.util.Arrays.copyOfRange(symbols, from * window, (from + n) * window);
            float[] probabilities = classifier.probabilities(slice, n);             // (n, C)
            System.arraycopy(probabilities, 0, out, from * classes, n * classes);
        };
        if (pool == null || batches == 1) {
            for (int b = 0; b < batches; b++) {
                classifyBatch.accept(b);
            }
        } else {
            pool.submit(() -> java.util.stream.IntStream.range(0, batches).parallel().forEach(classifyBatch)).join();
        }
        return out;
    }

    /** Where a text's windows start, after normalisation with {@code alphabet}. */
    public record Plan(Alphabet alphabet, String normalised, int[] starts) {

        public int windows() {
            return starts.length;
        }

        /** Writes the first rows that fit into {@code symbols} from row offset/t; short windows padded. */
        public void writeSymbols(int[] symbols, int offset, int t) {
            int rows = Math.min(starts.length, (symbols.length - offset) / t);
            for (int w = 0; w < rows; w++) {
                int base = offset + w * t;
                for (int j = 0; j < t; j++) {
                    int at = starts[w] + j;
                    symbols[base + j] = at < normalised.length() ? alphabet.indexOf(normalised.charAt(at)) : alphabet.pad();
                }
            }
        }
    }

    public Plan plan(String text) {
        String normalised = alphabet.normalize(text == null ? "" : text);
        int n = normalised.length();
        if (n == 0 || !alphabet.readsMostLetters(text)) {   // nothing the model reads as language: und
            return new Plan(alphabet, normalised, new int[0]);
        }
        if (n <= window) {
            return new Plan(alphabet, normalised, new int[] {0});
        }
        int last = n - window;
        int count = last / options.stride() + 1 + (last % options.stride() == 0 ? 0 : 1);
        int[] starts = new int[Math.min(count, options.maxWindowsPerText())];
        if (count <= options.maxWindowsPerText()) {
            for (int i = 0; i < starts.length; i++) {
                starts[i] = Math.min(i * options.stride(), last);
            }
        } else if (starts.length == 1) {
            starts[0] = 0;
        } else {
            for (int i = 0; i < starts.length; i++) {
                starts[i] = (int) Math.round(i * (double) last / (starts.length - 1));
            }
        }
        return new Plan(alphabet, normalised, starts);
    }

    private Detection combine(float[] probabilities, int firstRow, int windows) {
        int classes = languages.size();
        if (windows == 0) {
            return new Detection(UNDETERMINED, 0.0, Collections.emptyMap(), 0);
        }
        double[] mean = new double[classes];
        for (int w = 0; w < windows; w++) {
            for (int c = 0; c < classes; c++) {
                mean[c] += Math.log(Math.max(probabilities[(firstRow + w) * classes + c], 1e-30f));
            }
        }
        double max = Double.NEGATIVE_INFINITY;
        for (int c = 0; c < classes; c++) {
            mean[c] /= windows;
            if (allowed == null || allowed[c]) {
                max = Math.max(max, mean[c]);
            }
        }
        double sum = 0;
        for (int c = 0; c < classes; c++) {
            mean[c] = allowed == null || allowed[c] ? Math.exp(mean[c] - max) : 0;
            sum += mean[c];
        }
        Map<String, Double> combined = new LinkedHashMap<>();
        int best = -1;
        for (int c = 0; c < classes; c++) {
            if (allowed != null && !allowed[c]) {
                continue;
            }
            combined.put(languages.get(c), mean[c] / sum);
            if (best < 0 || mean[c] > mean[best]) {
                best = c;
            }
        }
        double confidence = mean[best] / sum;
        // Below the floor, the model's evidence for its best language is too weak to answer it;
        // a model with an und class may also answer und itself (with that class's probability).
        if (confidence < confidenceFloor) {
            return new Detection(UNDETERMINED, 0.0, combined, windows);
        }
        return new Detection(languages.get(best), confidence, combined, windows);
    }
}
