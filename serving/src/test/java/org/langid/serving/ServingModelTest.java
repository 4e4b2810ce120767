package org.langid.serving;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Loading a model: a registry or an artefact directory, and a clear one-line reason for one that cannot be served. */
class ServingModelTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path temp;

    @Test
    void aRegistryServesTheVersionItsCurrentNames() throws IOException {
        String current = Files.readString(ReleasedModel.REGISTRY.resolve(ServingModel.CURRENT)).strip();
        assertTrue(ServingModel.isRegistry(ReleasedModel.REGISTRY));
        assertEquals(current, ServingModel.currentVersion(ReleasedModel.REGISTRY).orElseThrow());
        try (ServingModel model = ReleasedModel.load(true)) {
            assertEquals(ReleasedModel.REGISTRY.resolve(ServingModel.VERSIONS).resolve(current), model.directory());
            assertEquals(current, model.modelVersion());
            assertEquals(ReleasedModel.manifest(), model.manifest());
        }
    }

    @Test
    void anArtefactDirectoryLoadsAsItsRegistryDoes() {
        Path version = ReleasedModel.versionDirectory();
        assertFalse(ServingModel.isRegistry(version));
        List<String> texts = ReleasedModel.allSentences();
        try (ServingModel fromRegistry = ReleasedModel.load(true);
             ServingModel fromDirectory = ServingModel.load(version, ReleasedModel.DEFAULTS, 1)) {
            assertEquals(version, fromDirectory.directory());
            assertEquals(fromRegistry.detector().detectAll(texts), fromDirectory.detector().detectAll(texts));
        }
    }

    @Test
    void theManifestHandedOutIsACopy() {
        try (ServingModel model = ReleasedModel.load(true)) {
            ObjectNode manifest = model.manifest();
            manifest.put("model_version", "changed");
            manifest.withArray("languages").removeAll();
            assertEquals(ReleasedModel.LANGUAGES.size(), model.manifest().get("languages").size());
            assertEquals(ServingModel.currentVersion(ReleasedModel.REGISTRY).orElseThrow(), model.modelVersion());
        }
    }

    @Test
    void aDirectoryThatIsNotAnArtefactSaysSo() {
        Path missing = temp.resolve("no-such-model");
        assertRefused(missing, missing + " has no manifest.json: it is not a model artefact");
    }

    @Test
    void aRegistryWithNothingPublishedSaysSo() throws IOException {
        Path registry = Files.createDirectories(temp.resolve("registry").resolve(ServingModel.VERSIONS)).getParent();
        assertRefused(registry, "the model registry " + registry + " has no current model yet");
        Files.writeString(registry.resolve(ServingModel.CURRENT), "  \n");
        assertRefused(registry, "the model registry " + registry + " has no current model yet");
    }

    @Test
    void aCurrentNamingAMissingVersionSaysWhichDirectoryIsNotAnArtefact() throws IOException {
        Path registry = Files.createDirectories(temp.resolve("registry"));
        Files.writeString(registry.resolve(ServingModel.CURRENT), "20300101T000000Z-00000000\n");
        assertRefused(registry, "20300101T000000Z-00000000 has no manifest.json");
    }

    @Test
    void aDamagedInt8FlavourIsRefusedNamingTheFile() throws IOException {
        Path damaged = ReleasedModel.copyWithInt8(temp.resolve("damaged"), bytes -> {
            bytes[bytes.length / 2] ^= 0x10;
            return bytes;
        });
        assertRefused(damaged, damaged + ": model.int8.onnx does not match its SHA-256 in manifest.json");
        Path truncated = ReleasedModel.copyWithInt8(temp.resolve("truncated"), bytes -> java.util.Arrays.copyOf(bytes, bytes.length / 3));
        assertRefused(truncated, "model.int8.onnx does not match its SHA-256 in manifest.json");
    }

    @Test
    void aListedFileThatIsMissingIsNamed() throws IOException {
        Path incomplete = Files.createDirectories(temp.resolve("incomplete"));
        Files.copy(ReleasedModel.versionDirectory().resolve(ServingModel.MANIFEST), incomplete.resolve(ServingModel.MANIFEST));
        assertRefused(incomplete, incomplete + ": model.int8.onnx is listed in manifest.json but missing");
    }

    @Test
    void anOnnxFileOfAnotherModelIsRefused() throws IOException {
        Path mixed = ReleasedModel.copyWithInt8(temp.resolve("mixed"), bytes -> bytes);
        editManifest(mixed, manifest -> manifest.put("model_version", "20300101T000000Z-00000000"));
        assertRefused(mixed, "the artefact mixes files of two models");
    }

    @Test
    void theManifestsConfidenceFloorIsTheDetectorsOwn() throws IOException {
        Path floored = ReleasedModel.copyWithInt8(temp.resolve("floored"), bytes -> bytes);
        editManifest(floored, manifest -> manifest.put("confidence_floor", 0.5));
        try (ServingModel model = ServingModel.load(floored, ReleasedModel.DEFAULTS, 1)) {
            assertEquals(0.5, model.detector().confidenceFloor());
        }
        try (ServingModel model = ReleasedModel.load(true)) {
            assertEquals(0.0, model.detector().confidenceFloor(), "none named: every text with windows gets a language");
        }
    }

    @Test
    void aDamagedOrIncompatibleManifestIsRefused() throws IOException {
        Path directory = ReleasedModel.copyWithInt8(temp.resolve("artefact"), bytes -> bytes);
        Path manifest = directory.resolve(ServingModel.MANIFEST);
        String original = Files.readString(manifest);

        Files.writeString(manifest, original.substring(0, original.length() / 2));
        assertRefused(directory, manifest + " is not valid JSON: the artefact is damaged");
        Files.writeString(manifest, "[1, 2]");
        assertRefused(directory, manifest + " is not a JSON object: the artefact is damaged");

        Files.writeString(manifest, original);
        editManifest(directory, m -> m.put("format_version", ServingModel.FORMAT_VERSION + 1));
        assertRefused(directory, "artefact format " + (ServingModel.FORMAT_VERSION + 1) + " is newer than this langid reads");

        Files.writeString(manifest, original);
        editManifest(directory, m -> m.put("normalisation", "nfc-keep-marks/v9"));
        assertRefused(directory, "reads text in a way this langid does not: normalisation 'nfc-keep-marks/v9' is not one this langid implements");

        Files.writeString(manifest, original);
        editManifest(directory, m -> m.put("vocabulary", "abc"));
        assertRefused(directory, "has the tutorial's 68 symbols, not 3");

        Files.writeString(manifest, original);
        editManifest(directory, m -> m.put("pad_index", 70));
        assertRefused(directory, "pads windows with symbol 70, not 68 after its 68 symbols: the artefact is damaged");

        Files.writeString(manifest, original);
        editManifest(directory, m -> m.put("confidence_floor", 1.5));
        assertRefused(directory, "confidence_floor must be a number in [0, 1), not 1.5");

        Files.writeString(manifest, original);
        editManifest(directory, m -> m.remove("model_version"));
        assertRefused(directory, "has no model_version: the artefact is damaged");

        Files.writeString(manifest, original);
        editManifest(directory, m -> m.putArray("languages"));
        assertRefused(directory, "names no window length or no languages: the artefact is damaged");

        Files.writeString(manifest, original);
        try (ServingModel restored = ServingModel.load(directory, ReleasedModel.DEFAULTS, 1)) {
            assertEquals("sv", restored.detector().detect(ReleasedModel.SENTENCES.get("sv").get(0)).language());
        }
    }

    @Test
    void anArtefactWithoutTheInt8FlavourRunsItsFloatOneAndOneWithoutOnnxSaysHowToAddIt() throws IOException {
        Path floatOnly = Files.createDirectories(temp.resolve("float-only"));
        Files.copy(ReleasedModel.versionDirectory().resolve(ServingModel.ONNX), floatOnly.resolve(ServingModel.ONNX));
        Files.copy(ReleasedModel.versionDirectory().resolve(ServingModel.MANIFEST), floatOnly.resolve(ServingModel.MANIFEST));
        editManifest(floatOnly, manifest -> ((ObjectNode) manifest.get("files")).remove(ServingModel.ONNX_INT8));
        try (ServingModel model = ServingModel.load(floatOnly, ReleasedModel.DEFAULTS, 1);
             ServingModel asTrained = ReleasedModel.load(false)) {
            assertTrue(model.detector().classifier().engine().endsWith("(model.onnx)"), model.detector().classifier().engine());
            List<String> texts = ReleasedModel.allSentences();
            assertEquals(asTrained.detector().detectAll(texts), model.detector().detectAll(texts));
        }
        editManifest(floatOnly, manifest -> ((ObjectNode) manifest.get("files")).remove(ServingModel.ONNX));
        assertRefused(floatOnly, floatOnly + " has no model.onnx (an artefact made before the ONNX flavour): give it one with "
                + "'langid export --add-onnx " + floatOnly + "'");
    }

    /** A {@link ServingModel.ModelLoadException} whose message is one line containing {@code expected}. */
    private static void assertRefused(Path location, String expected) {
        ServingModel.ModelLoadException refused = assertThrows(ServingModel.ModelLoadException.class,
                () -> ServingModel.load(location, ReleasedModel.DEFAULTS, 1).close());
        String message = refused.getMessage();
        assertTrue(message.contains(expected), "expected «" + expected + "» in «" + message + "»");
        assertFalse(message.contains("\n"), "one line: " + message);
        assertFalse(message.contains("Exception"), message);
    }

    private static void editManifest(Path directory, Consumer<ObjectNode> edit) throws IOException {
        Path file = directory.resolve(ServingModel.MANIFEST);
        ObjectNode manifest = (ObjectNode) JSON.readTree(file.toFile());
        edit.accept(manifest);
        JSON.writeValue(file.toFile(), manifest);
    }
}
