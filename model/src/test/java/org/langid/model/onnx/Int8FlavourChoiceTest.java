package org.langid.model.onnx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.langid.model.artefact.ModelArtefact;
import org.langid.model.artefact.TestArtefacts;
import org.langid.model.graph.ModelConfig;
import org.langid.model.predict.LanguageDetector;
import org.langid.serving.Detection;
import org.langid.serving.IntegerKernels;
import org.langid.serving.ServingModel;
import org.langid.serving.TextDetector;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Which ONNX flavour detection runs: model.int8.onnx with 7-bit weights on every CPU; an int8 file
 * written with 8-bit weights (before they had 7) only where this CPU's integer kernels multiply
 * them exactly, else model.onnx, with the reason in the engine's one-line description. The same
 * choice in both loaders (the Java API's and predict/serve's).
 */
class Int8FlavourChoiceTest {

    private static final Configuration CONF = new Configuration();
    private static final TextDetector.Options TEXT_OPTIONS = new TextDetector.Options(4, 64, 256, true);
    private static final List<String> TEXTS = List.of("the weather is fine today", "das Wetter ist heute schön", "il fait beau aujourd'hui",
            "hace buen tiempo hoy");

    @Test
    void sevenBitWeightsRunInInt8OnEveryCpu(@TempDir Path directory) {
        artefact().writeTo(directory.toString(), CONF);
        try (LanguageDetector detector = LanguageDetector.load(directory.toString(), CONF, LanguageDetector.Options.defaults());
             ServingModel serving = ServingModel.load(directory, TEXT_OPTIONS, 1, 1, true)) {
            assertTrue(detector.engine().endsWith("(" + ModelArtefact.ONNX_INT8 + ")"), detector.engine());
            assertTrue(serving.detector().classifier().engine().endsWith("(" + ModelArtefact.ONNX_INT8 + ")"), serving.detector().classifier().engine());
        }
    }

    @Test
    void anEightBitInt8FileRunsOnlyWhereItsProductsAreExact(@TempDir Path directory) throws Exception {
        ModelArtefact artefact = artefact();
        artefact.writeTo(directory.toString(), CONF);
        byte[] eightBit = OnnxGraphWriter.writeWithEightBitWeights(artefact.manifest().modelConfig(), artefact.parameters(),
                artefact.manifest().modelVersion(), artefact.ngramFilter());
        replace(directory, ModelArtefact.ONNX_INT8, eightBit);
        boolean exact = IntegerKernels.exactWithWeightsUpTo(IntegerKernels.EIGHT_BIT);
        String kernels = IntegerKernels.instructionSet();
        List<Detection> inFloat;
        try (LanguageDetector floatDetector = LanguageDetector.load(directory.toString(), CONF,
                LanguageDetector.Options.defaults().withEngine(LanguageDetector.Engine.ONNX_FLOAT))) {
            inFloat = floatDetector.detectAll(TEXTS);
        }
        try (LanguageDetector detector = LanguageDetector.load(directory.toString(), CONF, LanguageDetector.Options.defaults());
             ServingModel serving = ServingModel.load(directory, TEXT_OPTIONS, 1, 1, true)) {
            for (String engine : List.of(detector.engine(), serving.detector().classifier().engine())) {
                if (exact) {
                    assertTrue(engine.endsWith("(" + ModelArtefact.ONNX_INT8 + ")"), kernels + ": " + engine);
                } else {
                    assertEquals("onnxruntime " + ai.onnxruntime.OrtEnvironment.getEnvironment().getVersion() + " (model.onnx instead of "
                            + "model.int8.onnx has 8-bit weights, which this CPU's integer kernels (" + kernels + ") do not multiply "
                            + "exactly; 'langid export --add-onnx' rewrites it with 7-bit weights)", engine);
                }
            }
            if (!exact) {
                assertEquals(inFloat, detector.detectAll(TEXTS), "the fallback runs the float flavour");
                assertEquals(inFloat, serving.detector().detectAll(TEXTS), "the fallback runs the float flavour");
            }
        }
    }

    private static ModelArtefact artefact() {
        ModelConfig config = TestArtefacts.smallConfig();
        config.languages = List.of("en", "de", "fr", "es");
        INDArray parameters = TestArtefacts.parameters(config, 17);
        return TestArtefacts.create(config, parameters, Instant.parse("2026-12-06T00:00:00Z"));
    }

    /** Puts {@code bytes} in place of the artefact's {@code file} and lists their SHA-256 in its manifest. */
    private static void replace(Path directory, String file, byte[] bytes) throws Exception {
        Files.write(directory.resolve(file), bytes);
        Path manifestFile = directory.resolve(ModelArtefact.MANIFEST);
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        ObjectNode manifest = (ObjectNode) json.readTree(manifestFile.toFile());
        ObjectNode entry = (ObjectNode) manifest.path("files").path(file);
        entry.put("sha256", ServingModel.sha256(bytes));
        entry.put("bytes", bytes.length);
        json.writerWithDefaultPrettyPrinter().writeValue(manifestFile.toFile(), manifest);
    }
}
