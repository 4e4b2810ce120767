package org.langid.model.onnx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.langid.model.artefact.ModelArtefact;
import org.langid.model.artefact.TestArtefacts;
import org.langid.model.data.Split;
import org.langid.model.graph.LanguageIdGraph;
import org.langid.model.graph.ModelConfig;
import org.langid.model.graph.NgramFilter;
import org.langid.model.graph.ParameterLayout;
import org.langid.model.train.LabelledWindows;
import org.langid.model.train.SampleCorpus;
import org.langid.serving.IntegerKernels;
import org.langid.serving.OnnxWindowClassifier;
import org.langid.text.Alphabet;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.langid.model.TestConfigs;

/**
 * The ONNX flavour computes what the SameDiff graph computes: probabilities within 1e-4 on
 * every window of the sample's test split (stride 1, as prepare cuts them) and on padded
 * windows of every length, for the eight-language seed model (models/versions; the sample's test
 * windows are read through its alphabet) and for the seed tutorial's block.
 *
 * <p>The int8 flavour is other arithmetic, so it is held to the language it chooses. Its integer
 * products are exact on every CPU (7-bit weights; {@code IntegerKernelsTest} checks the kernels
 * here), so its bounds below are measured ones that hold on every CPU, with a margin for the
 * float rounding that does differ between instruction sets.
 */
class OnnxParityTest {

    private static final Configuration CONF = new Configuration();
    private static final double TOLERANCE = 1e-4;

    @Test
    void theSeedModelsOnnxFlavourMatchesItsGraphOnEveryTestWindow() throws Exception {
        ModelArtefact seed = ModelArtefact.load(Path.of("..", "models", "versions", "20261128T222203Z-b9cd9045").toString(), CONF);
        ModelConfig config = seed.manifest().modelConfig();
        LabelledWindows test = SampleCorpus.load(config.languages, config.window, 1).get(Split.TEST);
        assertParity(seed, config, test, 50_000, 0.999);
    }

    /** The 82-language release on the many-language sample's test windows (every eighth), read through its alphabet. */
    @Test
    void theReleasesOnnxFlavourMatchesItsGraph() throws Exception {
        ModelArtefact release = ModelArtefact.load(org.langid.model.artefact.ModelRegistry.resolve(Path.of("..", "models").toString(), CONF), CONF);
        ModelConfig config = release.manifest().modelConfig();
        LabelledWindows test = SampleCorpus.loadMany(config.languages, release.manifest().alphabet(), config.window, 8).get(Split.TEST);
        // Measured on Zen 5 (AVX-512 with VNNI): the same language on 37,561 of 37,632 windows (99.811%), accuracy
        // 93.152% against 93.141% in float; the integer products are exact on every CPU, so the bound leaves a
        // margin only for the float rounding that differs between instruction sets.
        assertParity(release, config, test, 20_000, 0.997);
    }

    private static void assertParity(ModelArtefact release, ModelConfig config, LabelledWindows test, int atLeast, double sameLanguage)
            throws Exception {
        int[] symbols = withPaddedWindows(test.symbols(), config.window);
        int rows = symbols.length / config.window;
        assertTrue(rows > atLeast, "the test split has " + rows + " windows");

        long started = System.nanoTime();
        float[] expected = sameDiffProbabilities(release.newGraph(), config, symbols, rows);
        long sameDiffDone = System.nanoTime();
        byte[] onnx = OnnxGraphWriter.write(config, release.parameters(), release.manifest().modelVersion(), OnnxGraphWriter.Precision.FLOAT,
                release.ngramFilter());
        float[] actual;
        try (OnnxWindowClassifier classifier = new OnnxWindowClassifier(onnx, release.manifest().modelVersion(), config.window, config.classes(), 2)) {
            actual = probabilitiesInBatches(classifier, symbols, rows, config.window);
        }
        System.out.printf("parity on %,d windows: SameDiff %.1f s, ONNX export + run %.1f s%n", rows,
                (sameDiffDone - started) / 1e9, (System.nanoTime() - sameDiffDone) / 1e9);
        assertClose(expected, actual, config.classes());

        // The int8 flavour (what detection runs by default) is not the same arithmetic, but it must
        // choose the same language almost everywhere and be as accurate.
        byte[] int8 = OnnxGraphWriter.write(config, release.parameters(), release.manifest().modelVersion(), OnnxGraphWriter.Precision.INT8,
                release.ngramFilter());
        float[] quantised;
        try (OnnxWindowClassifier classifier = new OnnxWindowClassifier(int8, release.manifest().modelVersion(), config.window, config.classes(), 2)) {
            quantised = probabilitiesInBatches(classifier, symbols, rows, config.window);
        }
        assertAsAccurate(expected, quantised, test.labels(), config.classes(), sameLanguage);
    }

