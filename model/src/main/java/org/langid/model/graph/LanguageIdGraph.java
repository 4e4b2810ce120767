package org.langid.model.graph;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.nd4j.autodiff.loss.LossReduce;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Builds the language classifier as a SameDiff graph from a {@link ModelConfig}.
 *
 * <pre>
 *   windows (B, T) symbol indices of the alphabet, PAD = its size (68 for the seed's)
 *   → one-hot (B·T, S+1) · embedding (S+1, d) [+ position (T, d)]        (B·T, d)   (S symbols; inference of S+1 > 256: a gather)
 *     [+ n-grams: placeholder, the sum of each position's n-gram rows]     (B·T, d)
 *   → transformer: N × [x + MHA(LN(x)); x + FFN(LN(x))], LN              (B·T, d)
 *     seed:        softmax(Q·Kᵀ [/√hs])·V, single head, no residual      (B·T, hs)
 *   → mean over the non-padding positions                                 (B, d)
 *   → linear → logits                                                     (B, C)
 * </pre>
 * Placeholders: {@value #WINDOWS} (INT32, [B, T]) and, for training ({@link Training}), {@value #LABELS}
 * (INT32, [B], index into {@link ModelConfig#languages}) and, with a teacher weight, {@value #TEACHER}
 * (B, C). Outputs: {@value #LOGITS},
 * {@value #PROBABILITIES}, {@value #LOSS} and {@code attention/<layer>} (B, H, T, T).
 * The embedding is one-hot × matmul because gradients through gather fail in SameDiff
 * 1.0.0-M2.1 (see stack-facts); with 69 symbols it is cheap. For the same reason the hashed
 * n-gram table ({@link CharacterNgrams}, thousands of rows) is looked up outside the graph: its
 * rows come in through the placeholder {@value #NGRAMS} ({@link #inputs}), and training turns
 * that placeholder's gradient into the table's. Inference graphs carry the table as the
 * constant {@value #NGRAM_TABLE}.
 */
public final class LanguageIdGraph {

    /**
     * Inference graphs of alphabets with more input symbols than this look the embedding up by
     * gather instead of a one-hot product (training graphs always use the product: SameDiff
     * 1.0.0-M2.1 cannot train through gather, stack-facts).
     */
    static final int GATHERED_ABOVE = 256;

    public static final String WINDOWS = "windows";
    public static final String LABELS = "labels";
    /** Training placeholder (B, C) with a teacher weight: a teacher's probabilities for each window. */
    public static final String TEACHER = "teacher";
    public static final String LOGITS = "logits";
    public static final String PROBABILITIES = "probabilities";
    public static final String LOSS = "loss";
    /** Placeholder (B·T, e): per position, the sum of its n-grams' rows of the n-gram table (e = {@link ModelConfig#ngramWidth}). */
    public static final String NGRAMS = "ngrams";
    /** The n-gram table (buckets, e): a parameter, but not a variable of the training graph. */
    public static final String NGRAM_TABLE = "ngram_embedding";
    /** With {@code ngram_filter_bits}: the {@link NgramFilter}'s bitmap, an INT8 constant of inference graphs. */
    public static final String NGRAM_FILTER = "ngram_filter";
    /** With {@code ngram_dim}: the (e, d) projection of the summed n-gram rows. */
    public static final String NGRAM_PROJECTION = "ngram_projection";
    public static final double LAYER_NORM_EPSILON = 1e-5;

    private final ModelConfig config;
    /** What a training graph adds; null: an inference graph. */
    private final Training training;
    private final ParameterLayout layout;
    private final SameDiff sd;
    private final List<String> attentionOutputs = new ArrayList<>();

    /**
     * What a training graph adds to the model: inverted dropout at this rate (0: none) and, with a
     * teacher weight above 0, the teachers' share of each window's target (0: labels only).
     */
    public record Training(double dropout, double teacherWeight) {
    }

    private LanguageIdGraph(ModelConfig config, Training training, SameDiff sd) {
        this.config = config;
        this.training = training;
        this.layout = ParameterLayout.of(config);
        this.sd = sd;
    }

    /** The inference graph of a model without an n-gram filter; see {@link #build(ModelConfig, INDArray, NgramFilter)}. */
    public static LanguageIdGraph build(ModelConfig config, INDArray parameters) {
        return build(config, parameters, null);
    }

    /**
     * The inference graph with {@code parameters} (a flat vector laid out by {@link ParameterLayout})
     * as its variables; a model with {@code ngram_filter_bits} carries {@code filter} (of that size)
     * as a constant.
     */
    public static LanguageIdGraph build(ModelConfig config, INDArray parameters, NgramFilter filter) {
        config.validated();
        if (config.ngramFiltered() != (filter != null) || filter != null && filter.size() != config.ngramFilterBits) {
            throw new IllegalArgumentException("the model has ngram_filter_bits " + config.ngramFilterBits + " but "
                    + (filter == null ? "no n-gram filter was given" : "an n-gram filter of " + filter.size() + " bits"));
        }
        LanguageIdGraph graph = new LanguageIdGraph(config, null, SameDiff.create());
        graph.define(parameters);
        if (filter != null) {
            graph.sd.constant(NGRAM_FILTER, Nd4j.createFromArray(filter.bytes()));   // (bits / 8) INT8
        }
        return graph;
    }

    /** The training graph: the model with {@code training}'s dropout and its loss; the n-gram rows come in as a placeholder. */
    public static LanguageIdGraph buildForTraining(ModelConfig config, INDArray parameters, Training training) {
        config.validated();
        LanguageIdGraph graph = new LanguageIdGraph(config, training, SameDiff.create());
        graph.define(parameters);
        return graph;
    }

    /** The n-gram filter an inference graph carries (see {@link #build}), or null if its model has none. */
    public static NgramFilter filter(ModelConfig config, SameDiff sd) {
        if (!config.ngramFiltered()) {
            return null;
        }
        INDArray bits = sd.getArrForVarName(NGRAM_FILTER);
        if (bits == null) {
            throw new IllegalStateException("the model has ngram_filter_bits " + config.ngramFilterBits + " but its graph has no " + NGRAM_FILTER);
        }
        return NgramFilter.of(bits.data().asBytes());
    }

    public SameDiff sameDiff() {
        return sd;
    }

    public ModelConfig config() {
        return config;
    }

    public ParameterLayout layout() {
        return layout;
    }

    /** Names of the attention-weight outputs, one per layer, each (B, H, T, T). */
    public List<String> attentionOutputs() {
        return List.copyOf(attentionOutputs);
    }

    /** The attention-weight output names a graph built from {@code config} has (for graphs loaded from an artefact). */
    public static List<String> attentionOutputs(ModelConfig config) {
        int layers = ModelConfig.SEED.equals(config.block) ? 1 : config.layers;
        List<String> names = new ArrayList<>();
        for (int layer = 0; layer < layers; layer++) {
            names.add("attention/" + layer + "/weights");
        }
        return names;
    }

    /** Names of the graph's trainable variables, in layout order (every parameter but the n-gram table). */
    public List<String> parameterNames() {
        return layout.params().stream().map(ParameterLayout.Param::name).filter(name -> !NGRAM_TABLE.equals(name)).toList();
    }

    /**
     * The placeholders of a batch of windows for an inference graph (one {@link #build} made, or
     * loaded from an artefact), which carries its n-gram table.
     *
     * @param symbols (rows, T) symbol indices, row-major
     */
    public static Map<String, INDArray> inputs(ModelConfig config, SameDiff sd, int[] symbols, int rows) {
        return inputs(config, sd, filter(config, sd), symbols, rows);
    }

    /** As {@link #inputs(ModelConfig, SameDiff, int[], int)} with the graph's {@link #filter} read once by the caller. */
    public static Map<String, INDArray> inputs(ModelConfig config, SameDiff sd, NgramFilter filter, int[] symbols, int rows) {
        Map<String, INDArray> feed = new java.util.HashMap<>();
        feed.put(WINDOWS, Nd4j.createFromArray(symbols).reshape(rows, config.window));                    // (B, T) INT32
        if (config.ngrams()) {
            INDArray table = sd.getArrForVarName(NGRAM_TABLE);
            if (table == null) {
                throw new IllegalStateException("the model uses n-grams but its graph has no " + NGRAM_TABLE);
            }
            double[] summed = CharacterNgrams.lookup(config.alphabet, symbols, rows, config.window, config.ngramMaxOrder, table, filter).summed();
            feed.put(NGRAMS, BulkArrays.of(summed, table.dataType()).reshape((long) rows * config.window, config.ngramWidth()));   // (B·T, e)
        }
        return feed;
    }

    private void define(INDArray parameters) {
        DataType dt = parameters.dataType();
        Map<String, INDArray> values = layout.views(parameters);
        Map<String, SDVariable> p = new java.util.HashMap<>();
        values.forEach((name, array) -> {
            if (!NGRAM_TABLE.equals(name)) {
                p.put(name, sd.var(name, array));
            } else if (training == null) {
                sd.constant(name, array);
            }
        });

        int t = config.window;
        int d = config.dModel;
        SDVariable windows = sd.placeHolder(WINDOWS, DataType.INT32, -1, t);                          // (B, T)
        SDVariable isReal = sd.neq(windows, (double) config.alphabet.pad()).castTo(dt);                // (B, T)
        // Gains and row statistics are expanded by outer products with these ones (see layerNorm).
        SDVariable positionOnes = sd.onesLike(sd.reshape(isReal, -1, 1));                            // (B·T, 1)
        SDVariable windowOnes = sd.onesLike(isReal.sum(true, 1));                                      // (B, 1)
        SDVariable mask = Attention.expandKeyMask(sd, Attention.keyMask(isReal),
                ModelConfig.SEED.equals(config.block) ? 1 : config.heads, t, t);                       // (B, H, T, T)

        // Pattern of the rewrite pass EmbeddingLookupFusion (train.trace.passes): onehot, reshape, matmul with the table.
        int inputSymbols = config.alphabet.inputSymbols();
        SDVariable x;
        if (training == null && inputSymbols > GATHERED_ABOVE) {
            // A large alphabet's one-hot rows would cost S floats a position; inference needs no gradient through gather.
            x = sd.gather(p.get("embedding"), sd.reshape(windows, -1), 0);                           // (B·T, d)
        } else {
            SDVariable oneHot = sd.reshape(sd.oneHot(windows, inputSymbols, -1, 1.0, 0.0, dt), -1, inputSymbols);   // (B·T, S + 1)
            x = sd.mmul(oneHot, p.get("embedding"));                                                    // (B·T, d)
        }
        if (config.positional) {
            // (bias_add over each window's row of T·d took 4 ms backward here, the outer product 0.5)
            x = x.add(sd.reshape(Attention.expandRows(sd, windowOnes, p.get("position")), -1, d));   // (B·T, d)
        }
        if (config.ngrams()) {
            SDVariable ngrams = sd.placeHolder(NGRAMS, dt, -1, config.ngramWidth());                  // (B·T, e)
            x = x.add(config.ngramsProjected() ? sd.mmul(ngrams, p.get(NGRAM_PROJECTION)) : ngrams);  // (B·T, d)
        }

        int width;
        if (ModelConfig.SEED.equals(config.block)) {
            int hs = config.headSize;
            SDVariable q = sd.reshape(sd.mmul(x, p.get("seed/wq")), -1, 1, t, hs);                  // (B, 1, T, hs)
            SDVariable k = sd.reshape(sd.mmul(x, p.get("seed/wk")), -1, 1, t, hs);                  // (B, 1, T, hs)
            SDVariable v = sd.reshape(sd.mmul(x, p.get("seed/wv")), -1, 1, t, hs);                  // (B, 1, T, hs)
            Attention.Result attended = Attention.scaledDotProduct(sd, "attention/0", q, k, v, mask, config.scaled, hs);
            attentionOutputs.add(attended.weights().name());
            x = sd.reshape(attended.output(), -1, hs);                                                  // (B·T, hs)
            width = hs;
        } else {
            for (int layer = 0; layer < config.layers; layer++) {
                String b = "block" + layer + "/";
                SDVariable normed = layerNorm(x, p.get(b + "ln1/gain"), p.get(b + "ln1/bias"), positionOnes);   // (B·T, d)
                Attention.Result attended = Attention.multiHead(sd, "attention/" + layer, normed, normed, t, t, d,
                        config.heads, new Attention.MultiHeadWeights(
                                p.get(b + "attn/wq"), p.get(b + "attn/bq"), p.get(b + "attn/wk"), p.get(b + "attn/bk"),
                                p.get(b + "attn/wv"), p.get(b + "attn/bv"), p.get(b + "attn/wo"), p.get(b + "attn/bo")),
                        mask, config.scaled);
                attentionOutputs.add(attended.weights().name());
                // Pattern of the rewrite pass GradientCopyElision (train.trace.passes): residual adds of
                // same-shaped arrays, whose add_bp copies dZ to both inputs.
                x = x.add(dropout(attended.output()));                                                  // (B·T, d)
                SDVariable hidden = relu(Attention.linear(sd,
                        layerNorm(x, p.get(b + "ln2/gain"), p.get(b + "ln2/bias"), positionOnes),
                        p.get(b + "ffn/w1"), p.get(b + "ffn/b1")));                                        // (B·T, ffn)
                x = x.add(dropout(Attention.linear(sd, hidden, p.get(b + "ffn/w2"), p.get(b + "ffn/b2"))));   // (B·T, d)
            }
            x = layerNorm(x, p.get("final_ln/gain"), p.get("final_ln/bias"), positionOnes);           // (B·T, d)
            width = d;
        }

        // Mean over the real (non-padding) positions, as a weighted sum.
        SDVariable count = sd.math.max(isReal.sum(true, 1), windowOnes);                               // (B, 1)
        SDVariable poolWeights = sd.reshape(isReal.div(count), -1, 1);                                 // (B·T, 1)
        SDVariable weighted = x.mul(sd.mmul(poolWeights, sd.constant(Nd4j.ones(dt, 1, width))));     // (B·T, w)
        SDVariable pooled = sd.reshape(weighted, -1, t, width).sum(1);                                  // (B, w)
        SDVariable logits = Attention.linear(sd, pooled, p.get("classifier/w"), p.get("classifier/b"))
                .rename(LOGITS);                                                                        // (B, C)
        sd.nn.softmax(PROBABILITIES, logits, -1);                                                        // (B, C)
        if (training != null) {
            SDVariable labels = sd.placeHolder(LABELS, DataType.INT32, -1);                            // (B)
            SDVariable target = sd.oneHot(labels, config.classes(), -1, 1.0, 0.0, dt);                  // (B, C)
            if (training.teacherWeight() > 0) {
                double weight = training.teacherWeight();
                SDVariable teacher = sd.placeHolder(TEACHER, dt, -1, config.classes());                // (B, C)
                target = target.mul(1 - weight).add(teacher.mul(weight));                              // (B, C)
            }
            SDVariable loss = sd.loss.softmaxCrossEntropy(LOSS, target, logits, null,
                    LossReduce.MEAN_BY_NONZERO_WEIGHT_COUNT, 0.0);                                     // ()
            sd.setLossVariables(loss);
        }
    }

    /**
     * Layer norm over the features of (N, d) rows, from primitives, each broadcast written the
     * way libnd4j differentiates fastest (batch 1024, 16384×64, forward and backward): the mean
     * is subtracted as a broadcast (N, 1) (its backward is a row sum); the inverse deviation (N, 1)
     * and the gain (d) are expanded by outer products with ones, because a broadcast multiply's
     * backward pass took 15 ms where the outer product takes 1.5; the bias goes through bias_add.
     * libnd4j's fused layer_norm measured twice as slow as this in all (28 against 12 ms).
     */
    // Pattern of the rewrite pass LayerNormFusion (train.trace.passes): these calls, in this order.
    private SDVariable layerNorm(SDVariable x, SDVariable gain, SDVariable bias, SDVariable ones) {
        int d = (int) gain.getShape()[0];
        SDVariable featureOnes = sd.constant(Nd4j.ones(x.dataType(), 1, d));                             // (1, d)
        SDVariable centred = x.sub(x.mean(true, 1));                                                     // (N, d)
        SDVariable inverseStd = sd.math.rsqrt(centred.mul(centred).mean(true, 1).add(LAYER_NORM_EPSILON)); // (N, 1)
        SDVariable normalised = centred.mul(sd.mmul(inverseStd, featureOnes));                           // (N, d)
        return sd.nn.biasAdd(normalised.mul(Attention.expandRows(sd, ones, gain)), bias, true);         // (N, d)
    }

    /**
     * max(x, 0) as x · (x > 0): the same function and gradient (0 at x = 0, as usual), but its
     * backward pass is a same-shape multiply (1.3 ms for 16384×128 here) where libnd4j's
     * relu backward (thresholdedrelu_bp) took 24 ms.
     */
    // Pattern of the rewrite pass ReluFusion (train.trace.passes): greaterthan_scalar 0, cast, multiply.
    private SDVariable relu(SDVariable x) {
        return x.mul(sd.gt(x, 0.0).castTo(x.dataType()));
    }

    /**
     * Inverted dropout of (B·T, d) activations, training only: x times a mask placeholder
     * ({@link #dropoutMasks()}, values from {@link #dropoutMask}). The mask comes from outside the
     * graph because SameDiff 1.0.0-M2.1's dropout op has no derivative ("DropOutInverted does
     * not have a derivative": training with dropout failed at its first step), and its random
     * ops take only static shapes, where the batch is dynamic.
     */
    private SDVariable dropout(SDVariable x) {
        if (training == null || training.dropout() <= 0) {
            return x;
        }
        String name = DROPOUT_MASK + dropoutMasks.size();
        dropoutMasks.add(name);
        return x.mul(sd.placeHolder(name, x.dataType(), -1, config.dModel));
    }

    /** Prefix of the dropout mask placeholders of a training graph, each (B·T, d). */
    public static final String DROPOUT_MASK = "dropout_mask/";
    private final List<String> dropoutMasks = new ArrayList<>();

    /** The dropout mask placeholders of this (training) graph, in order; empty without dropout. */
    public List<String> dropoutMasks() {
        return List.copyOf(dropoutMasks);
    }

    /**
     * A mask of inverted dropout, drawn from ND4J's random generator (seed it first for
     * repeatable masks): each value 0 with probability {@code rate}, else 1/(1 − rate).
     */
    public static INDArray dropoutMask(DataType dataType, long rows, long width, double rate) {
        double keep = 1.0 - rate;
        return Nd4j.rand(dataType, rows, width).lt(keep).castTo(dataType).muli(1.0 / keep);
    }
}
