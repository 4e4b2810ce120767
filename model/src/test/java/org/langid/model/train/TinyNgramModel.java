package org.langid.model.train;

import org.langid.model.graph.ModelConfig;
import org.langid.model.graph.ParameterLayout;

/** The training tests' tiny model with hashed n-grams, small enough for finite differences. */
final class TinyNgramModel {

    /** Two windows for it, the second padded (n-grams holding PAD select nothing). */
    static final int[][] WINDOWS = {{0, 27, 62, 3, 27}, {62, 3, 12, ParameterLayout.PAD, ParameterLayout.PAD}};

    private TinyNgramModel() {
    }

    /** Windows of 5, d 4, 2 heads, one layer, FFN 4, three languages, n-grams of orders 2–3 in {@code buckets} rows. */
    static ModelConfig config(int buckets) {
        ModelConfig config = new ModelConfig();
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
}