    /**
     * The int8 flavour against the float graph: the same language on at least {@code sameLanguageShare}
     * of the windows (the seed model: 99.9%, measured 99.94% on a Zen 3, in batches of 16, 256 and 4,096), accuracy within 0.05 points
     * (measured: +0.01), mean probability difference below 0.002; and really quantised (some
     * probability differs by more than 1e-3).
     */
    private static void assertAsAccurate(float[] expected, float[] quantised, int[] labels, int classes, double sameLanguageShare) {
        int rows = expected.length / classes;
        int sameLanguage = 0;
        int rightFloat = 0;
        int rightInt8 = 0;
        double differenceSum = 0;
        double largest = 0;
        for (int row = 0; row < rows; row++) {
            int a = argmax(expected, row * classes, classes);
            int b = argmax(quantised, row * classes, classes);
            sameLanguage += a == b ? 1 : 0;
            if (row < labels.length) {
                rightFloat += a == labels[row] ? 1 : 0;
                rightInt8 += b == labels[row] ? 1 : 0;
            }
            for (int c = 0; c < classes; c++) {
                double difference = Math.abs(expected[row * classes + c] - quantised[row * classes + c]);
                differenceSum += difference;
                largest = Math.max(largest, difference);
            }
        }
        String summary = String.format("int8 on %s: the same language on %d of %d windows (%.3f%%), accuracy %.3f%% against %.3f%% "
                + "in float, mean |Δp| %.5f, largest %.4f", IntegerKernels.instructionSet(), sameLanguage, rows, 100.0 * sameLanguage / rows,
                100.0 * rightInt8 / labels.length, 100.0 * rightFloat / labels.length, differenceSum / expected.length, largest);
        System.out.println(summary);
        assertTrue(sameLanguage >= sameLanguageShare * rows, summary);
        assertTrue(Math.abs(rightInt8 - rightFloat) <= 0.0005 * labels.length, summary);
        assertTrue(differenceSum / expected.length < 0.002, summary);
        assertTrue(largest > 1e-3, "the int8 flavour computes in int8: " + summary);
    }

    private static int argmax(float[] values, int from, int count) {
        int best = 0;
        for (int i = 1; i < count; i++) {
            if (values[from + i] > values[from + best]) {
                best = i;
            }
        }
        return best;
    }

    @Test
    void theSeedTutorialsBlockIsWrittenToo() {
        ModelConfig config = ModelConfig.seedTutorial(java.util.List.of("en", "de", "fr"));
        assertFloatGraphMatchesSameDiff(config, ParameterLayout.of(config).initialise(7, org.nd4j.linalg.api.buffer.DataType.FLOAT), 4096, 3);
    }

