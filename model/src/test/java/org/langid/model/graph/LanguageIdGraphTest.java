package org.langid.model.graph;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.langid.model.config.ConfigException;
import org.langid.model.config.ConfigTree;
import org.langid.text.Alphabet;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.langid.model.TestConfigs;

class LanguageIdGraphTest {

    private static ModelConfig tiny() {
        ModelConfig config = TestConfigs.model();
        config.window = 5;
        config.languages = List.of("en", "de", "fr");
        config.dModel = 4;
        config.heads = 2;
        config.layers = 1;
        config.ffn = 6;
        return config;
    }

    private static INDArray windows(int[][] rows) {
        return Nd4j.createFromArray(rows).castTo(DataType.INT32);
    }

    /** A teacher's probabilities for the two windows the tests train on (three languages). */
    private static final double[][] TEACHER = {{0.2, 0.5, 0.3}, {0.6, 0.1, 0.3}};

    private static Map<String, INDArray> feed(INDArray windows, int... labels) {
        Map<String, INDArray> placeholders = new HashMap<>();
        placeholders.put(LanguageIdGraph.WINDOWS, windows);

        if (labels.length > 0) {
            placeholders.put(LanguageIdGraph.LABELS, Nd4j.createFromArray(labels).castTo(DataType.INT32));
        }
        return placeholders;
    }

    /** Training without dropout or teachers. */
    private static final LanguageIdGraph.Training LABELS_ONLY = new LanguageIdGraph.Training(0, 0);

    /** {@code feed} with fixed dropout masks (seeded) for the placeholders of {@code graph}, if it has any. */
    private static Map<String, INDArray> withDropoutMasks(LanguageIdGraph graph, ModelConfig config, LanguageIdGraph.Training training,
                                                          Map<String, INDArray> feed) {
        Nd4j.getRandom().setSeed(5);
        long rows = feed.get(LanguageIdGraph.WINDOWS).size(0) * config.window;
        for (String mask : graph.dropoutMasks()) {
            feed.put(mask, LanguageIdGraph.dropoutMask(DataType.DOUBLE, rows, config.dModel, training.dropout()));
        }
        return feed;
    }

    /** {@code feed} with {@link #TEACHER} added when {@code training} distils (the graph then has the placeholder). */
    private static Map<String, INDArray> withTeacher(LanguageIdGraph.Training training, Map<String, INDArray> feed) {
        if (training.teacherWeight() > 0) {
            feed.put(LanguageIdGraph.TEACHER, Nd4j.createFromArray(TEACHER));
        }
        return feed;
    }

    @Test
    void gradientsOfATinyTransformerMatchFiniteDifferences() {
        checkGradients(tiny(), LABELS_ONLY);
    }

    @Test
    void gradientsOfTheSeedClassifierMatchFiniteDifferences() {
        ModelConfig seed = ModelConfig.seedTutorial(List.of("en", "de", "fr"));
        seed.window = 5;
        seed.dModel = 3;
        seed.headSize = 4;
        checkGradients(seed, LABELS_ONLY);
    }

    @Test
    void distillationMixesTheTeachersProbabilitiesIntoTheTargetAndItsGradientsMatchFiniteDifferences() {
        ModelConfig config = tiny();
        LanguageIdGraph.Training distilled = new LanguageIdGraph.Training(0, 0.4);
        checkGradients(config, distilled);

        TwoWindows two = TwoWindows.of(config, distilled);
        assertEquals(two.crossEntropy((row, language) -> 0.6 * (language == two.labels()[row] ? 1 : 0) + 0.4 * TEACHER[row][language]),
                two.loss(), 1e-9);
        assertTrue(Math.abs(TwoWindows.of(config, LABELS_ONLY).loss() - two.loss()) > 1e-3, "the teacher moves the loss");
    }

