package org.langid.model.train;

import org.langid.model.graph.ModelConfig;
import org.langid.model.graph.ParameterLayout;
import org.langid.text.Alphabet;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.langid.model.TestConfigs;

/** The training tests' tiny model with hashed n-grams, small enough for finite differences. */
final class TinyNgramModel {

    /** Two windows for it, the second padded (n-grams holding PAD select nothing). */
    static final int[][] WINDOWS = {{0, 27, 62, 3, 27}, {62, 3, 12, Alphabet.SEED.pad(), Alphabet.SEED.pad()}};

    private TinyNgramModel() {
    }

    /** Windows of 5, d 4, 2 heads, one layer, FFN 4, three languages, n-grams of orders 2–3 in {@code buckets} rows. */
    static ModelConfig config(int buckets) {
        ModelConfig config = TestConfigs.model();
        config.window = 5;
        config.dModel = 4;
        config.heads = 2;
        config.layers = 1;
        config.ffn = 4;
        config.languages = java.util.List.of("en", "de", "fr");
        config.ngramBuckets = buckets;
        config.ngramMaxOrder = 3;
        return config;
    }

    /** DOUBLE parameters for {@code config}: its initialisation (seed 11) plus noise in ±0.2, so that the zero-started n-gram table is away from zero. */
    static INDArray parameters(ModelConfig config) {
        INDArray parameters = ParameterLayout.of(config).initialise(11, DataType.DOUBLE);
        return parameters.addi(Nd4j.rand(DataType.DOUBLE, parameters.length()).subi(0.5).muli(0.4));
    }
}