    /**
     * The ONNX graph folds each layer norm's gain and bias into the layer after it (the final one
     * past the mean): with gains and biases far from their initial 1 and 0, two layers, with n-grams
     * and without (where the first block's input and projections are a table), it still computes
     * what the SameDiff graph computes, all-padding windows included.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(ints = {0, 509})
    void layerNormsWithTrainedGainsAndBiasesAreWrittenExactly(int ngramBuckets) {
        ModelConfig config = fourLanguages(ngramBuckets);
        config.layers = 2;
        ParameterLayout layout = ParameterLayout.of(config);
        INDArray parameters = layout.initialise(11, org.nd4j.linalg.api.buffer.DataType.FLOAT);
        java.util.SplittableRandom random = new java.util.SplittableRandom(5);
        int norms = 0;
        for (Map.Entry<String, INDArray> view : layout.views(parameters).entrySet()) {
            if (view.getKey().endsWith("/gain") || view.getKey().endsWith("/bias")) {
                boolean gain = view.getKey().endsWith("/gain");
                for (long i = 0; i < view.getValue().length(); i++) {
                    view.getValue().putScalar(i, gain ? 0.5 + random.nextDouble() : random.nextDouble() - 0.5);
                }
                norms++;
            }
        }
        assertEquals(2 * (2 * config.layers + 1), norms, "every layer norm's gain and bias drawn");
        assertFloatGraphMatchesSameDiff(config, parameters, 2048, 9);
    }

    /** The float ONNX graph against the SameDiff graph on {@code windows} random windows, then one padded window of each length. */
    private static void assertFloatGraphMatchesSameDiff(ModelConfig config, INDArray parameters, int windows, long seed) {
        ModelArtefact artefact = TestArtefacts.create(config, parameters, java.time.Instant.parse("2026-11-23T00:00:00Z"));
        int[] symbols = withPaddedWindows(randomSymbols(windows, config.window, seed), config.window);
        int rows = symbols.length / config.window;
        float[] expected = sameDiffProbabilities(artefact.newGraph(), config, symbols, rows);
        try (OnnxWindowClassifier classifier = new OnnxWindowClassifier(
                OnnxGraphWriter.write(config, parameters, "test"), "test", config.window, config.classes(), 1)) {
            assertClose(expected, probabilitiesInBatches(classifier, symbols, rows, config.window), config.classes());
        }
    }

