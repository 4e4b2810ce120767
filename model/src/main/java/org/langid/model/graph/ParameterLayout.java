package org.langid.model.graph;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Every trainable array of a {@link ModelConfig}, in a fixed order, as views into one flat
 * vector. One vector makes the per-step state plain arrays: averaging parameters across
 * workers is one mean, Adam's state is one vector beside it, a checkpoint is two files.
 */
public final class ParameterLayout {

    enum Init { NORMAL_SMALL, XAVIER, ZEROS, ONES }

    /** One trainable array: its name in the graph, shape and initialisation. */
    public record Param(String name, long[] shape, Init init, long offset, long length) {
    }

    private final List<Param> params;
    private final long size;

    private ParameterLayout(List<Param> params) {
        this.params = Collections.unmodifiableList(params);
        this.size = params.isEmpty() ? 0 : params.get(params.size() - 1).offset + params.get(params.size() - 1).length;
    }

    public static ParameterLayout of(ModelConfig config) {
        Builder b = new Builder();
        int d = config.dModel;
        b.add("embedding", Init.NORMAL_SMALL, config.alphabet.inputSymbols(), d);   // (S + PAD, d)
        if (config.positional) {
            b.add("position", Init.NORMAL_SMALL, config.window, d);
        }
        if (ModelConfig.SEED.equals(config.block)) {
            int hs = config.headSize;
            b.add("seed/wq", Init.XAVIER, d, hs);
            b.add("seed/wk", Init.XAVIER, d, hs);
            b.add("seed/wv", Init.XAVIER, d, hs);
        } else {
            for (int layer = 0; layer < config.layers; layer++) {
                String p = "block" + layer + "/";
                b.add(p + "ln1/gain", Init.ONES, d);
                b.add(p + "ln1/bias", Init.ZEROS, d);
                for (String w : List.of("q", "k", "v", "o")) {
                    b.add(p + "attn/w" + w, Init.XAVIER, d, d);
                    b.add(p + "attn/b" + w, Init.ZEROS, d);
                }
                b.add(p + "ln2/gain", Init.ONES, d);
                b.add(p + "ln2/bias", Init.ZEROS, d);
                b.add(p + "ffn/w1", Init.XAVIER, d, config.ffn);
                b.add(p + "ffn/b1", Init.ZEROS, config.ffn);
                b.add(p + "ffn/w2", Init.XAVIER, config.ffn, d);
                b.add(p + "ffn/b2", Init.ZEROS, d);
            }
            b.add("final_ln/gain", Init.ONES, d);
            b.add("final_ln/bias", Init.ZEROS, d);
        }
        b.add("classifier/w", Init.XAVIER, config.pooledWidth(), config.classes());
        b.add("classifier/b", Init.ZEROS, config.classes());
        if (config.ngramsProjected()) {
            b.add(LanguageIdGraph.NGRAM_PROJECTION, Init.XAVIER, config.ngramDim, d);
        }
        if (config.ngrams()) {
            // Last, so that every other parameter starts as it would without n-grams.
            b.add(LanguageIdGraph.NGRAM_TABLE, ModelConfig.NGRAM_INIT_ZERO.equals(config.ngramInit) ? Init.ZEROS : Init.NORMAL_SMALL,
                    config.ngramBuckets, config.ngramWidth());
        }
        return new ParameterLayout(b.params);
    }

    public List<Param> params() {
        return params;
    }

    /** Number of scalars. */
    public long size() {
        return size;
    }

    /** A fresh flat parameter vector, initialised deterministically from {@code seed} (same on every backend). */
    public INDArray initialise(long seed, DataType dataType) {
        float[] values = new float[Math.toIntExact(size)];
        SplittableRandom random = new SplittableRandom(seed);
        for (Param p : params) {
            int from = Math.toIntExact(p.offset);
            int to = Math.toIntExact(p.offset + p.length);
            switch (p.init) {
                case ZEROS -> { }
                case ONES -> java.util.Arrays.fill(values, from, to, 1f);
                case NORMAL_SMALL -> {
                    for (int i = from; i < to; i++) {
                        values[i] = (float) (0.02 * gaussian(random));
                    }
                }
                case XAVIER -> {
                    double limit = Math.sqrt(6.0 / (p.shape[0] + p.shape[1]));
                    for (int i = from; i < to; i++) {
                        values[i] = (float) ((random.nextDouble() * 2 - 1) * limit);
                    }
                }
            }
        }
        return BulkArrays.of(values, dataType);
    }

    /** Views of {@code flat}, one per parameter, by name (changes to a view change {@code flat}). */
    public Map<String, INDArray> views(INDArray flat) {
        if (flat.length() != size) {
            throw new IllegalArgumentException("parameter vector has " + flat.length() + " values, the layout needs " + size);
        }
        Map<String, INDArray> views = new LinkedHashMap<>();
        for (Param p : params) {
            views.put(p.name, flat.get(org.nd4j.linalg.indexing.NDArrayIndex.interval(p.offset, p.offset + p.length)).reshape('c', p.shape));
        }
        return views;
    }

    private static double gaussian(SplittableRandom random) {
        // Box–Muller: SplittableRandom has no nextGaussian on Java 17.
        double u = 1.0 - random.nextDouble();
        double v = random.nextDouble();
        return Math.sqrt(-2.0 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    }

    private static final class Builder {
        final List<Param> params = new ArrayList<>();
        long offset;

        void add(String name, Init init, long... shape) {
            long length = 1;
            for (long s : shape) {
                length *= s;
            }
            params.add(new Param(name, shape, init, offset, length));
            offset += length;
        }
    }
}
