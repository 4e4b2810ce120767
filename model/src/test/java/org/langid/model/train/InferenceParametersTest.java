package org.langid.model.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.langid.model.graph.LanguageIdGraph;
import org.langid.model.graph.ModelConfig;
import org.langid.model.graph.ParameterLayout;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/** What a model trained with n-gram dropout serves with: its table scaled by 1 − p, nothing else, and back for warm starts. */
class InferenceParametersTest {

    private static ModelConfig config(double ngramDropout) {
        ModelConfig config = new ModelConfig();
        config.window = 5;
        config.dModel = 4;
        config.heads = 2;
        config.layers = 1;
        config.ffn = 4;
        config.languages = List.of("en", "de", "fr");
        config.ngramBuckets = 64;
        config.ngramMaxOrder = 3;
        config.ngramDim = 2;
        config.ngramDropout = ngramDropout;
        return config;
    }

    @Test
    void theTableIsScaledByOneMinusTheDropoutRateAndNothingElseChanges() {
        ModelConfig config = config(0.3);
        ParameterLayout layout = ParameterLayout.of(config);
        INDArray trained = layout.initialise(7, DataType.FLOAT);
        layout.views(trained).get(LanguageIdGraph.NGRAM_TABLE).assign(1.5);   // the profile starts the table at zero
        INDArray before = trained.dup();

        INDArray served = InferenceParameters.of(config, trained);

        assertEquals(before, trained, "the training state is not touched");
        assertEquals(0.7, InferenceParameters.ngramTableScale(config), 1e-12);
        Map<String, INDArray> trainedViews = layout.views(trained);
        Map<String, INDArray> servedViews = layout.views(served);
        for (ParameterLayout.Param param : layout.params()) {
            INDArray expected = param.name().equals(LanguageIdGraph.NGRAM_TABLE)
                    ? trainedViews.get(param.name()).mul(0.7) : trainedViews.get(param.name());
            assertArrayEquals(expected.dup().reshape(-1).toFloatVector(), servedViews.get(param.name()).dup().reshape(-1).toFloatVector(),
                    1e-6f, param.name());
        }
        assertTrue(servedViews.get(LanguageIdGraph.NGRAM_TABLE).getFloat(0) < 1.5f);
    }

    @Test
    void aWarmStartUndoesTheScale() {
        ModelConfig config = config(0.3);
        INDArray trained = ParameterLayout.of(config).initialise(11, DataType.FLOAT);
        ParameterLayout.of(config).views(trained).get(LanguageIdGraph.NGRAM_TABLE).assign(-0.25);
        INDArray served = InferenceParameters.of(config, trained);

        INDArray again = InferenceParameters.toTraining(config, served, InferenceParameters.ngramTableScale(config));

        assertArrayEquals(trained.toFloatVector(), again.toFloatVector(), 1e-6f);
    }

    @Test
    void modelsWithoutNgramDropoutServeTheirTrainedParameters() {
        ModelConfig config = config(0.0);
        INDArray trained = ParameterLayout.of(config).initialise(3, DataType.FLOAT);
        assertEquals(1.0, InferenceParameters.ngramTableScale(config));
        assertSame(trained, InferenceParameters.of(config, trained));
        assertSame(trained, InferenceParameters.toTraining(config, trained, 1.0), "a model exported before the scale existed");
    }

    @Test
    void aScaleOutsideZeroToOneIsRefused() {
        ModelConfig config = config(0.3);
        INDArray trained = ParameterLayout.of(config).initialise(3, DataType.FLOAT);
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> InferenceParameters.toTraining(config, trained, 0.0));
        assertTrue(refused.getMessage().contains("(0, 1]"), refused.getMessage());
    }
}