    /** ngram_dim 0: rows of width d_model added as they are; 16: narrower rows and their projection. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(ints = {0, 16})
    void theNgramTableIsComputedInTheOnnxGraphAsInTraining(int ngramDim) throws Exception {
        ModelConfig config = fourLanguages(509);
        config.ngramDim = ngramDim;
        ParameterLayout layout = ParameterLayout.of(config);
        INDArray parameters = layout.initialise(3, org.nd4j.linalg.api.buffer.DataType.FLOAT);
        layout.views(parameters).get(LanguageIdGraph.NGRAM_TABLE).muli(50);   // n-grams dominate the input: a wrong bucket shows
        ModelArtefact artefact = TestArtefacts.create(config, parameters, java.time.Instant.parse("2026-11-23T00:00:00Z"));
        LabelledWindows test = SampleCorpus.load(config.languages, config.window, 4).get(Split.TEST);
        int[] symbols = withPaddedWindows(test.symbols(), config.window);
        int rows = symbols.length / config.window;
        float[] expected = sameDiffProbabilities(artefact.newGraph(), config, symbols, rows);
        try (OnnxWindowClassifier classifier = new OnnxWindowClassifier(
                OnnxGraphWriter.write(config, parameters, "test"), "test", config.window, config.classes(), 1)) {
            assertClose(expected, probabilitiesInBatches(classifier, symbols, rows, config.window), config.classes());
        }
        // The int8 flavour's table (int8, a scale per column): the same language almost everywhere
        // (measured: 99.18% with ngram_dim 0, 98.92% with 16; random weights and a table ×50 make
        // many windows close calls).
        try (OnnxWindowClassifier int8 = new OnnxWindowClassifier(OnnxGraphWriter.write(config, parameters, "test",
                OnnxGraphWriter.Precision.INT8), "test", config.window, config.classes(), 1)) {
            float[] quantised = probabilitiesInBatches(int8, symbols, rows, config.window);
            int same = 0;
            for (int row = 0; row < rows; row++) {
                same += argmax(expected, row * config.classes(), config.classes()) == argmax(quantised, row * config.classes(), config.classes()) ? 1 : 0;
            }
            String summary = String.format("int8 on %s, ngram_dim %d: the same language on %d of %d windows (%.2f%%)",
                    IntegerKernels.instructionSet(), ngramDim, same, rows, 100.0 * same / rows);
            System.out.println(summary);
            assertTrue(same >= 0.985 * rows, summary);
        }
        // And the n-grams matter: without the table the same windows come out otherwise.
        layout.views(parameters).get(LanguageIdGraph.NGRAM_TABLE).assign(0);
        try (OnnxWindowClassifier withoutNgrams = new OnnxWindowClassifier(
                OnnxGraphWriter.write(config, parameters, "test"), "test", config.window, config.classes(), 1)) {
            float[] other = probabilitiesInBatches(withoutNgrams, symbols, rows, config.window);
            double largest = 0;
            for (int i = 0; i < other.length; i++) {
                largest = Math.max(largest, Math.abs(other[i] - expected[i]));
            }
            assertTrue(largest > 0.05, "the n-gram table changes the probabilities: " + largest);
        }
    }

    /**
     * A model with an n-gram filter: the ONNX flavours test each n-gram's bit as the SameDiff path
     * does, n-grams outside the filter select nothing there, and the windows the filter was made
     * from come out as without it.
     */
    @Test
    void theNgramFilterIsAppliedInTheOnnxGraphAsInTheSameDiffGraph() throws Exception {
        ModelConfig config = filterTestConfig(1 << 16);
        ParameterLayout layout = ParameterLayout.of(config);
        INDArray parameters = layout.initialise(3, org.nd4j.linalg.api.buffer.DataType.FLOAT);
        layout.views(parameters).get(LanguageIdGraph.NGRAM_TABLE).muli(50);
        java.util.Map<Split, LabelledWindows> corpus = SampleCorpus.load(config.languages, config.window, 4);
        int[] seen = withPaddedWindows(java.util.Arrays.copyOf(corpus.get(Split.TRAIN).symbols(), 300 * config.window), config.window);
        int seenRows = seen.length / config.window;
        NgramFilter filter = NgramFilter.empty(config.ngramFilterBits);
        filter.addAll(Alphabet.SEED, seen, seenRows, config.window, config.ngramMaxOrder);
        int[] symbols = withPaddedWindows(corpus.get(Split.TEST).symbols(), config.window);
        int rows = symbols.length / config.window;
        int[] ids = org.langid.model.graph.CharacterNgrams.buckets(Alphabet.SEED, symbols, rows, config.window, config.ngramMaxOrder, config.ngramBuckets, filter);
        long dropped = java.util.Arrays.stream(ids).filter(id -> id == org.langid.model.graph.CharacterNgrams.NONE).count()
                - java.util.Arrays.stream(org.langid.model.graph.CharacterNgrams.buckets(Alphabet.SEED, symbols, rows, config.window, config.ngramMaxOrder,
                        config.ngramBuckets, null)).filter(id -> id == org.langid.model.graph.CharacterNgrams.NONE).count();
        assertTrue(dropped > ids.length / 10, "the test windows hold n-grams the filter has not: " + dropped + " of " + ids.length);

        ModelArtefact filtered = TestArtefacts.create(config, parameters, filter, java.time.Instant.parse("2026-11-23T00:00:00Z"));
        assertEquals(filter, filtered.ngramFilter(), "the graph carries the filter bit for bit");
        float[] expected = sameDiffProbabilities(filtered.newGraph(), config, symbols, rows);
        String version = filtered.manifest().modelVersion();
        try (OnnxWindowClassifier classifier = new OnnxWindowClassifier(filtered.onnxModel().orElseThrow(), version, config.window, config.classes(), 1);
             OnnxWindowClassifier int8 = new OnnxWindowClassifier(filtered.onnxInt8Model().orElseThrow(), version, config.window, config.classes(), 1)) {
            assertClose(expected, probabilitiesInBatches(classifier, symbols, rows, config.window), config.classes());
            float[] quantised = probabilitiesInBatches(int8, symbols, rows, config.window);
            int same = 0;
            for (int row = 0; row < rows; row++) {
                same += argmax(expected, row * config.classes(), config.classes()) == argmax(quantised, row * config.classes(), config.classes()) ? 1 : 0;
            }
            String summary = String.format("int8 on %s with the filter: the same language on %d of %d windows (%.2f%%)",
                    IntegerKernels.instructionSet(), same, rows, 100.0 * same / rows);
            System.out.println(summary);
            assertTrue(same >= 0.985 * rows, summary + "; measured 99.13%");
        }

        ModelConfig unfilteredConfig = filterTestConfig(0);
        SameDiff unfiltered = TestArtefacts.create(unfilteredConfig, parameters, java.time.Instant.parse("2026-11-23T00:00:00Z")).newGraph();
        float[] without = sameDiffProbabilities(unfiltered, unfilteredConfig, symbols, rows);
        double largest = 0;
        for (int i = 0; i < without.length; i++) {
            largest = Math.max(largest, Math.abs(without[i] - expected[i]));
        }
        assertTrue(largest > 0.05, "the filter changes the probabilities of unseen windows: " + largest);
        assertClose(sameDiffProbabilities(unfiltered, unfilteredConfig, seen, seenRows),
                sameDiffProbabilities(filtered.newGraph(), config, seen, seenRows), config.classes());
    }

