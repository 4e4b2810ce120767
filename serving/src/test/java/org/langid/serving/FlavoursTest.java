package org.langid.serving;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The release's two ONNX flavours: model.int8.onnx unless asked for model.onnx, and the same
 * languages on every sentence with probabilities close (7-bit weights make the integer products
 * exact on every x86-64 CPU; what remains is quantisation, measured in {@link ReleasedModel}).
 */
class FlavoursTest {

    @Test
    void theInt8FlavourRunsUnlessTheFloatOneIsAskedFor() {
        try (ServingModel int8 = ReleasedModel.load(true); ServingModel asTrained = ReleasedModel.load(false)) {
            String version = ai.onnxruntime.OrtEnvironment.getEnvironment().getVersion();
            assertEquals("onnxruntime " + version + " (model.int8.onnx)", int8.detector().classifier().engine(), IntegerKernels.instructionSet());
            assertEquals("onnxruntime " + version + " (model.onnx)", asTrained.detector().classifier().engine());
        }
    }

    @Test
    void bothFlavoursGiveEverySentenceItsLanguageAndCloseProbabilities() {
        List<String> texts = ReleasedModel.withShortAndMixedTexts();
        try (ServingModel int8 = ReleasedModel.load(true); ServingModel asTrained = ReleasedModel.load(false)) {
            List<Detection> quantised = int8.detector().detectAll(texts);
            List<Detection> exact = asTrained.detector().detectAll(texts);
            ReleasedModel.SENTENCES.forEach((language, sentences) -> sentences.forEach(sentence -> {
                assertEquals(language, exact.get(texts.indexOf(sentence)).language(), sentence);
                assertEquals(language, quantised.get(texts.indexOf(sentence)).language(), sentence);
            }));
            for (int i = 0; i < texts.size(); i++) {
                ReleasedModel.assertAgree(exact.get(i), quantised.get(i), texts.get(i));
            }
        }
    }
}
