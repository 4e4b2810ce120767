package org.langid.model.artefact;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.langid.model.config.ConfigTree;
import org.langid.model.graph.LanguageIdGraph;
import org.langid.model.graph.ModelConfig;
import org.langid.model.train.TrainConfig;
import org.langid.text.TextNormalizer;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

class ModelArtefactTest {

    private static final Configuration CONF = new Configuration();
    private static final Instant CREATED = Instant.parse("2026-11-21T10:15:30Z");

    @TempDir
    Path dir;

    @Test
    void writtenAndLoadedArtefactComputesWhatTheTrainedParametersCompute() {
        ModelConfig config = TestArtefacts.smallConfig();
        INDArray parameters = TestArtefacts.parameters(config, 7);
        TestArtefacts.create(config, parameters, CREATED).writeTo(dir.toString(), CONF);

        ModelArtefact loaded = ModelArtefact.load(dir.toString(), CONF);
        INDArray windows = Nd4j.createFromArray(new int[][] {
                {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
                {30, 31, 62, 40, 68, 68, 68, 68, 68, 68, 68, 68, 68, 68, 68, 68}});
        Map<String, INDArray> feed = Map.of(LanguageIdGraph.WINDOWS, windows);
        INDArray expected = LanguageIdGraph.build(config, parameters.dup()).sameDiff()
                .output(feed, LanguageIdGraph.PROBABILITIES).get(LanguageIdGraph.PROBABILITIES);
        INDArray actual = loaded.newGraph().output(feed, LanguageIdGraph.PROBABILITIES).get(LanguageIdGraph.PROBABILITIES);
        assertArrayEquals(expected.data().asFloat(), actual.data().asFloat(), 0f);

        Manifest manifest = loaded.manifest();
        assertEquals(ModelArtefact.FORMAT_VERSION, manifest.formatVersion());
        assertEquals("20261121T101530Z-", manifest.modelVersion().substring(0, 17));
        assertEquals(config.languages, manifest.languages());
        assertEquals(TextNormalizer.RULE_ID, manifest.normalisation());
        assertEquals(config.dModel, manifest.modelConfig().dModel);
        assertEquals("test-fingerprint", manifest.dataFingerprint());
        assertEquals(0.5, manifest.metrics().get("validation_accuracy"));
        assertEquals("{}\n", loaded.metricsLog().orElseThrow());
        assertFalse(Files.exists(dir.resolve("." + ModelArtefact.GRAPH + ".crc")), "no Hadoop .crc side files in an artefact");
        assertArrayEquals(parameters.toFloatVector(), loaded.parameters().toFloatVector(), 0f, "parameters come back for a warm start");
    }

    @Test
    void aManifestHoldsTheArchitectureInModelAndTheRecipeInTrainingTrain() {
        ModelConfig config = TestArtefacts.smallConfig();
        ObjectNode training = Manifest.JSON.createObjectNode().put("data_fingerprint", "f");
        training.set("train", ConfigTree.toJson(new TrainConfig()));
        ObjectNode manifest = ModelArtefact.create(config, TestArtefacts.parameters(config, 7), training, Map.of(), null, CREATED)
                .manifest().toJson();
        JsonNode model = manifest.get("model");
        for (String recipe : ModelConfig.MOVED_TO_TRAIN) {
            assertFalse(model.has(recipe), recipe + " is how the model was trained, not what it is");
            assertTrue(manifest.at("/training/train").has(recipe), recipe);
        }
        assertEquals(config.dModel, model.get("d_model").asInt());
    }

    /** The seed model (models/versions, the release before the 82-language one) was written while the recipe was part of the model section. */
    @Test
    void aManifestWithTheRecipeInItsModelSectionLoadsAndShowsTheRecipeUnderTraining() {
        ModelArtefact release = ModelArtefact.load(Path.of("..", "models", "versions", "20261128T222203Z-b9cd9045").toString(), CONF);
        Manifest manifest = release.manifest();
        assertTrue(manifest.toJson().get("model").has("optimizer"), "the release's manifest as written");
        assertEquals(64, manifest.modelConfig().dModel);
        JsonNode train = manifest.training().get("train");
        assertEquals(12345, train.get("seed").asLong());
        assertEquals(0.3, train.get("ngram_dropout").asDouble());
        assertEquals(0.002, train.at("/optimizer/learning_rate").asDouble());
        assertEquals(0.0, train.at("/distillation/weight").asDouble());
        assertEquals(256, train.get("batch_size").asInt(), "beside what the train section held");
        assertEquals(manifest.dataFingerprint(), manifest.training().get("data_fingerprint").asText());
    }

    @Test
    void aFlippedByteIsRefusedNamingTheFile() throws IOException {
        write();
        Path graph = dir.resolve(ModelArtefact.GRAPH);
        byte[] bytes = Files.readAllBytes(graph);
        bytes[bytes.length / 2] ^= 0x01;
        Files.write(graph, bytes);
        ArtefactException e = assertThrows(ArtefactException.class, () -> ModelArtefact.load(dir.toString(), CONF));
        assertTrue(e.getMessage().contains("graph.fb does not match its SHA-256"), e.getMessage());
        assertTrue(e.getMessage().contains("damaged"), e.getMessage());
    }

    @Test
    void aMissingFileIsRefused() throws IOException {
        write();
        Files.delete(dir.resolve(ModelArtefact.GRAPH));
        ArtefactException e = assertThrows(ArtefactException.class, () -> ModelArtefact.load(dir.toString(), CONF));
        assertTrue(e.getMessage().contains("graph.fb is listed in manifest.json but missing"), e.getMessage());
    }

    @Test
    void aMissingManifestSaysThisIsNotAnArtefact() {
        ArtefactException e = assertThrows(ArtefactException.class, () -> ModelArtefact.load(dir.toString(), CONF));
        assertTrue(e.getMessage().contains("has no manifest.json: it is not a model artefact"), e.getMessage());
    }

    @Test
    void aNewerFormatIsRefusedEvenIfItsManifestLooksDifferent() throws IOException {
        write();
        Path manifest = dir.resolve(ModelArtefact.MANIFEST);
        String text = Files.readString(manifest).replace("\"format_version\" : 1", "\"format_version\" : 2")
                .replace("\"window\"", "\"window_length\"");
        Files.writeString(manifest, text);
        ArtefactException e = assertThrows(ArtefactException.class, () -> ModelArtefact.load(dir.toString(), CONF));
        assertTrue(e.getMessage().contains("artefact format 2 is newer than this langid reads (up to 1)"), e.getMessage());
    }

    @Test
    void aTruncatedOrInvalidManifestIsRefused() throws IOException {
        write();
        Path manifest = dir.resolve(ModelArtefact.MANIFEST);
        String text = Files.readString(manifest);
        Files.writeString(manifest, text.substring(0, text.length() / 2));
        ArtefactException truncated = assertThrows(ArtefactException.class, () -> ModelArtefact.load(dir.toString(), CONF));
        assertTrue(truncated.getMessage().contains("is not valid JSON"), truncated.getMessage());

        Files.writeString(manifest, text.replace("\"pad_index\"", "\"padding\""));
        ArtefactException invalid = assertThrows(ArtefactException.class, () -> ModelArtefact.load(dir.toString(), CONF));
        assertTrue(invalid.getMessage().contains("does not match model-manifest.schema.json"), invalid.getMessage());
    }

    @Test
    void anotherNormalisationRuleIsRefused() throws IOException {
        write();
        Path manifest = dir.resolve(ModelArtefact.MANIFEST);
        Files.writeString(manifest, Files.readString(manifest, StandardCharsets.UTF_8).replace(TextNormalizer.RULE_ID, "nfkc/v9"));
        ArtefactException e = assertThrows(ArtefactException.class, () -> ModelArtefact.load(dir.toString(), CONF));
        assertTrue(e.getMessage().contains("normalisation 'nfkc/v9' is not one this langid implements"), e.getMessage());
    }

    @Test
    void aTamperedOnnxFlavourIsRefusedNamingTheFile() throws IOException {
        write();
        Path onnx = dir.resolve(ModelArtefact.ONNX);
        byte[] bytes = Files.readAllBytes(onnx);
        bytes[bytes.length / 2] ^= 0x01;
        Files.write(onnx, bytes);
        ArtefactException e = assertThrows(ArtefactException.class, () -> ModelArtefact.load(dir.toString(), CONF));
        assertTrue(e.getMessage().contains("model.onnx does not match its SHA-256"), e.getMessage());
    }

    @Test
    void anOnnxFlavourOfAnotherModelIsRefusedEvenWithItsChecksumListed(@TempDir Path other) throws IOException {
        write();
        ModelConfig config = TestArtefacts.smallConfig();
        TestArtefacts.create(config, TestArtefacts.parameters(config, 8), CREATED.plusSeconds(60)).writeTo(other.toString(), CONF);
        byte[] foreign = Files.readAllBytes(other.resolve(ModelArtefact.ONNX));
        Files.write(dir.resolve(ModelArtefact.ONNX), foreign);
        String manifest = Files.readString(dir.resolve(ModelArtefact.MANIFEST));
        String listed = ModelArtefact.load(other.toString(), CONF).manifest().fileChecksums().get(ModelArtefact.ONNX);
        String ours = ModelArtefact.sha256(Files.readAllBytes(other.resolve(ModelArtefact.ONNX)));
        assertEquals(listed, ours);
        Files.writeString(dir.resolve(ModelArtefact.MANIFEST), manifest.replaceAll(
                "(\"model.onnx\" : \\{\\s*\"sha256\" : \")[0-9a-f]{64}", "$1" + ours));
        ArtefactException e = assertThrows(ArtefactException.class, () -> ModelArtefact.load(dir.toString(), CONF));
        assertTrue(e.getMessage().contains("model.onnx was written for model 20261121T101630Z-"), e.getMessage());
        assertTrue(e.getMessage().contains("mixes files of two models"), e.getMessage());
    }

    @Test
    void anArtefactWithoutTheOnnxFlavourStillDetectsThroughItsGraphAndCanBeGivenOne() throws IOException {
        write();
        unlist(ModelArtefact.ONNX, ModelArtefact.ONNX_INT8);
        ModelArtefact old = ModelArtefact.load(dir.toString(), CONF);
        assertTrue(old.onnxModel().isEmpty() && old.onnxInt8Model().isEmpty());
        String text = "Où est la bibliothèque, s'il vous plaît?";
        try (var graph = new org.langid.model.predict.LanguageDetector(old, org.langid.model.predict.LanguageDetector.Options.defaults())) {
            assertEquals("samediff", graph.engine());
            ModelArtefact upgraded = old.withOnnxFlavour();
            assertEquals(old.manifest().modelVersion(), upgraded.manifest().modelVersion());
            upgraded.writeTo(dir.toString(), CONF);
            ModelArtefact reloaded = ModelArtefact.load(dir.toString(), CONF);
            assertTrue(reloaded.onnxModel().isPresent() && reloaded.onnxInt8Model().isPresent(), "both flavours added");
            var expected = graph.detect(text).probabilities();
            try (var fast = new org.langid.model.predict.LanguageDetector(reloaded,
                    org.langid.model.predict.LanguageDetector.Options.defaults().withEngine(org.langid.model.predict.LanguageDetector.Engine.ONNX_FLOAT))) {
                assertEquals("onnxruntime " + ai.onnxruntime.OrtEnvironment.getEnvironment().getVersion() + " (model.onnx)", fast.engine());
                fast.detect(text).probabilities().forEach((language, p) -> assertEquals(expected.get(language), p, 1e-5, language));
            }
            try (var int8 = new org.langid.model.predict.LanguageDetector(reloaded, org.langid.model.predict.LanguageDetector.Options.defaults())) {
                assertTrue(int8.engine().endsWith("(model.int8.onnx)"), "the default runs the int8 flavour: " + int8.engine());
                int8.detect(text).probabilities().forEach((language, p) -> assertEquals(expected.get(language), p, 0.02, language));
            }
        }
    }

    @Test
    void anArtefactMadeBeforeTheInt8FlavourRunsItsFloatOne() throws IOException {
        write();
        unlist(ModelArtefact.ONNX_INT8);
        try (var detector = new org.langid.model.predict.LanguageDetector(ModelArtefact.load(dir.toString(), CONF),
                org.langid.model.predict.LanguageDetector.Options.defaults())) {
            assertTrue(detector.engine().endsWith("(model.onnx)"), detector.engine());
        }
        try (var served = org.langid.serving.ServingModel.load(dir, new org.langid.serving.TextDetector.Options(4, 256, 256, true), 1)) {
            assertTrue(served.detector().classifier().engine().endsWith("(model.onnx)"), served.detector().classifier().engine());
        }
        write();
        try (var served = org.langid.serving.ServingModel.load(dir, new org.langid.serving.TextDetector.Options(4, 256, 256, true), 1)) {
            assertTrue(served.detector().classifier().engine().endsWith("(model.int8.onnx)"), served.detector().classifier().engine());
        }
    }

    /** Deletes these files and their manifest entries: an artefact written before they existed. */
    @Test
    void aConfidenceFloorTravelsInTheManifestAndDetectorsLoadIt() {
        ModelConfig config = TestArtefacts.smallConfig();
        ModelArtefact floored = TestArtefacts.create(config, TestArtefacts.parameters(config, 7), CREATED).withConfidenceFloor(0.6);
        floored.writeTo(dir.toString(), CONF);
        ModelArtefact loaded = ModelArtefact.load(dir.toString(), CONF);
        assertEquals(0.6, loaded.manifest().toJson().get("confidence_floor").asDouble());
        try (var detector = new org.langid.model.predict.LanguageDetector(loaded, org.langid.model.predict.LanguageDetector.Options.defaults())) {
            assertEquals(0.6, detector.restrictedTo(detector.languages()).confidenceFloor());
            var detection = detector.detect("Das ist ein kleines Haus am Rande der Stadt.");
            assertTrue(detection.confidence() >= 0.6 || "und".equals(detection.language()), detection.toString());
        }
        assertFalse(floored.withConfidenceFloor(0).manifest().toJson().has("confidence_floor"), "0 removes it");
        assertThrows(IllegalArgumentException.class, () -> floored.withConfidenceFloor(1.2));
    }

    private void unlist(String... files) throws IOException {
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        var manifest = (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(dir.resolve(ModelArtefact.MANIFEST).toFile());
        for (String file : files) {
            Files.delete(dir.resolve(file));
            ((com.fasterxml.jackson.databind.node.ObjectNode) manifest.get("files")).remove(file);
        }
        json.writerWithDefaultPrettyPrinter().writeValue(dir.resolve(ModelArtefact.MANIFEST).toFile(), manifest);
    }

    private void write() {
        ModelConfig config = TestArtefacts.smallConfig();
        TestArtefacts.create(config, TestArtefacts.parameters(config, 7), CREATED).writeTo(dir.toString(), CONF);
    }
}