    /**
     * An alphabet of 3,000 CJK symbols plus the fallbacks: n-gram codes no longer fit in 63 bits
     * and are computed modulo p term by term, in Java and in the ONNX graph alike; the embedding
     * has a row per symbol. Both flavours agree with the SameDiff graph on random windows of it.
     */
    @Test
    void aLargeDerivedAlphabetIsReadAsInTraining() {
        java.util.Map<Character, Long> counts = new java.util.HashMap<>();
        for (char c = '\u4E00'; c < '\u4E00' + 3000; c++) {
            counts.put(c, 20L);
        }
        Alphabet alphabet = Alphabet.derive(java.util.Map.of("zh", counts), 1.0, 1);
        assertEquals(3000 + 1 + Alphabet.FALLBACK_SCRIPTS.size(), alphabet.size(), "the characters, space and the fallbacks");
        assertTrue(!org.langid.model.graph.CharacterNgrams.exactCodes(alphabet), "codes modulo p");
        ModelConfig config = filterTestConfig(1 << 16).withAlphabet(alphabet);
        ParameterLayout layout = ParameterLayout.of(config);
        INDArray parameters = layout.initialise(3, org.nd4j.linalg.api.buffer.DataType.FLOAT);
        layout.views(parameters).get(LanguageIdGraph.NGRAM_TABLE).muli(50);
        java.util.SplittableRandom random = new java.util.SplittableRandom(5);
        int rows = 600;
        int[] symbols = new int[rows * config.window];
        for (int i = 0; i < symbols.length; i++) {
            // a tenth of the positions padding (only at a window's end, as the detector pads)
            int j = i % config.window;
            symbols[i] = j > 12 && random.nextInt(10) == 0 ? alphabet.pad() : random.nextInt(alphabet.size());
            if (j > 0 && symbols[i - 1] == alphabet.pad()) {
                symbols[i] = alphabet.pad();
            }
        }
        NgramFilter filter = NgramFilter.empty(config.ngramFilterBits);
        filter.addAll(alphabet, java.util.Arrays.copyOf(symbols, rows / 2 * config.window), rows / 2, config.window, config.ngramMaxOrder);
        ModelArtefact artefact = TestArtefacts.create(config, parameters, filter, java.time.Instant.parse("2026-11-23T00:00:00Z"));
        assertEquals(alphabet, artefact.manifest().alphabet());
        float[] expected = sameDiffProbabilities(artefact.newGraph(), config, symbols, rows);
        String version = artefact.manifest().modelVersion();
        try (OnnxWindowClassifier classifier = new OnnxWindowClassifier(artefact.onnxModel().orElseThrow(), version, config.window,
                config.classes(), 1)) {
            assertClose(expected, probabilitiesInBatches(classifier, symbols, rows, config.window), config.classes());
        }
    }