    @Test
    void dropoutAndTeachersComeFromTheTrainingRecipeAndAnInferenceGraphHasNeither() {
        ModelConfig config = tiny();
        INDArray parameters = ParameterLayout.of(config).initialise(3, DataType.DOUBLE);
        LanguageIdGraph.Training recipe = new LanguageIdGraph.Training(0.25, 0.4);
        LanguageIdGraph training = LanguageIdGraph.buildForTraining(config, parameters, recipe);
        assertEquals(2 * config.layers, training.dropoutMasks().size(), "after attention and after the feed-forward layer");
        assertTrue(training.sameDiff().hasVariable(LanguageIdGraph.TEACHER));
        assertTrue(LanguageIdGraph.buildForTraining(config, parameters, LABELS_ONLY).dropoutMasks().isEmpty());
        SameDiff inference = LanguageIdGraph.build(config, parameters).sameDiff();
        assertFalse(inference.hasVariable(LanguageIdGraph.TEACHER) || inference.hasVariable(LanguageIdGraph.LOSS));
        checkGradients(config, recipe);   // with the masks fixed
    }

    @Test
    void aRetiredTrainingKeyIsUnknownInAProfileYetManifestsThatRecordItStillLoad() {
        ConfigException retired = assertThrows(ConfigException.class,
                () -> ConfigTree.parse("model:\n  loss: ova\n", "m.yaml").section("model", ModelConfig.class));
        assertTrue(retired.getMessage().startsWith("m.yaml: unknown key 'model.loss'"), retired.getMessage());

        ObjectNode recorded = (ObjectNode) ConfigTree.toJson(tiny());
        recorded.put("loss", "softmax");
        recorded.put("label_smoothing", 0.0);
        recorded.put("consistency", 0.0);
        recorded.put("sharpness", 0.0);
        ObjectNode wrapper = new ObjectMapper().createObjectNode();
        wrapper.set("model", ModelConfig.withoutRetiredKeys(recorded));
        ModelConfig read = ConfigTree.parse(wrapper.toString(), "manifest.json").section("model", ModelConfig.class);
        assertEquals(ConfigTree.toJson(tiny()), ConfigTree.toJson(read));
    }

    @Test
    void aRecipeKeyUnderModelIsNamedWhereItIsNow() {
        ConfigException moved = assertThrows(ConfigException.class,
                () -> ConfigTree.parse("model:\n  optimizer:\n    learning_rate: 0.01\n", "m.yaml").section("model", ModelConfig.class));
        assertEquals("m.yaml: 'model.optimizer' is 'train.optimizer' now", moved.getMessage());
    }

    @Test
    void manifestsThatRecordTheTrainingRecipeInTheModelSectionLoadWithoutIt() {
        ObjectNode recorded = (ObjectNode) ConfigTree.toJson(tiny());
        recorded.put("seed", 7);
        recorded.put("dropout", 0.1);
        recorded.put("ngram_dropout", 0.3);
        recorded.putObject("optimizer").put("name", "adam").put("learning_rate", 0.002);
        recorded.putObject("distillation").put("weight", 0.0);
        ObjectNode wrapper = new ObjectMapper().createObjectNode();
        wrapper.set("model", ModelConfig.withoutRetiredKeys(recorded));
        ModelConfig read = ConfigTree.parse(wrapper.toString(), "manifest.json").section("model", ModelConfig.class);
        assertEquals(ConfigTree.toJson(tiny()), ConfigTree.toJson(read));
    }

    /** The training graph of {@code config} (parameters from seed 3) fed two windows, labelled 1 and 2: the losses computed by hand. */
    private record TwoWindows(SameDiff sd, Map<String, INDArray> feed, int[] labels) {
        static TwoWindows of(ModelConfig config, LanguageIdGraph.Training training) {
            INDArray parameters = ParameterLayout.of(config).initialise(3, DataType.DOUBLE);
            int[] labels = {1, 2};
            LanguageIdGraph graph = LanguageIdGraph.buildForTraining(config, parameters, training);
            return new TwoWindows(graph.sameDiff(), withDropoutMasks(graph, config, training,
                    withTeacher(training, LanguageIdGraphTest.feed(windows(new int[][] {{0, 27, 62, 3, 67}, {10, 11, 12, 13, 14}}), labels))), labels);
        }

