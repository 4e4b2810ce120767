package org.langid.model.predict;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.langid.model.artefact.ModelRegistry;
import org.langid.model.artefact.TestArtefacts;
import org.langid.model.graph.LanguageIdGraph;
import org.langid.model.graph.ModelConfig;
import org.langid.model.graph.ParameterLayout;
import org.langid.serving.Detection;
import org.langid.serving.TextDetector;
import org.langid.text.Alphabet;
import org.langid.text.TextNormalizer;
import org.langid.text.Vocabulary;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

class LanguageDetectorTest {

    /** The detector's own arithmetic is checked against the float graph; the int8 flavour's agreement is OnnxParityTest's. */
    private static final LanguageDetector.Engine FLOAT = LanguageDetector.Engine.ONNX_FLOAT;

    private static final Configuration CONF = new Configuration();
    private static ModelConfig config;
    private static INDArray parameters;
    private static LanguageDetector detector;

    @TempDir
    static Path registryDir;

    @BeforeAll
    static void publishAndLoad() {
        config = TestArtefacts.smallConfig();
        parameters = TestArtefacts.parameters(config, 11);
        new ModelRegistry(registryDir.toString(), CONF).publish(TestArtefacts.create(config, parameters, Instant.now()));
        detector = LanguageDetector.load(registryDir.toString(), CONF, new LanguageDetector.Options(1, 64, 7, 3).withEngine(FLOAT));
    }

    @Test
    void aSentenceIsTheRenormalisedMeanOfItsWindowsLogProbabilities() {
        String text = "Où est la bibliothèque, s'il vous plaît?";
        String normalised = TextNormalizer.normalize(text);
        int n = normalised.length() - 15;
        double[][] windowProbabilities = new double[n][];
        for (int w = 0; w < n; w++) {
            windowProbabilities[w] = reference(normalised.substring(w, w + 16));
        }
        double[] expected = geometricMean(windowProbabilities);

        Detection detection = detector.detect(text);
        assertEquals(n, detection.windows());
        assertArrayEquals(expected, probabilities(detection), 1e-5);
        assertEquals(config.languages.get(argMax(expected)), detection.language());
        assertEquals(expected[argMax(expected)], detection.confidence(), 1e-5);
    }

    @Test
    void textShorterThanAWindowIsOnePaddedWindow() {
        Detection detection = detector.detect("  Hej! ");
        assertEquals(1, detection.windows());
        assertArrayEquals(reference("Hej!"), probabilities(detection), 1e-5);
    }

    @Test
    void textThatNormalisesToNothingIsUndeterminedWithConfidenceZero() {
        for (String text : List.of("", "   \t ", "日本語のテキスト", "\u0301\u0301")) {
            Detection detection = detector.detect(text);
            assertEquals(LanguageDetector.UNDETERMINED, detection.language(), text);
            assertEquals(0.0, detection.confidence(), text);
            assertEquals(0, detection.windows(), text);
            assertTrue(detection.probabilities().isEmpty(), text);
        }
    }

    @Test
    void mixedScriptKeepsItsLatinPart() {
        assertEquals(detector.detect("Москва hello world"), detector.detect("hello world"));
    }

    @Test
    void aVeryLongLineIsBoundedAndItsWindowsSpanTheWholeText() {
        String line = "the quick brown fox jumps over the lazy dog ".repeat(20_000);
        TextDetector.Plan plan = detector.plan(line);
        assertEquals(64, plan.windows());
        assertEquals(0, plan.starts()[0]);
        assertEquals(plan.normalised().length() - 16, plan.starts()[63]);
        assertEquals(64, detector.detect(line).windows());
    }

    @Test
    void aStrideStillCoversTheEndOfTheText() {
        LanguageDetector strided = new LanguageDetector(
                org.langid.model.artefact.ModelArtefact.load(ModelRegistry.resolve(registryDir.toString(), CONF), CONF),
                new LanguageDetector.Options(5, 256, 64, 1).withEngine(FLOAT));
        TextDetector.Plan plan = strided.plan("abcdefghijklmnopqrstuvwxyz");   // 26 characters: starts 0, 5, 10
        assertArrayEquals(new int[] {0, 5, 10}, plan.starts());
        TextDetector.Plan aligned = strided.plan("abcdefghijklmnopqrstu");      // 21 characters: starts 0, 5
        assertArrayEquals(new int[] {0, 5}, aligned.starts());
    }

