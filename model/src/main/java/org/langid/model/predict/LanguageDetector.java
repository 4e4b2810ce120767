package org.langid.model.predict;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.langid.model.artefact.Manifest;
import org.langid.model.artefact.ModelArtefact;
import org.langid.model.artefact.ModelRegistry;
import org.langid.model.graph.LanguageIdGraph;
import org.langid.serving.Detection;
import org.langid.serving.OnnxWindowClassifier;
import org.langid.serving.TextDetector;
import org.langid.serving.WindowClassifier;
import org.langid.text.CaseFolding;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Detects the language of any string with a model artefact, as {@link TextDetector} does
 * (normalise, cut windows every {@code stride} characters, classify, combine), loading the
 * artefact from any Hadoop FileSystem. The windows run through the artefact's ONNX flavour with
 * ONNX Runtime by default; {@link Engine#SAMEDIFF} runs its SameDiff graph op by op (the training
 * truth, also used for artefacts without the flavour and for {@link #analyse}'s attention weights).
 * Thread-safe.
 */
public final class LanguageDetector implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LanguageDetector.class);

    /** The answer for text with nothing to classify (ISO 639-2 "undetermined"). */
    public static final String UNDETERMINED = TextDetector.UNDETERMINED;

    /** What runs the model's windows. */
    public enum Engine {
        /**
         * The artefact's fastest ONNX flavour through ONNX Runtime, batched: model.int8.onnx when it has
         * one whose integer products are exact on this CPU, else model.onnx; falls back to SameDiff
         * when it has neither.
         */
        ONNX,
        /** model.onnx (float32, as trained) through ONNX Runtime, even when model.int8.onnx is there. */
        ONNX_FLOAT,
        /** graph.fb through SameDiff, op by op. */
        SAMEDIFF
    }

    /**
     * @param stride            characters between window starts (1: every window, as training cut them)
     * @param maxWindowsPerText longer texts get this many windows spread evenly over them, bounding the cost of a line
     * @param batchSize         windows per model call
     * @param concurrency       batches classified at once, each on its own thread (and SameDiff's graph copies)
     * @param foldCapitals      read windows in capitals in lower case ({@link CaseFolding#foldCapitalWindows})
     * @param engine            what runs the model
     */
    public record Options(int stride, int maxWindowsPerText, int batchSize, int concurrency, boolean foldCapitals, Engine engine) {

        public Options {
            if (stride < 1 || maxWindowsPerText < 1 || batchSize < 1 || concurrency < 1) {
                throw new IllegalArgumentException("stride, max windows per text, batch size and concurrency must each be at least 1");
            }
        }

        /** Capitals folded, ONNX engine. */
        public Options(int stride, int maxWindowsPerText, int batchSize, int concurrency, boolean foldCapitals) {
            this(stride, maxWindowsPerText, batchSize, concurrency, foldCapitals, Engine.ONNX);
        }

        /** Capitals folded, ONNX engine. */
        public Options(int stride, int maxWindowsPerText, int batchSize, int concurrency) {
            this(stride, maxWindowsPerText, batchSize, concurrency, true);
        }

        public static Options defaults() {
            return new Options(TextDetector.DEFAULT_STRIDE, 256, TextDetector.DEFAULT_BATCH, Runtime.getRuntime().availableProcessors());
        }

        public Options withStride(int stride) {
            return new Options(stride, maxWindowsPerText, batchSize, concurrency, foldCapitals, engine);
        }

        public Options withFoldCapitals(boolean foldCapitals) {
            return new Options(stride, maxWindowsPerText, batchSize, concurrency, foldCapitals, engine);
        }

        public Options withEngine(Engine engine) {
            return new Options(stride, maxWindowsPerText, batchSize, concurrency, foldCapitals, engine);
        }

        TextDetector.Options text() {
            return new TextDetector.Options(stride, maxWindowsPerText, batchSize, foldCapitals);
        }
    }

    private final ModelArtefact artefact;
    private final Options options;
    private final TextDetector detector;
    private final int window;
    private final List<String> attentionOutputs;
    private volatile SameDiffWindowClassifier sameDiff;   // for analyse(), made when first needed

    public LanguageDetector(ModelArtefact artefact, Options options) {
        this.artefact = artefact;
        this.options = options;
        this.window = artefact.manifest().window();
        this.attentionOutputs = LanguageIdGraph.attentionOutputs(artefact.manifest().modelConfig());
        this.detector = new TextDetector(classifier(artefact, options), artefact.manifest().languages(), window,
                artefact.manifest().alphabet(), options.text(), options.concurrency())
                .withConfidenceFloor(org.langid.serving.ServingModel.confidenceFloor(artefact.manifest().toJson(), artefact.manifest().modelVersion()));
    }

    private WindowClassifier classifier(ModelArtefact artefact, Options options) {
        Manifest manifest = artefact.manifest();
        if (options.engine() == Engine.ONNX || options.engine() == Engine.ONNX_FLOAT) {
            boolean int8 = options.engine() == Engine.ONNX && artefact.onnxInt8Model().isPresent();
            var onnx = int8 ? artefact.onnxInt8Model() : artefact.onnxModel();
            if (onnx.isPresent()) {
                // One thread per model call: the detector runs batches side by side instead.
                OnnxWindowClassifier classifier = new OnnxWindowClassifier(onnx.get(), manifest.modelVersion(), window,
                        manifest.languages().size(), 1, int8 ? ModelArtefact.ONNX_INT8 : ModelArtefact.ONNX);
                String inexact = int8 ? classifier.int8Inexactness() : null;
                if (inexact == null || artefact.onnxModel().isEmpty()) {
                    return classifier;
                }
                classifier.close();
                return new OnnxWindowClassifier(artefact.onnxModel().get(), manifest.modelVersion(), window, manifest.languages().size(), 1,
                        ModelArtefact.ONNX + " instead of " + inexact + "; 'langid export --add-onnx' rewrites it with 7-bit weights");
            }
            LOG.warn("model {} has no {}: detection runs its SameDiff graph, several times slower "
                    + "(langid export --add-onnx adds the flavour)", manifest.modelVersion(), ModelArtefact.ONNX);
        }
        SameDiffWindowClassifier graph = new SameDiffWindowClassifier(artefact, options.concurrency());
        sameDiff = graph;
        return graph;
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
        return detector.languages();
    }

    /**
     * Detection from {@code subset} of the model's languages only, their probabilities
     * renormalised over it ({@link TextDetector#restrictedTo}); the model is shared, nothing is loaded.
     */
    public TextDetector restrictedTo(java.util.Collection<String> subset) {
        return detector.restrictedTo(subset);
    }

    /** The text detector this wraps: every language, the manifest's confidence floor; views of it restrict or re-floor it. */
    public TextDetector textDetector() {
        return detector;
    }

    public Options options() {
        return options;
    }

    /** What runs the windows, e.g. "onnxruntime 1.29.0" or "samediff". */
    public String engine() {
        return detector.classifier().engine();
    }

    public Detection detect(String text) {
        return detector.detect(text);
    }

    /** Detects each text; all their windows go through the model together, in batches. */
    public List<Detection> detectAll(List<String> texts) {
        return detector.detectAll(texts);
    }

    /**
     * Probabilities of windows given as symbol indices, exactly as prepare cut them (no
     * normalisation, no re-cutting): {@code symbols} holds rows × window indices (PAD allowed).
     *
     * @return (rows, C) row-major, in the order of {@link #languages()}
     */
    public float[] windowProbabilities(char[] symbols) {
        if (symbols.length % window != 0) {
            throw new IllegalArgumentException(symbols.length + " symbols are not whole windows of " + window);
        }
        int rows = symbols.length / window;
        int[] indices = new int[symbols.length];
        for (int i = 0; i < symbols.length; i++) {
            indices[i] = symbols[i];
        }
        return detector.classify(indices, rows);
    }

    /** Where {@code text}'s windows start, after normalisation. */
    TextDetector.Plan plan(String text) {
        return detector.plan(text);
    }

    /** Per-window detail of one text, for pictures: each window's characters, probabilities and attention weights (from the SameDiff graph). */
    public Analysis analyse(String text, int maxWindows) {
        TextDetector.Plan plan = detector.plan(text);
        int n = Math.min(plan.windows(), maxWindows);
        int[] symbols = new int[n * window];
        plan.writeSymbols(symbols, 0, window);   // writes all windows' rows only if they fit: see Plan
        if (options.foldCapitals()) {
            CaseFolding.foldCapitalWindows(detector.alphabet(), symbols, window);
        }
        List<String> outputs = new ArrayList<>(attentionOutputs);
        outputs.add(LanguageIdGraph.PROBABILITIES);
        Map<String, INDArray> results = n == 0 ? Map.of() : graph().run(symbols, n, outputs);
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
            double[] probabilities = new double[languages().size()];
            for (int c = 0; c < probabilities.length; c++) {
                probabilities[c] = results.get(LanguageIdGraph.PROBABILITIES).getDouble(w, c);
            }
            windows.add(new Analysis.Window(start, plan.normalised().substring(start, start + length), attention, probabilities));
        }
        return new Analysis(plan.normalised(), windows, detect(text));
    }

    private SameDiffWindowClassifier graph() {
        SameDiffWindowClassifier graph = sameDiff;
        if (graph == null) {
            synchronized (this) {
                if (sameDiff == null) {
                    sameDiff = new SameDiffWindowClassifier(artefact, 1);
                }
                graph = sameDiff;
            }
        }
        return graph;
    }

    /** What {@link #analyse} returns: the normalised text, up to maxWindows windows, and the whole text's detection. */
    public record Analysis(String normalised, List<Window> windows, Detection detection) {

        /** attention[layer][head][query][key] over the window's real (unpadded) characters. */
        public record Window(int start, String characters, float[][][][] attention, double[] probabilities) {
        }
    }

    /** Releases the engine's native resources (ONNX Runtime's session). */
    @Override
    public void close() {
        detector.classifier().close();
    }
}