        INDArray output(String name) {
            return sd.output(feed, name).get(name);
        }

        double loss() {
            return LanguageIdGraphTest.loss(sd, feed);
        }

        /** Softmax cross-entropy against {@code target(row, language)}, mean over the two windows, computed by hand. */
        double crossEntropy(java.util.function.BiFunction<Integer, Integer, Double> target) {
            INDArray probabilities = output(LanguageIdGraph.PROBABILITIES);
            double sum = 0;
            for (int row = 0; row < 2; row++) {
                for (int language = 0; language < 3; language++) {
                    sum -= target.apply(row, language) * Math.log(probabilities.getDouble(row, language));
                }
            }
            return sum / 2;
        }

        /** The training target of one language of a window: 1 - ε + ε/3 on its label, ε/3 on the two others. */
        double target(int row, int language, double smoothing) {
            return (language == labels[row] ? 1 - smoothing : 0.0) + smoothing / 3;
        }
    }

    /** Central differences on every parameter, double precision, against SameDiff's gradients. */
    private static void checkGradients(ModelConfig config, LanguageIdGraph.Training training) {
        ParameterLayout layout = ParameterLayout.of(config);
        INDArray parameters = layout.initialise(7, DataType.DOUBLE);
        // Make biases and norms non-trivial so their gradients are exercised.
        parameters.addi(Nd4j.rand(DataType.DOUBLE, parameters.length()).subi(0.5).muli(0.2));
        LanguageIdGraph graph = LanguageIdGraph.buildForTraining(config, parameters, training);
        SameDiff sd = graph.sameDiff();
        // Second row padded at its end: the gradient must flow correctly around the mask.
        Map<String, INDArray> feed = withDropoutMasks(graph, config, training, withTeacher(training,
                feed(windows(new int[][] {{0, 27, 62, 3, 67}, {10, 11, 12, Alphabet.SEED.pad(), Alphabet.SEED.pad()}}), 1, 2)));
        Map<String, INDArray> gradients = sd.calculateGradients(feed, graph.parameterNames());
        double eps = 1e-6;
        int checked = 0;
        for (String name : graph.parameterNames()) {
            INDArray variable = sd.getArrForVarName(name);
            INDArray flatView = variable.reshape(variable.length());
            INDArray gradient = gradients.get(name).reshape(variable.length());
            for (long i = 0; i < variable.length(); i++) {
                double original = flatView.getDouble(i);
                flatView.putScalar(i, original + eps);
                double plus = loss(sd, feed);
                flatView.putScalar(i, original - eps);
                double minus = loss(sd, feed);
                flatView.putScalar(i, original);
                double numeric = (plus - minus) / (2 * eps);
                double analytic = gradient.getDouble(i);
                double scale = Math.max(1e-4, Math.abs(numeric) + Math.abs(analytic));
                assertTrue(Math.abs(numeric - analytic) / scale < 1e-4,
                        name + "[" + i + "]: analytic " + analytic + ", numeric " + numeric);
                checked++;
            }
        }
        assertEquals(layout.size(), checked);
    }

    private static double loss(SameDiff sd, Map<String, INDArray> feed) {
        return sd.output(feed, LanguageIdGraph.LOSS).get(LanguageIdGraph.LOSS).getDouble(0);
    }

