package org.langid.model;

import org.langid.model.graph.ModelConfig;
import org.langid.model.train.TrainConfig;

/**
 * The small configuration these tests train: two layers on characters alone (no n-gram table),
 * Adam on every parameter with a cosine decay, two epochs, an average every 5 minibatches, the
 * last step's weights exported. It trains in seconds; the project's defaults (the release's
 * recipe, data-schemas/profile.yaml) need a million-row table.
 */
public final class TestConfigs {

    private TestConfigs() {
    }

    public static ModelConfig model() {
        ModelConfig config = new ModelConfig();
        config.layers = 2;
        config.ngramBuckets = 0;
        config.ngramMaxOrder = 4;
        config.ngramDim = 0;
        config.ngramInit = ModelConfig.NGRAM_INIT_NORMAL;
        config.ngramFilterBits = 0;
        return config;
    }

    public static TrainConfig training() {
        TrainConfig train = new TrainConfig();
        train.ngramDropout = 0;
        train.optimizer.decay = "cosine";
        train.optimizer.ngramUpdates = "dense";
        train.optimizer.ngramLearningRate = 0;
        train.distillation.temperature = 1;
        train.distillation.selfTeachers = 0;
        train.epochs = 2;
        train.averagingFrequency = 5;
        train.emaSpan = 0;
        return train;
    }
}
