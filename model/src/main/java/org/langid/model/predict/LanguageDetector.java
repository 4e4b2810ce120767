package org.langid.model.predict;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.langid.model.artefact.Manifest;
import org.langid.model.artefact.ModelArtefact;
import org.langid.model.artefact.ModelRegistry;
import org.langid.model.graph.LanguageIdGraph;
import org.langid.model.graph.ModelConfig;
import org.langid.model.graph.ParameterLayout;
import org.langid.model.text.CaseFolding;
import org.langid.model.text.TextNormalizer;
import org.langid.model.text.Vocabulary;
import org.langid.model.train.StepArena;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Detects the language of any string with a model artefact: normalise as training did, cut
 * windows of the model's length every {@code stride} characters (always including the last
 * one), classify them in batches, and combine the windows' log-probabilities. A window in
 * capitals is read in lower case unless {@link Options#foldCapitals} is off.
 *
 * <p>Combining: the mean of the windows' log-probabilities per language, renormalised (a
 * geometric mean of the window distributions). Not the sum: overlapping windows share most of
 * their characters, and a sum would count the same evidence up to {@code window} times and
 * report near-certainty for nearly any sentence.
 *
 * <p>Text shorter than a window becomes one window padded with the PAD symbol, which the graph
 * masks out of attention and pooling (the model saw padded windows the same way).
 * Thread-safe: concurrent callers each borrow one of up to {@link Options#concurrency} graph copies.
 */
public final class LanguageDetector {

    /** The answer for text with nothing to classify (ISO 639-2 "undetermined"). */
    public static final String UNDETERMINED = "und";

    /**
     * @param stride            characters between window starts (1: every window, as training cut them)
     * @param maxWindowsPerText longer texts get this many windows spread evenly over them, bounding the cost of a line
     * @param batchSize         windows per graph call
     * @param concurrency       graph copies, i.e. callers served at once
     * @param foldCapitals      read windows in capitals in lower case ({@link CaseFolding#foldCapitalWindows})
     */
    public record Options(int stride, int maxWindowsPerText, int batchSize, int concurrency, boolean foldCapitals) {

        public Options {
            if (stride < 1 || maxWindowsPerText < 1 || batchSize < 1 || concurrency < 1) {
                throw new IllegalArgumentException("stride, max windows per text, batch size and concurrency must each be at least 1");
            }
        }

        /** Capitals folded. */
        public Options(int stride, int maxWindowsPerText, int batchSize, int concurrency) {
            this(stride, maxWindowsPerText, batchSize, concurrency, true);
        }

        public static Options defaults() {
            return new Options(1, 256, 2048, Runtime.getRuntime().availableProcessors());
        }

        public Options withStride(int stride) {
            return new Options(stride, maxWindowsPerText, batchSize, concurrency, foldCapitals);
        }

        public Options withFoldCapitals(boolean foldCapitals) {
            return new Options(stride, maxWindowsPerText, batchSize, concurrency, foldCapitals);
        }
    }

    private final ModelArtefact artefact;
    private final Options options;
    private final List<String> languages;
    private final int window;
    private final List<String> attentionOutputs;
    private final BlockingQueue<PooledGraph> idleGraphs;
    private final AtomicInteger graphsCreated = new AtomicInteger();

    public LanguageDetector(ModelArtefact artefact, Options options) {
        this.artefact = artefact;
        this.options = options;
        this.languages = List.copyOf(artefact.manifest().languages());
        this.window = artefact.manifest().window();
        ModelConfig config = artefact.manifest().modelConfig();
        this.attentionOutputs = LanguageIdGraph.attentionOutputs(config);
        this.idleGraphs = new ArrayBlockingQueue<>(options.concurrency());
        idleGraphs.add(new PooledGraph(artefact.newGraph(), new StepArena()));   // fails here, at load, if the graph cannot be built
        graphsCreated.set(1);
    }

    /** Loads the artefact at {@code location}, or the current version when it is a registry. */
    public static LanguageDetector load(String location, Configuration conf, Options options) {
        return new LanguageDetector(ModelArtefact.load(ModelRegistry.resolve(location, conf), conf), options);
    }

    public ModelArtefact artefact() {
        return artefact;
    }

    public Manifest manifest() {
        return artefact.manifest();
    }

    public List<String> languages() {
        return languages;
    }

    public Options options() {
        return options;
    }

    public Detection detect(String text) {
        return detectAll(List.of(text)).get(0);
    }

    /** Detects each text; all their windows go through the graph together, in batches. */
    public List<Detection> detectAll(List<String> texts) {
        List<Plan> plans = new ArrayList<>(texts.size());
        int total = 0;
        for (String text : texts) {
            Plan plan = plan(text);
            plans.add(plan);
            total += plan.windows();
        }
        int[] symbols = new int[total * window];                                   // (N, T)
        int offset = 0;
        for (Plan plan : plans) {
            plan.writeSymbols(symbols, offset, window);
            offset += plan.windows() * window;
        }
        float[] probabilities = classify(symbols, total);                          // (N, C)
        List<Detection> detections = new ArrayList<>(texts.size());
        int row = 0;
        for (Plan plan : plans) {
            detections.add(combine(probabilities, row, plan.windows()));
            row += plan.windows();
        }
        return detections;
    }

    /**
     * Probabilities of windows given as symbol indices, exactly as prepare cut them (no
     * normalisation, no re-cutting): {@code symbols} holds rows × window indices (PAD allowed).
     *
     * @return (rows, C) row-major, in the order of {@link #languages()}
     */
    public float[] windowProbabilities(byte[] symbols) {
        if (symbols.length % window != 0) {
            throw new IllegalArgumentException(symbols.length + " symbols are not whole windows of " + window);
        }
        int rows = symbols.length / window;
        int[] indices = new int[symbols.length];
        for (int i = 0; i < symbols.length; i++) {
            indices[i] = symbols[i];
        }
        return classify(indices, rows);
    }

    /** Per-window detail of one text, for pictures: each window's characters, probabilities and attention weights. */
    public Analysis analyse(String text, int maxWindows) {
        Plan plan = plan(text);
        int n = Math.min(plan.windows(), maxWindows);
        int[] symbols = new int[n * window];
        plan.writeSymbols(symbols, 0, window);   // writes all windows' rows only if they fit: see Plan
        List<String> outputs = new ArrayList<>(attentionOutputs);
        outputs.add(LanguageIdGraph.PROBABILITIES);
        Map<String, INDArray> results = n == 0 ? Map.of() : run(symbols, n, outputs);
        List<Analysis.Window> windows = new ArrayList<>();
        for (int w = 0; w < n; w++) {
            int start = plan.starts()[w];
            int length = Math.min(window, plan.normalised().length() - start);
            float[][][][] attention = new float[attentionOutputs.size()][][][];
            for (int layer = 0; layer < attentionOutputs.size(); layer++) {
                INDArray weights = results.get(attentionOutputs.get(layer));              // (B, H, T, T)
                int heads = (int) weights.size(1);
                attention[layer] = new float[heads][length][length];
                for (int h = 0; h < heads; h++) {
                    for (int q = 0; q < length; q++) {
                        for (int k = 0; k < length; k++) {
                            attention[layer][h][q][k] = weights.getFloat(w, h, q, k);
                        }
                    }
                }
            }
            double[] probabilities = new double[languages.size()];
            for (int c = 0; c < probabilities.length; c++) {
                probabilities[c] = results.get(LanguageIdGraph.PROBABILITIES).getDouble(w, c);
            }
            windows.add(new Analysis.Window(start, plan.normalised().substring(start, start + length), attention, probabilities));
        }
        return new Analysis(plan.normalised(), windows, detect(text));
    }

    /** What {@link #analyse} returns: the normalised text, up to maxWindows windows, and the whole text's detection. */
    public record Analysis(String normalised, List<Window> windows, Detection detection) {

        /** attention[layer][head][query][key] over the window's real (unpadded) characters. */
        public record Window(int start, String characters, float[][][][] attention, double[] probabilities) {
        }
    }

    /** Where a text's windows start, after normalisation. */
    record Plan(String normalised, int[] starts) {

        int windows() {
            return starts.length;
        }

        /** Writes the first rows that fit into {@code symbols} from row offset/t; short windows padded. */
        void writeSymbols(int[] symbols, int offset, int t) {
            int rows = Math.min(starts.length, (symbols.length - offset) / t);
            for (int w = 0; w < rows; w++) {
                int base = offset + w * t;
                for (int j = 0; j < t; j++) {
                    int at = starts[w] + j;
                    symbols[base + j] = at < normalised.length() ? Vocabulary.indexOf(normalised.charAt(at)) : ParameterLayout.PAD;
                }
            }
        }
    }

    Plan plan(String text) {
        String normalised = TextNormalizer.normalize(text == null ? "" : text);
        int n = normalised.length();
        if (n == 0) {
            return new Plan(normalised, new int[0]);
        }
        if (n <= window) {
            return new Plan(normalised, new int[] {0});
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
        return new Plan(normalised, starts);
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
            max = Math.max(max, mean[c]);
        }
        double sum = 0;
        for (int c = 0; c < classes; c++) {
            mean[c] = Math.exp(mean[c] - max);
            sum += mean[c];
        }
        Map<String, Double> combined = new LinkedHashMap<>();
        int best = 0;
        for (int c = 0; c < classes; c++) {
            combined.put(languages.get(c), mean[c] / sum);
            if (mean[c] > mean[best]) {
                best = c;
            }
        }
        return new Detection(languages.get(best), mean[best] / sum, combined, windows);
    }

    /** Probabilities of {@code n} windows, row-major (N, C). */
    private float[] classify(int[] symbols, int n) {
        int classes = languages.size();
        float[] out = new float[n * classes];
        int batch = options.batchSize();
        for (int from = 0; from < n; from += batch) {
            int rows = Math.min(batch, n - from);
            int[] slice = new int[rows * window];
            System.arraycopy(symbols, from * window, slice, 0, slice.length);
            INDArray probabilities = run(slice, rows, List.of(LanguageIdGraph.PROBABILITIES)).get(LanguageIdGraph.PROBABILITIES); // (b, C)
            float[] values = probabilities.data().asFloat();   // run() copied it out in c order
            System.arraycopy(values, 0, out, from * classes, values.length);
        }
        return out;
    }

    /**
     * A graph copy and the arena its sessions allocate from: batches of one shape then reuse
     * the previous batch's arrays instead of fresh native memory (see {@link StepArena}).
     */
    private record PooledGraph(SameDiff sd, StepArena arena) {
    }

    /** Runs the graph on (rows, T) symbols, which it may change in place (capitals folded). */
    private Map<String, INDArray> run(int[] symbols, int rows, List<String> outputs) {
        if (options.foldCapitals()) {
            CaseFolding.foldCapitalWindows(symbols, window);
        }
        PooledGraph graph = borrow();
        try {
            Map<String, INDArray> feed = new HashMap<>();
            feed.put(LanguageIdGraph.WINDOWS, Nd4j.createFromArray(symbols).reshape(rows, window));   // (B, T) INT32
            Map<String, INDArray> results = graph.sd().output(feed, outputs.toArray(String[]::new));
            Map<String, INDArray> copies = new HashMap<>();
            results.forEach((name, array) -> copies.put(name, array.dup('c')));   // copied out before the arena recycles them
            graph.arena().recycle();
            graph.arena().install(graph.sd());   // the session exists after the first call on this thread
            return copies;
        } finally {
            idleGraphs.add(graph);
        }
    }

    private PooledGraph borrow() {
        PooledGraph graph = idleGraphs.poll();
        if (graph != null) {
            return graph;
        }
        if (graphsCreated.incrementAndGet() <= options.concurrency()) {
            return new PooledGraph(artefact.newGraph(), new StepArena());
        }
        graphsCreated.decrementAndGet();
        try {
            return idleGraphs.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a free model graph", e);
        }
    }
}