    @Test
    void permutingTheCharactersOfAWindowChangesTheOutput() {
        ModelConfig config = TestConfigs.model();
        INDArray parameters = ParameterLayout.of(config).initialise(3, DataType.FLOAT);
        LanguageIdGraph graph = LanguageIdGraph.build(config, parameters);
        int[] window = {7, 4, 11, 11, 14, 62, 22, 14, 17, 11, 3, 62, 0, 1, 2, 63};
        int[] reversed = new int[window.length];
        for (int i = 0; i < window.length; i++) {
            reversed[i] = window[window.length - 1 - i];
        }
        INDArray logits = graph.sameDiff().output(feed(windows(new int[][] {window, reversed})), LanguageIdGraph.LOGITS)
                .get(LanguageIdGraph.LOGITS);
        double difference = logits.getRow(0).sub(logits.getRow(1)).norm2Number().doubleValue();
        assertTrue(difference > 1e-4, "same characters in another order give other logits: " + difference);

        ModelConfig noPositions = TestConfigs.model();
        noPositions.positional = false;
        LanguageIdGraph bagOfCharacters = LanguageIdGraph.build(noPositions, ParameterLayout.of(noPositions).initialise(3, DataType.FLOAT));
        INDArray same = bagOfCharacters.sameDiff().output(feed(windows(new int[][] {window, reversed})), LanguageIdGraph.LOGITS)
                .get(LanguageIdGraph.LOGITS);
        assertArrayEquals(same.getRow(0).toFloatVector(), same.getRow(1).toFloatVector(), 1e-5f,
                "control: without positions, attention cannot tell the order (the seed's model)");
    }