    private static ModelConfig filterTestConfig(int filterBits) {
        ModelConfig config = fourLanguages(509);
        config.ngramDim = 16;
        config.ngramFilterBits = filterBits;
        return config;
    }

    /** The default model for en, de, fr and es, with a small n-gram table (0: none). */
    private static ModelConfig fourLanguages(int ngramBuckets) {
        ModelConfig config = TestConfigs.model();
        config.languages = java.util.List.of("en", "de", "fr", "es");
        config.ngramBuckets = ngramBuckets;
        return config;
    }

    /** The windows, then one padded window of each real length 0 … T−1 (all padding included). */
    static int[] withPaddedWindows(char[] windows, int t) {
        int[] symbols = new int[windows.length + t * t];
        for (int i = 0; i < windows.length; i++) {
            symbols[i] = windows[i];
        }
        for (int length = 0; length < t; length++) {
            for (int j = 0; j < t; j++) {
                symbols[windows.length + length * t + j] = j < length ? (length * 7 + j * 3) % Alphabet.SEED.pad() : Alphabet.SEED.pad();
            }
        }
        return symbols;
    }

    private static char[] randomSymbols(int rows, int t, long seed) {
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        char[] symbols = new char[rows * t];
        for (int i = 0; i < symbols.length; i++) {
            symbols[i] = (char) random.nextInt(Alphabet.SEED.pad());
        }
        return symbols;
    }

    /**
     * In batches of 4,096, as the detector runs it: one call on 100k windows allocates gigabytes.
     * The model's own config, so that an n-gram model gets its n-gram input.
     */
    private static float[] sameDiffProbabilities(SameDiff graph, ModelConfig config, int[] symbols, int rows) {
        int t = config.window;
        float[] all = null;
        for (int from = 0; from < rows; from += 4096) {
            int n = Math.min(4096, rows - from);
            Map<String, INDArray> feed = LanguageIdGraph.inputs(config, graph, java.util.Arrays.copyOfRange(symbols, from * t, (from + n) * t), n);
            float[] batch = graph.output(feed, LanguageIdGraph.PROBABILITIES).get(LanguageIdGraph.PROBABILITIES).dup('c').data().asFloat();
            if (all == null) {
                all = new float[rows * (batch.length / n)];
            }
            System.arraycopy(batch, 0, all, from * (batch.length / n), batch.length);
        }
        return all;
    }

    private static float[] probabilitiesInBatches(OnnxWindowClassifier classifier, int[] symbols, int rows, int t) {
        int classes = -1;
        float[] all = null;
        for (int from = 0; from < rows; from += 4096) {
            int n = Math.min(4096, rows - from);
            int[] slice = java.util.Arrays.copyOfRange(symbols, from * t, (from + n) * t);
            float[] batch = classifier.probabilities(slice, n);
            if (all == null) {
                classes = batch.length / n;
                all = new float[rows * classes];
            }
            System.arraycopy(batch, 0, all, from * classes, batch.length);
        }
        return all;
    }

    private static void assertClose(float[] expected, float[] actual, int classes) {
        assertEquals(expected.length, actual.length);
        double worst = 0;
        int worstRow = -1;
        for (int i = 0; i < expected.length; i++) {
            double difference = Math.abs(expected[i] - actual[i]);
            if (difference > worst) {
                worst = difference;
                worstRow = i / classes;
            }
        }
        assertTrue(worst <= TOLERANCE, "largest difference " + worst + " at window " + worstRow + " of " + expected.length / classes);
    }
}