    @Test
    void batchedDetectionEqualsOneByOneAndIsThreadSafe() throws Exception {
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            texts.add(("Sentence number " + i + " est une phrase; ").repeat(1 + i % 4));
        }
        texts.add("");
        List<Detection> batched = detector.detectAll(texts);
        for (int i = 0; i < texts.size(); i++) {
            // Other batch boundaries change BLAS summation order: equal to float precision.
            Detection single = detector.detect(texts.get(i));
            assertEquals(single.language(), batched.get(i).language(), texts.get(i));
            assertEquals(single.windows(), batched.get(i).windows(), texts.get(i));
            assertEquals(single.confidence(), batched.get(i).confidence(), 1e-6, texts.get(i));
        }
        // The same batches on every thread: bit-identical results.
        ExecutorService pool = Executors.newFixedThreadPool(6);   // more callers than the 3 graph copies
        try {
            List<Future<List<Detection>>> results = new ArrayList<>();
            for (int caller = 0; caller < 12; caller++) {
                results.add(pool.submit(() -> detector.detectAll(texts)));
            }
            for (Future<List<Detection>> result : results) {
                assertEquals(batched, result.get());
            }
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void aWindowInCapitalsIsReadInLowerCaseUnlessFoldingIsOff() {
        // Every window of this text is in capitals: read exactly as its lower-case form.
        assertArrayEquals(probabilities(detector.detect("DECLARATION UNIVERSELLE DES DROITS")),
                probabilities(detector.detect("declaration universelle des droits")), 1e-6);
        assertArrayEquals(reference("hej! hur mar du!"), probabilities(detector.detect("HEJ! HUR MÅR DU!")), 1e-5);
        // A window with a small letter keeps its capitals, as training saw them.
        assertArrayEquals(reference("The UN and the E"), probabilities(detector.detect("The UN and the E")), 1e-5);

        LanguageDetector asWritten = new LanguageDetector(
                org.langid.model.artefact.ModelArtefact.load(ModelRegistry.resolve(registryDir.toString(), CONF), CONF),
                new LanguageDetector.Options(1, 64, 7, 1).withEngine(FLOAT).withFoldCapitals(false));
        assertArrayEquals(reference("HEJ! HUR MAR DU!"), probabilities(asWritten.detect("HEJ! HUR MÅR DU!")), 1e-5);
        // Prepared windows (evaluate's path) follow the same option.
        char[] capitals = Alphabet.SEED.encode("HEJ! HUR MAR DU!");
        float[] folded = detector.windowProbabilities(capitals);
        assertArrayEquals(reference("hej! hur mar du!"), toDoubles(folded), 1e-5);
        assertArrayEquals(reference("HEJ! HUR MAR DU!"), toDoubles(asWritten.windowProbabilities(capitals)), 1e-5);
    }

    private static double[] toDoubles(float[] values) {
        double[] out = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = values[i];
        }
        return out;
    }

    @Test
    void analysisGivesEachWindowsAttentionOverItsRealCharacters() {
        LanguageDetector.Analysis analysis = detector.analyse("Hej! Hur mår du idag?", 3);
        assertEquals(3, analysis.windows().size());
        LanguageDetector.Analysis.Window first = analysis.windows().get(0);
        assertEquals("Hej! Hur mar du ", first.characters());
        assertEquals(config.layers, first.attention().length);
        assertEquals(config.heads, first.attention()[0].length);
        for (float[] row : first.attention()[0][1]) {
            double sum = 0;
            for (float weight : row) {
                sum += weight;
            }
            assertEquals(1.0, sum, 1e-4);
        }
        assertArrayEquals(reference("Hej! Hur mar du "), first.probabilities(), 1e-5);
        LanguageDetector.Analysis shortText = detector.analyse("Hej", 3);
        assertEquals(3, shortText.windows().get(0).attention()[0][0].length, "attention over the 3 real characters only");
    }

    /** The window's probabilities from a graph built directly from the parameters. */
    private static double[] reference(String window) {
        int[] symbols = new int[16];
        for (int j = 0; j < 16; j++) {
            symbols[j] = j < window.length() ? Vocabulary.indexOf(window.charAt(j)) : Alphabet.SEED.pad();
        }
        SameDiff sd = LanguageIdGraph.build(config, parameters.dup()).sameDiff();
        INDArray p = sd.output(Map.of(LanguageIdGraph.WINDOWS, Nd4j.createFromArray(new int[][] {symbols})),
                LanguageIdGraph.PROBABILITIES).get(LanguageIdGraph.PROBABILITIES);
        return p.toDoubleVector();
    }

    private static double[] geometricMean(double[][] rows) {
        int c = rows[0].length;
        double[] mean = new double[c];
        for (double[] row : rows) {
            for (int i = 0; i < c; i++) {
                mean[i] += Math.log(row[i]) / rows.length;
            }
        }
        double sum = 0;
        for (int i = 0; i < c; i++) {
            mean[i] = Math.exp(mean[i]);
            sum += mean[i];
        }
        for (int i = 0; i < c; i++) {
            mean[i] /= sum;
        }
        return mean;
    }

    private static double[] probabilities(Detection detection) {
        return config.languages.stream().mapToDouble(l -> detection.probabilities().get(l)).toArray();
    }

    private static int argMax(double[] values) {
        int best = 0;
        for (int i = 1; i < values.length; i++) {
            if (values[i] > values[best]) {
                best = i;
            }
        }
        return best;
    }
}