    @Test
    void saveThenLoadGivesBitIdenticalOutputs() throws Exception {
        ModelConfig config = TestConfigs.model();
        INDArray parameters = ParameterLayout.of(config).initialise(11, DataType.FLOAT);
        LanguageIdGraph graph = LanguageIdGraph.build(config, parameters);
        INDArray input = windows(new int[][] {{1, 24, 62, 45, 0, 13, 6, 62, 51, 0, 8, 24, 0, 13, 6, 64}, {3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18}});
        INDArray before = graph.sameDiff().output(feed(input), LanguageIdGraph.PROBABILITIES).get(LanguageIdGraph.PROBABILITIES);

        // 1. SameDiff's own FlatBuffers format.
        ByteBuffer flat = graph.sameDiff().asFlatBuffers(false);
        SameDiff restored = SameDiff.fromFlatBuffers(flat);
        INDArray afterFlatBuffers = restored.output(feed(input), LanguageIdGraph.PROBABILITIES).get(LanguageIdGraph.PROBABILITIES);
        assertArrayEquals(before.data().asInt(), afterFlatBuffers.data().asInt(), "bit-identical through FlatBuffers");

        // 2. The project's form: config as YAML/JSON + the flat parameter vector, graph rebuilt.
        String configJson = ConfigTree.toJson(config).toString();
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        Nd4j.write(parameters, new java.io.DataOutputStream(bytes));
        ModelConfig reloadedConfig = ConfigTree.parse("model: " + configJson, "saved").section("model", ModelConfig.class);
        INDArray reloadedParameters = Nd4j.read(new java.io.DataInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray())));
        INDArray afterRebuild = LanguageIdGraph.build(reloadedConfig, reloadedParameters).sameDiff()
                .output(feed(input), LanguageIdGraph.PROBABILITIES).get(LanguageIdGraph.PROBABILITIES);
        assertArrayEquals(before.data().asInt(), afterRebuild.data().asInt(), "bit-identical through config + parameters");
    }

    @Test
    void returnsTheAttentionWeightsOfEveryLayerAndHead() {
        ModelConfig config = TestConfigs.model();
        config.layers = 3;
        LanguageIdGraph graph = LanguageIdGraph.build(config, ParameterLayout.of(config).initialise(5, DataType.FLOAT));
        assertEquals(3, graph.attentionOutputs().size());
        int pad = Alphabet.SEED.pad();
        INDArray input = windows(new int[][] {
            {7, 4, 11, 11, 14, 62, 22, 14, 17, 11, 3, 63, pad, pad, pad, pad},
            {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}});
        Map<String, INDArray> out = graph.sameDiff().output(feed(input), graph.attentionOutputs().toArray(new String[0]));
        for (String name : graph.attentionOutputs()) {
            INDArray weights = out.get(name);
            assertArrayEquals(new long[] {2, config.heads, 16, 16}, weights.shape(), name);
            INDArray rowSums = weights.sum(3);
            assertTrue(rowSums.sub(1).amax().getDouble(0) < 1e-5, "rows sum to 1");
            for (int h = 0; h < config.heads; h++) {
                for (int i = 0; i < 16; i++) {
                    for (int j = 12; j < 16; j++) {
                        assertEquals(0.0, weights.getDouble(0, h, i, j), 0.0, "padding gets no attention");
                    }
                }
            }
        }
    }

    @Test
    void dropoutZeroesTheConfiguredShareAndScalesTheRest() {
        Nd4j.getRandom().setSeed(1);
        INDArray out = LanguageIdGraph.dropoutMask(DataType.FLOAT, 200, 500, 0.2);
        double zeroShare = out.eq(0).castTo(DataType.FLOAT).meanNumber().doubleValue();
        assertEquals(0.2, zeroShare, 0.01, "a fifth of 100,000 values dropped");
        assertEquals(1.25f, out.maxNumber().floatValue(), 1e-6f, "survivors scaled by 1 / 0.8");
    }

    @Test
    void configurationIsValidatedWithClearMessagesAndTheSeedModelIsExpressible() {
        ConfigException notDivisible = assertThrows(ConfigException.class,
                () -> ConfigTree.parse("model:\n  d_model: 30\n  heads: 4\n", "m.yaml").section("model", ModelConfig.class));
        assertEquals("m.yaml: section 'model': d_model 30 is not divisible by heads 4", notDivisible.getMessage());
        ConfigException several = assertThrows(ConfigException.class,
                () -> ConfigTree.parse("model:\n  languages: [en]\n  ngram_dim: -1\n  block: rnn\n", "m.yaml").section("model", ModelConfig.class));
        assertTrue(several.getMessage().contains("block 'rnn' is not one of transformer, seed"), several.getMessage());
        assertTrue(several.getMessage().contains("languages must name at least two languages"), several.getMessage());
        assertTrue(several.getMessage().contains("ngram_dim must be 0 (d_model, no projection) or more, got -1"), several.getMessage());
        assertEquals(List.of("en", "de", "und"), ConfigTree.parse("model:\n  languages: [en, de, und]\n", "m.yaml")
                .section("model", ModelConfig.class).languages, "und: the class of text in none of the model's languages");
        ConfigException undAndOne = assertThrows(ConfigException.class,
                () -> ConfigTree.parse("model:\n  languages: [en, und]\n", "m.yaml").section("model", ModelConfig.class));
        assertEquals("m.yaml: section 'model': languages must name at least two languages besides und, got [en, und]", undAndOne.getMessage());
        ConfigException mul = assertThrows(ConfigException.class,
                () -> ConfigTree.parse("model:\n  languages: [en, de, mul]\n", "m.yaml").section("model", ModelConfig.class));
        assertEquals("m.yaml: section 'model': languages: 'mul' names no language", mul.getMessage());

        ModelConfig seed = ConfigTree.parse(
                "model:\n  block: seed\n  d_model: 8\n  head_size: 16\n  scaled: false\n  positional: false\n  ngram_buckets: 0\n"
                        + "  languages: [en, de, fr, es, it, pt, nl, sv]\n", "seed.yaml").section("model", ModelConfig.class);
        ParameterLayout layout = ParameterLayout.of(seed);
        // Embedding 69×8, W_q/W_k/W_v 8×16 (no bias, as in the tutorial), fc 16×8 + 8.
        assertEquals(69 * 8 + 3 * 8 * 16 + 16 * 8 + 8, layout.size());
        assertEquals(List.of("embedding", "seed/wq", "seed/wk", "seed/wv", "classifier/w", "classifier/b"),
                layout.params().stream().map(ParameterLayout.Param::name).toList());
        LanguageIdGraph graph = LanguageIdGraph.build(seed, layout.initialise(1, DataType.FLOAT));
        assertFalse(graph.attentionOutputs().isEmpty());
        assertEquals(73_032, ParameterLayout.of(TestConfigs.model()).size(), "two layers on characters alone: the same count as the PyTorch reference");
    }
}
