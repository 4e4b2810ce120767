package org.langid.model.artefact;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.Map;
import org.langid.model.graph.ModelConfig;
import org.langid.model.graph.ParameterLayout;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.langid.model.TestConfigs;

/** Small untrained artefacts for tests: random parameters are enough to compare two ways of computing the same thing. */
public final class TestArtefacts {

    private TestArtefacts() {
    }

    public static ModelConfig smallConfig() {
        ModelConfig config = TestConfigs.model();
        config.dModel = 16;
        config.heads = 2;
        config.layers = 1;
        config.ffn = 32;
        return config;
    }

    public static INDArray parameters(ModelConfig config, long seed) {
        return ParameterLayout.of(config).initialise(seed, DataType.FLOAT);
    }

    public static ModelArtefact create(ModelConfig config, INDArray parameters, Instant created) {
        return create(config, parameters, null, created);
    }

    /** With the n-gram filter {@code filter} (for a config with ngram_filter_bits). */
    public static ModelArtefact create(ModelConfig config, INDArray parameters, org.langid.model.graph.NgramFilter filter, Instant created) {
        ObjectNode training = Manifest.JSON.createObjectNode();
        training.put("data_fingerprint", "test-fingerprint");
        training.put("trainer", "local");
        return ModelArtefact.create(config, parameters, filter, training, Map.of("validation_accuracy", 0.5), "{}\n".getBytes(), created);
    }
}
