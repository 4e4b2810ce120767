package org.langid.model.onnx;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import onnx.Onnx;
import org.langid.model.graph.BulkArrays;
import org.langid.model.graph.CharacterNgrams;
import org.langid.model.graph.LanguageIdGraph;
import org.langid.model.graph.ModelConfig;
import org.langid.model.graph.NgramFilter;
import org.langid.model.graph.ParameterLayout;
import org.langid.serving.IntegerKernels;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.shade.protobuf.ByteString;

/**
 * Writes the inference graph of {@link LanguageIdGraph} as an ONNX model (opset 17, IR 8),
 * node by node from the trained parameters: the same mathematics, written for an inference
 * engine rather than for SameDiff's autodiff (a table lookup instead of one-hot × matmul and the
 * first block's projections, Gemm with its bias, Relu instead of its hand-differentiated form,
 * the layer norms' gains and biases folded into the linear layers that read them).
 *
 * <pre>
 *   input  windows        INT32 (B, T) symbol indices, PAD = 68
 *   output probabilities  FLOAT (B, C), languages in the manifest's order
 * </pre>
 * ND4J has no SameDiff→ONNX exporter; its jar carries the generated ONNX protobuf classes, which
 * this uses. {@code OnnxParityTest} checks the result against the SameDiff graph window by window.
 * Rows stay (B·T, d) so that every linear layer is one Gemm with its bias. Standard ops only (no
 * com.microsoft fused attention), so that any ONNX runtime can serve it.
 */
public final class OnnxGraphWriter {

    public static final int OPSET = 17;
    public static final long IR_VERSION = 8;
    public static final String INPUT = org.langid.serving.OnnxWindowClassifier.INPUT;     // what the reader feeds
    public static final String OUTPUT = org.langid.serving.OnnxWindowClassifier.OUTPUT;
    /** Metadata naming the model version the file was written for: a loader refuses a file from another model. */
    public static final String MODEL_VERSION_KEY = org.langid.serving.OnnxWindowClassifier.MODEL_VERSION_KEY;
    /** Metadata of the int8 flavour: its weights' bits (7); int8 files without it have 8-bit weights. */
    public static final String INT8_WEIGHT_BITS_KEY = org.langid.serving.OnnxWindowClassifier.INT8_WEIGHT_BITS_KEY;

    /**
     * FLOAT: every product in float32, as trained. INT8: the blocks' linear layers as ONNX
     * Runtime's dynamic quantisation writes them (activations quantised per batch to uint8,
     * weights to 7-bit int8 per output column, int32 products scaled back to float; fused at load
     * into one kernel), the n-gram table in int8 (per column), the rest in float. 7-bit weights
     * keep every integer product exact on every x86-64 CPU ({@link IntegerKernels}), so the
     * answers do not depend on the CPU; the n-gram projection stays in float, where int8 cost
     * agreement and saved no time. 0.91–0.93 of FLOAT's time on a Zen 3 (docs/RESULTS.md, "The int8 flavour on every CPU").
     */
    public enum Precision { FLOAT, INT8 }

    private final ModelConfig config;
    private final Precision precision;
    private final NgramFilter filter;
    /** The largest |int8 weight|: {@link IntegerKernels#EXACT_EVERYWHERE}; 127 only for tests of 8-bit files. */
    private final int weightLimit;
    private final Onnx.GraphProto.Builder graph = Onnx.GraphProto.newBuilder();
    private Map<String, INDArray> parameters;
    private int nodeCount;

    private OnnxGraphWriter(ModelConfig config, Precision precision, NgramFilter filter, int weightLimit) {
        this.config = config;
        this.precision = precision;
        this.filter = filter;
        this.weightLimit = weightLimit;
    }

    /** The serialised ONNX model of {@code parameters} (a flat vector laid out by {@link ParameterLayout}). */
    public static byte[] write(ModelConfig config, INDArray parameters, String modelVersion) {
        return write(config, parameters, modelVersion, Precision.FLOAT);
    }

    /** As {@link #write(ModelConfig, INDArray, String)}, its matrix products in {@code precision}. */
    public static byte[] write(ModelConfig config, INDArray parameters, String modelVersion, Precision precision) {
        return write(config, parameters, modelVersion, precision, null);
    }

    /**
     * As {@link #write(ModelConfig, INDArray, String, Precision)}; with a {@code filter} (of the
     * model's {@code ngram_filter_bits}) n-grams it does not hold select nothing. Null reads every
     * n-gram: what validation during training runs, since the filter is made after training.
     */
    public static byte[] write(ModelConfig config, INDArray parameters, String modelVersion, Precision precision, NgramFilter filter) {
        return write(config, parameters, modelVersion, precision, filter, IntegerKernels.EXACT_EVERYWHERE);
    }

    /**
     * The int8 flavour as it was written before its weights had 7 bits: 8-bit weights, no
     * {@link #INT8_WEIGHT_BITS_KEY}. Exact only where the integer kernels sum in int32 (VNNI); for
     * tests of how loaders treat such files.
     */
    static byte[] writeWithEightBitWeights(ModelConfig config, INDArray parameters, String modelVersion, NgramFilter filter) {
        return write(config, parameters, modelVersion, Precision.INT8, filter, IntegerKernels.EIGHT_BIT);
    }

    private static byte[] write(ModelConfig config, INDArray parameters, String modelVersion, Precision precision, NgramFilter filter,
                                int weightLimit) {
        config.validated();
        if (filter != null && (!config.ngramFiltered() || filter.size() != config.ngramFilterBits)) {
            throw new IllegalArgumentException("an n-gram filter of " + filter.size() + " bits for a model with ngram_filter_bits " + config.ngramFilterBits);
        }
        OnnxGraphWriter writer = new OnnxGraphWriter(config, precision, filter, weightLimit);
        writer.define(ParameterLayout.of(config).views(parameters.castTo(DataType.FLOAT)));
        Onnx.ModelProto.Builder model = Onnx.ModelProto.newBuilder()
                .setIrVersion(IR_VERSION)
                .addOpsetImport(Onnx.OperatorSetIdProto.newBuilder().setDomain("").setVersion(OPSET))
                .setProducerName("langid")
                .setModelVersion(1)
                .setDocString("langid language identifier " + modelVersion + ": 16-character windows → language probabilities")
                .setGraph(writer.graph.setName("langid"))
                .addMetadataProps(Onnx.StringStringEntryProto.newBuilder().setKey(MODEL_VERSION_KEY).setValue(modelVersion));
        if (precision == Precision.INT8 && weightLimit == IntegerKernels.EXACT_EVERYWHERE) {
            model.addMetadataProps(Onnx.StringStringEntryProto.newBuilder().setKey(INT8_WEIGHT_BITS_KEY).setValue("7"));
        }
        return model.build().toByteArray();
    }

    private void define(Map<String, INDArray> trained) {
        int t = config.window;
        boolean seed = ModelConfig.SEED.equals(config.block);
        int heads = seed ? 1 : config.heads;
        int d = config.dModel;
        // The first block's input and its attention projections depend only on (symbol, position):
        // they are looked up in one precomputed table instead of computed (a sixth of the arithmetic).
        // (Not with n-grams: the first block's input then depends on the neighbours too.)
        // The table has T · S rows of 4d: a few MB for alphabets of a few hundred symbols.
        boolean firstBlockTabled = !seed && config.layers > 0 && !config.ngrams() && config.alphabet.inputSymbols() <= 256;
        Map<String, INDArray> p = seed ? trained : foldLayerNorms(trained, firstBlockTabled);
        parameters = p;
        java.util.Set<String> tabled = firstBlockTabled ? java.util.Set.of("embedding", "position", "block0/ln1/gain",
                "block0/ln1/bias", "block0/attn/wq", "block0/attn/bq", "block0/attn/wk", "block0/attn/bk", "block0/attn/wv",
                "block0/attn/bv") : java.util.Set.of();
        p.forEach((name, value) -> {
            if (LanguageIdGraph.NGRAM_TABLE.equals(name) && precision == Precision.INT8) {
                addInt8Table(value);                                                                        // (buckets + 1, e), (e)
            } else if (LanguageIdGraph.NGRAM_TABLE.equals(name)) {
                graph.addInitializer(floatTensor(NGRAM_ROWS, Nd4j.concat(0, value, Nd4j.zeros(value.dataType(), 1, value.size(1)))));  // (buckets + 1, e)
            } else if (!tabled.contains(name) && !quantised(name)) {
                graph.addInitializer(floatTensor(name, value));
            }
        });
        if (filter != null) {
            graph.addInitializer(Onnx.TensorProto.newBuilder().setName(NGRAM_FILTER).setDataType(Onnx.TensorProto.DataType.UINT8_VALUE)
                    .addDims(filter.bytes().length).setRawData(ByteString.copyFrom(filter.bytes())));   // (bits / 8)
        }
        graph.addInput(valueInfo(INPUT, Onnx.TensorProto.DataType.INT32, "batch", t));
        graph.addOutput(valueInfo(OUTPUT, Onnx.TensorProto.DataType.FLOAT, "batch", config.classes()));

        String isPad = node("Equal", List.of(INPUT, intScalar("pad", config.alphabet.pad())));                 // (B, T)
        String isReal = node("Cast", List.of(node("Not", List.of(isPad))),
                a -> a.add(intAttribute("to", Onnx.TensorProto.DataType.FLOAT_VALUE)));                   // (B, T)
        String keyMask = node("Unsqueeze", List.of(node("Mul", List.of(node("Sub", List.of(floatScalar("one", 1f), isReal)),
                floatScalar("masked", -1e9f))), longs("mask_axes", 1, 2)));                              // (B, 1, 1, T)

        String x;
        String[] firstQkv = null;
        if (firstBlockTabled) {
            graph.addInitializer(firstBlockTable(p));                                                       // (T·S, 4d)
            Onnx.TensorProto.Builder offsets = Onnx.TensorProto.newBuilder().setName("position_offsets")
                    .setDataType(Onnx.TensorProto.DataType.INT32_VALUE).addDims(1).addDims(t);
            for (int position = 0; position < t; position++) {
                offsets.addInt32Data(position * config.alphabet.inputSymbols());
            }
            graph.addInitializer(offsets);                                                                  // (1, T)
            String rows = node("Reshape", List.of(node("Gather", List.of(FIRST_BLOCK_TABLE, node("Add", List.of(INPUT, "position_offsets")))),
                    longs("table_rows", -1, 4L * d)));                                                     // (B·T, 4d)
            String[] parts = new String[4];
            Onnx.NodeProto.Builder split = Onnx.NodeProto.newBuilder().setOpType("Split").setName("first_block_split")
                    .addInput(rows).addInput(longs("first_block_widths", d, d, d, d)).addAttribute(intAttribute("axis", 1));
            for (int i = 0; i < 4; i++) {
                parts[i] = "first_block_part_" + i;
                split.addOutput(parts[i]);
            }
            graph.addNode(split);
            x = parts[0];                                                                                    // (B·T, d)
            firstQkv = new String[] {parts[1], parts[2], parts[3]};                                           // each (B·T, d)
        } else {
            x = node("Gather", List.of("embedding", INPUT));                                                // (B, T, d)
            if (config.positional) {
                x = node("Add", List.of(x, "position"));                                                   // (B, T, d)
            }
            if (config.ngrams()) {
                String ngrams = ngramRows();                                                               // (B, T, e)
                if (config.ngramsProjected()) {
                    ngrams = linear(ngrams, LanguageIdGraph.NGRAM_PROJECTION, null);                       // (B, T, d)
                }
                x = node("Add", List.of(x, ngrams));                                                       // (B, T, d)
            }
            x = node("Reshape", List.of(x, longs("rows_shape", -1, d)));                                  // (B·T, d)
        }
        int width;
        if (seed) {
            int hs = config.headSize;
            String q = splitHeads(node("MatMul", List.of(x, "seed/wq")), 1, hs, false);                  // (B, 1, T, hs)
            String k = splitHeads(node("MatMul", List.of(x, "seed/wk")), 1, hs, true);                   // (B, 1, hs, T)
            String v = splitHeads(node("MatMul", List.of(x, "seed/wv")), 1, hs, false);                  // (B, 1, T, hs)
            x = node("Reshape", List.of(attend(q, k, v, keyMask, hs), longs("seed_shape", -1, t, hs)));  // (B, T, hs)
            width = hs;
        } else {
            int hs = d / heads;
            addLayerNormConstants();
            for (int layer = 0; layer < config.layers; layer++) {
                String b = "block" + layer + "/";
                String q;
                String k;
                String v;
                if (layer == 0 && firstQkv != null) {
                    q = splitHeads(firstQkv[0], heads, hs, false);                                         // (B, H, T, hs)
                    k = splitHeads(firstQkv[1], heads, hs, true);                                          // (B, H, hs, T)
                    v = splitHeads(firstQkv[2], heads, hs, false);                                         // (B, H, T, hs)
                } else {
                    String normed = layerNorm(x, b + "ln1");                                               // (B, T, d)
                    q = splitHeads(linear(normed, b + "attn/wq", b + "attn/bq"), heads, hs, false);       // (B, H, T, hs)
                    k = splitHeads(linear(normed, b + "attn/wk", b + "attn/bk"), heads, hs, true);        // (B, H, hs, T)
                    v = splitHeads(linear(normed, b + "attn/wv", b + "attn/bv"), heads, hs, false);       // (B, H, T, hs)
                }
                String merged = node("Reshape", List.of(
                        node("Transpose", List.of(attend(q, k, v, keyMask, hs)), a -> a.add(intsAttribute("perm", 0, 2, 1, 3))),
                        longs(b + "merged_shape", -1, d)));                                              // (B·T, d)
                x = node("Add", List.of(x, linear(merged, b + "attn/wo", b + "attn/bo")));                 // (B, T, d)
                String hidden = node("Relu", List.of(linear(layerNorm(x, b + "ln2"), b + "ffn/w1", b + "ffn/b1"))); // (B, T, ffn)
                x = node("Add", List.of(x, linear(hidden, b + "ffn/w2", b + "ffn/b2")));                   // (B, T, d)
            }
            x = node("Reshape", List.of(layerNorm(x, "final_ln"), longs("windows_shape", -1, t, d)));   // (B, T, d)
            width = d;
        }

        // Mean over the real (non-padding) positions, as a weighted sum.
        String realPositions = node("ReduceSum", List.of(isReal, longs("pool_axis", 1)),
                a -> a.add(intAttribute("keepdims", 1)));                                                  // (B, 1)
        String count = node("Max", List.of(realPositions, floatScalar("at_least_one", 1f)));               // (B, 1)
        String poolWeights = node("Unsqueeze", List.of(node("Div", List.of(isReal, count)), longs("weight_axis", 2))); // (B, T, 1)
        String pooled = node("ReduceSum", List.of(node("Mul", List.of(x, poolWeights)), "pool_axis"),
                a -> a.add(intAttribute("keepdims", 0)));                                                  // (B, w)
        String logits = linear(pooled, "classifier/w", "classifier/b");                                    // (B, C)
        if (p.containsKey(FINAL_BIAS_LOGITS)) {
            // The final layer norm's bias, folded past the mean: (its bias · W) once per window that has a real position.
            String anyReal = node("Min", List.of(realPositions, "at_least_one"));                         // (B, 1), 0 or 1
            logits = node("Add", List.of(logits, node("MatMul", List.of(anyReal, FINAL_BIAS_LOGITS))));   // (B, C)
        }
        graph.addNode(Onnx.NodeProto.newBuilder().setOpType("Softmax").addInput(logits).addOutput(OUTPUT)
                .setName("probabilities").addAttribute(intAttribute("axis", -1)));                       // (B, C)
        if (width != config.pooledWidth()) {
            throw new IllegalStateException("pooled width " + width + " differs from the layout's " + config.pooledWidth());
        }
    }

    static final String FIRST_BLOCK_TABLE = "block0/inputs_and_qkv";
    /** Names the final layer norm's bias · classifier weight, (1, C), when {@link #foldLayerNorms} folds it past the mean. */
    static final String FINAL_BIAS_LOGITS = "final_ln/bias_times_classifier";
    /** The n-gram table with one more row, of zeros, for n-grams that select nothing. */
    static final String NGRAM_ROWS = "ngram_rows";
    static final String NGRAM_ROWS_INT8 = "ngram_rows_int8";
    static final String NGRAM_ROWS_SCALE = "ngram_rows_scale";
    /** The {@link NgramFilter}'s bitmap, (bits / 8) uint8. */
    static final String NGRAM_FILTER = "ngram_filter";

    /**
     * Per position, the sum of its n-grams' rows, with the buckets computed in the graph exactly
     * as {@link CharacterNgrams#buckets} computes them (int64 arithmetic; an n-gram that starts
     * before the window or holds PAD selects the zero row).
     *
     * @return (B, T, d)
     */
    private String ngramRows() {
        int t = config.window;
        int maxOrder = config.ngramMaxOrder;
        long pad = config.alphabet.pad();
        long[] powers = CharacterNgrams.powers(config.alphabet);
        boolean exact = CharacterNgrams.exactCodes(config.alphabet);
        String symbols = node("Cast", List.of(INPUT), a -> a.add(intAttribute("to", Onnx.TensorProto.DataType.INT64_VALUE))); // (B, T)
        String padded = node("Pad", List.of(symbols, longs("ngram_pads", 0, maxOrder - 1, 0, 0), longScalar("ngram_pad", pad))); // (B, M−1+T)
        String code = null;
        String valid = null;
        String sum = null;
        for (int k = 0; k < maxOrder; k++) {
            // The symbol k places before each position (PAD before the window).
            String back = node("Slice", List.of(padded, longs("ngram_from_" + k, maxOrder - 1 - k),
                    longs("ngram_to_" + k, maxOrder - 1 - k + t), longs("ngram_axis_" + k, 1)));                 // (B, T)
            String real = node("Not", List.of(node("Equal", List.of(back, "ngram_pad"))));                      // (B, T)
            code = k == 0 ? back : node("Add", List.of(code, node("Mul", List.of(back, longScalar("ngram_power_" + k, powers[k])))));
            if (!exact && k > 0) {
                code = node("Mod", List.of(code, longScalar("ngram_code_prime_" + k, CharacterNgrams.PRIME)));   // (B, T), as CharacterNgrams
            }
            valid = k == 0 ? real : node("And", List.of(valid, real));
            int order = k + 1;
            if (order >= 2) {
                String keyed = node("Add", List.of(code, longScalar("ngram_order_" + order, order * powers[CharacterNgrams.MAX_ORDER])));
                String prime = longScalar("ngram_prime_" + order, CharacterNgrams.PRIME);
                String reduced = node("Mod", List.of(keyed, prime));
                String mixed = node("Mod", List.of(node("Mul", List.of(reduced, longScalar("ngram_mix_" + order, CharacterNgrams.MIX))), prime));
                String bucket = node("Mod", List.of(mixed, longScalar("ngram_buckets_" + order, config.ngramBuckets)));   // (B, T)
                String selects = filter == null ? valid : node("And", List.of(valid, inFilter(reduced, order)));   // (B, T)
                String row = node("Where", List.of(selects, bucket, "ngram_buckets_" + order));                 // (B, T): the zero row if not
                String rows = precision == Precision.INT8
                        ? node("Cast", List.of(node("Gather", List.of(NGRAM_ROWS_INT8, row))),
                                a -> a.add(intAttribute("to", Onnx.TensorProto.DataType.FLOAT_VALUE)))            // (B, T, e), whole numbers
                        : node("Gather", List.of(NGRAM_ROWS, row));                                                // (B, T, e)
                sum = sum == null ? rows : node("Add", List.of(sum, rows));
            }
        }
        // int8: one scale per column, so the orders' rows are summed first and scaled once.
        return precision == Precision.INT8 ? node("Mul", List.of(sum, NGRAM_ROWS_SCALE)) : sum;
    }

    /**
     * Whether the n-grams of {@code order} whose codes mod p are {@code reduced} (B, T) have their bit
     * set in the {@link NgramFilter}, computed as {@link NgramFilter#mayContain} does.
     *
     * @return (B, T) bool
     */
    private String inFilter(String reduced, int order) {
        String prime = "ngram_prime_" + order;
        String bit = node("Mod", List.of(node("Mod", List.of(node("Mul", List.of(reduced, longScalar("ngram_filter_mix_" + order, NgramFilter.MIX))), prime)),
                longScalar("ngram_filter_bits_" + order, filter.size())));                                  // (B, T) in [0, bits)
        // Shifts instead of int64 Div and Mod, which ONNX Runtime runs element by element: a twentieth
        // of the int8 graph's time on a Zen 4, the same bits (docs/RESULTS.md, "Detection speed").
        String byteIndex = node("Cast", List.of(node("BitShift", List.of(node("Cast", List.of(bit),
                                a -> a.add(intAttribute("to", Onnx.TensorProto.DataType.UINT64_VALUE))),
                        unsignedLongScalar("ngram_filter_three_" + order, 3)), a -> a.add(stringAttribute("direction", "RIGHT")))),
                a -> a.add(intAttribute("to", Onnx.TensorProto.DataType.INT64_VALUE)));                   // (B, T): bit / 8
        String place = node("Sub", List.of(bit, node("Mul", List.of(byteIndex, longScalar("ngram_filter_eight_" + order, 8)))));  // (B, T): bit mod 8
        String shifted = node("BitShift", List.of(node("Gather", List.of(NGRAM_FILTER, byteIndex)), node("Cast", List.of(place),
                        a -> a.add(intAttribute("to", Onnx.TensorProto.DataType.UINT8_VALUE)))),
                a -> a.add(stringAttribute("direction", "RIGHT")));                                         // (B, T) uint8: the bit is the lowest
        // Shifted to the top of its byte, the lowest bit alone is left: 128 if set, else 0.
        return node("Cast", List.of(node("BitShift", List.of(shifted, byteScalar("ngram_filter_seven_" + order, (byte) 7)),
                a -> a.add(stringAttribute("direction", "LEFT")))), a -> a.add(intAttribute("to", Onnx.TensorProto.DataType.BOOL_VALUE)));
    }

    /**
     * The n-gram table in int8 with one scale per column, and the zero row after it: a quarter of
     * the float table's bytes, which is most of the file, so the int8 flavour loads ~0.1 s sooner.
     */
    private void addInt8Table(INDArray table) {
        Int8Matrix quantised = int8PerColumn(NGRAM_ROWS_INT8, NGRAM_ROWS_SCALE, table, 1, 127);  // the last row stays 0; only cast, never multiplied in int8
        graph.addInitializer(quantised.values());                                                           // (buckets + 1, e)
        graph.addInitializer(quantised.scales());                                                           // (e)
    }

    /** An int8 matrix and its float scales per column, as ONNX initializers. */
    private record Int8Matrix(Onnx.TensorProto values, Onnx.TensorProto scales) {
    }

    /**
     * {@code matrix} (rows, columns) as int8 tensor {@code name}, m ≈ q · scale with one symmetric
     * scale per column (its largest |value| maps to {@code limit}), the scales as float tensor
     * {@code scaleName}; {@code zeroRows} rows of 0 appended. The values are read in one bulk copy
     * ({@link BulkArrays#floatValues}; ND4J's {@code toFloatMatrix} makes a view per row: about a
     * minute for a million-row table).
     */
    private static Int8Matrix int8PerColumn(String name, String scaleName, INDArray matrix, int zeroRows, int limit) {
        int rows = Math.toIntExact(matrix.size(0));
        int columns = Math.toIntExact(matrix.size(1));
        float[] m = BulkArrays.floatValues(matrix);                                                         // (rows·columns), row-major
        float[] scale = new float[columns];
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < columns; j++) {
                scale[j] = Math.max(scale[j], Math.abs(m[i * columns + j]));
            }
        }
        for (int j = 0; j < columns; j++) {
            scale[j] = scale[j] > 0 ? scale[j] / limit : 1f;
        }
        byte[] quantised = new byte[(rows + zeroRows) * columns];
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < columns; j++) {
                quantised[i * columns + j] = (byte) Math.max(-limit, Math.min(limit, Math.rint(m[i * columns + j] / scale[j])));
            }
        }
        Onnx.TensorProto.Builder scales = Onnx.TensorProto.newBuilder().setName(scaleName)
                .setDataType(Onnx.TensorProto.DataType.FLOAT_VALUE).addDims(columns);
        for (float value : scale) {
            scales.addFloatData(value);
        }
        return new Int8Matrix(Onnx.TensorProto.newBuilder().setName(name).setDataType(Onnx.TensorProto.DataType.INT8_VALUE)
                .addDims(rows + (long) zeroRows).addDims(columns).setRawData(ByteString.copyFrom(quantised)).build(), scales.build());
    }

    /**
     * Row {@code position · S + symbol} (S = 69 input symbols): [x | q | k | v] of the first block
     * for that symbol at that position, x = embedding[symbol] + position[position], q/k/v the
     * attention projections of LN1(x), computed here in double precision.
     */
    private Onnx.TensorProto firstBlockTable(Map<String, INDArray> p) {
        int t = config.window;
        int d = config.dModel;
        int symbols = config.alphabet.inputSymbols();
        float[][] embedding = p.get("embedding").toFloatMatrix();                                        // (S, d)
        float[][] position = config.positional ? p.get("position").toFloatMatrix() : new float[t][d];    // (T, d)
        float[] gain = p.get("block0/ln1/gain").toFloatVector();
        float[] bias = p.get("block0/ln1/bias").toFloatVector();
        float[][][] weights = {p.get("block0/attn/wq").toFloatMatrix(), p.get("block0/attn/wk").toFloatMatrix(),
                p.get("block0/attn/wv").toFloatMatrix()};                                                  // each (d, d)
        float[][] biases = {p.get("block0/attn/bq").toFloatVector(), p.get("block0/attn/bk").toFloatVector(),
                p.get("block0/attn/bv").toFloatVector()};
        ByteBuffer bytes = ByteBuffer.allocate(t * symbols * 4 * d * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        double[] x = new double[d];
        double[] normed = new double[d];
        for (int at = 0; at < t; at++) {
            for (int symbol = 0; symbol < symbols; symbol++) {
                double mean = 0;
                for (int i = 0; i < d; i++) {
                    x[i] = (double) embedding[symbol][i] + position[at][i];
                    mean += x[i];
                }
                mean /= d;
                double variance = 0;
                for (int i = 0; i < d; i++) {
                    variance += (x[i] - mean) * (x[i] - mean);
                }
                double inverseStd = 1.0 / Math.sqrt(variance / d + LanguageIdGraph.LAYER_NORM_EPSILON);
                for (int i = 0; i < d; i++) {
                    normed[i] = (x[i] - mean) * inverseStd * gain[i] + bias[i];
                    bytes.putFloat((float) x[i]);
                }
                for (int projection = 0; projection < 3; projection++) {
                    for (int j = 0; j < d; j++) {
                        double sum = biases[projection][j];
                        for (int i = 0; i < d; i++) {
                            sum += normed[i] * weights[projection][i][j];
                        }
                        bytes.putFloat((float) sum);
                    }
                }
            }
        }
        return Onnx.TensorProto.newBuilder().setName(FIRST_BLOCK_TABLE).setDataType(Onnx.TensorProto.DataType.FLOAT_VALUE)
                .addDims((long) t * symbols).addDims(4L * d).setRawData(ByteString.copyFrom(bytes.array())).build();
    }

    /** softmax(Q·Kᵀ [/√hs] + mask)·V with K given transposed; (B, H, T, hs). */
    private String attend(String q, String kTransposed, String v, String keyMask, int hs) {
        String scores = node("MatMul", List.of(q, kTransposed));                                           // (B, H, T, T)
        if (config.scaled) {
            scores = node("Mul", List.of(scores, floatScalar("scale" + nodeCount, (float) (1.0 / Math.sqrt(hs)))));
        }
        String weights = node("Softmax", List.of(node("Add", List.of(scores, keyMask))),
                a -> a.add(intAttribute("axis", -1)));                                                     // (B, H, T, T)
        return node("MatMul", List.of(weights, v));                                                        // (B, H, T, hs)
    }

    /** (B, T, H·hs) → (B, H, T, hs), or (B, H, hs, T) when {@code transposed} (for keys). */
    private String splitHeads(String x, int heads, int hs, boolean transposed) {
        String split = node("Reshape", List.of(x, longs("heads_shape" + nodeCount, -1, config.window, heads, hs)));
        int[] perm = transposed ? new int[] {0, 2, 3, 1} : new int[] {0, 2, 1, 3};
        return node("Transpose", List.of(split), a -> a.add(intsAttribute("perm", perm)));
    }

    /**
     * x (N, in) · W (in, out) + b: one Gemm, the bias added by the matrix product itself; or, for a
     * weight {@link #quantised} in int8, ONNX Runtime's dynamic-quantisation pattern. Without a
     * bias (null) a MatMul, x of any rank.
     */
    private String linear(String x, String weight, String bias) {
        if (!quantised(weight)) {
            return bias == null ? node("MatMul", List.of(x, weight)) : node("Gemm", List.of(x, weight, bias));
        }
        // W ≈ Wq · scale per output column, Wq in [−64, 64]; x ≈ (xq − xZero) · xScale per call.
        String name = weight + "_int8";
        Int8Matrix quantised = int8PerColumn(name, weight + "_scale", parameters.get(weight), 0, weightLimit);
        int out = (int) parameters.get(weight).size(1);
        graph.addInitializer(quantised.values());                                                           // (in, out)
        graph.addInitializer(Onnx.TensorProto.newBuilder().setName(weight + "_zero").setDataType(Onnx.TensorProto.DataType.INT8_VALUE)
                .addDims(out).setRawData(ByteString.copyFrom(new byte[out])));                            // (out)
        graph.addInitializer(quantised.scales());                                                           // (out)
        String prefix = "quantised_" + nodeCount++;
        graph.addNode(Onnx.NodeProto.newBuilder().setOpType("DynamicQuantizeLinear").setName(prefix).addInput(x)
                .addOutput(prefix + "_x").addOutput(prefix + "_x_scale").addOutput(prefix + "_x_zero"));          // uint8 (N, in), scalars
        String products = node("MatMulInteger", List.of(prefix + "_x", name, prefix + "_x_zero", weight + "_zero"));  // int32 (N, out)
        String asFloat = node("Cast", List.of(products), a -> a.add(intAttribute("to", Onnx.TensorProto.DataType.FLOAT_VALUE)));
        String scaled = node("Mul", List.of(asFloat, node("Mul", List.of(prefix + "_x_scale", weight + "_scale"))));  // (N, out)
        return bias == null ? scaled : node("Add", List.of(scaled, bias));
    }

    /**
     * Whether {@code weight} is written in int8: in {@link Precision#INT8}, the blocks' linear
     * layers. (The n-gram projection, 16 inputs wide, stays in float: in int8 it was most of the
     * flavour's disagreement with the float graph and no faster.)
     */
    private boolean quantised(String weight) {
        return precision == Precision.INT8 && weight.matches("block[0-9]+/(attn/w[qkvo]|ffn/w[12])");
    }

    /** The (d, 1) column of 1/d and ε that every {@link #layerNorm} shares. */
    private void addLayerNormConstants() {
        int d = config.dModel;
        Onnx.TensorProto.Builder column = Onnx.TensorProto.newBuilder().setName("mean_column")
                .setDataType(Onnx.TensorProto.DataType.FLOAT_VALUE).addDims(d).addDims(1);
        for (int i = 0; i < d; i++) {
            column.addFloatData(1f / d);
        }
        graph.addInitializer(column);
        floatScalar("layer_norm_epsilon", (float) LanguageIdGraph.LAYER_NORM_EPSILON);
    }

    /**
     * Layer norm over the features of (N, d) rows, with the row means taken by matrix products
     * with a constant (d, 1) column of 1/d. ONNX Runtime 1.29's LayerNormalization kernel took 38%
     * of a batch's time here (10 ms per call at batch 1024), this form a fraction of it; written
     * with ReduceMean it would be fused back into that kernel. Without its gain and bias when
     * {@link #foldLayerNorms} moved them into the next layer.
     */
    private String layerNorm(String x, String prefix) {
        String centred = node("Sub", List.of(x, node("MatMul", List.of(x, "mean_column"))));                 // (N, d)
        String variance = node("MatMul", List.of(node("Mul", List.of(centred, centred)), "mean_column"));    // (N, 1)
        String inverseStd = node("Reciprocal", List.of(node("Sqrt", List.of(node("Add", List.of(variance, "layer_norm_epsilon"))))));
        String normalised = node("Mul", List.of(centred, inverseStd));                                        // (N, d)
        if (!parameters.containsKey(prefix + "/gain")) {
            return normalised;                                                         // gain and bias folded into the next layer
        }
        return node("Add", List.of(node("Mul", List.of(normalised, prefix + "/gain")), prefix + "/bias"));  // (N, d)
    }

    /**
     * The parameters with every layer norm's gain g and bias β folded into the linear layer that
     * reads it: (n ⊙ g + β)·W + b = n·(diag(g)·W) + (β·W + b). Two elementwise passes over
     * (B·T, d) fewer per layer norm. The final one is read through the mean over real positions,
     * so its β·W is added to the logits of windows that have one (an all-padding window's mean
     * is 0, as in training). The first block's first norm stays when its projections are tabled.
     */
    private Map<String, INDArray> foldLayerNorms(Map<String, INDArray> trained, boolean firstBlockTabled) {
        Map<String, INDArray> folded = new java.util.LinkedHashMap<>(trained);
        for (int layer = 0; layer < config.layers; layer++) {
            String b = "block" + layer + "/";
            if (!(layer == 0 && firstBlockTabled)) {
                fold(folded, b + "ln1", List.of(b + "attn/wq", b + "attn/wk", b + "attn/wv"), List.of(b + "attn/bq", b + "attn/bk", b + "attn/bv"));
            }
            fold(folded, b + "ln2", List.of(b + "ffn/w1"), List.of(b + "ffn/b1"));
        }
        INDArray gain = folded.remove("final_ln/gain");
        INDArray bias = folded.remove("final_ln/bias");
        folded.put(FINAL_BIAS_LOGITS, foldIntoWeight(folded, "classifier/w", gain, bias));                // (1, C)
        return folded;
    }

    private static void fold(Map<String, INDArray> p, String norm, List<String> weights, List<String> biases) {
        INDArray gain = p.remove(norm + "/gain");                                                          // (d)
        INDArray bias = p.remove(norm + "/bias");                                                          // (d)
        for (int i = 0; i < weights.size(); i++) {
            INDArray extra = foldIntoWeight(p, weights.get(i), gain, bias);                                // (1, out)
            p.put(biases.get(i), p.get(biases.get(i)).add(extra.reshape(p.get(biases.get(i)).shape())));
        }
    }

    /** Replaces W by diag(gain)·W in {@code p}; returns β·W of the W it had, (1, out). */
    private static INDArray foldIntoWeight(Map<String, INDArray> p, String weightName, INDArray gain, INDArray bias) {
        INDArray weight = p.get(weightName);                                                               // (d, out)
        INDArray biasTimesWeight = bias.reshape(1, bias.length()).mmul(weight);
        p.put(weightName, weight.mulColumnVector(gain.reshape(gain.length(), 1)));
        return biasTimesWeight;
    }

    private String node(String op, List<String> inputs) {
        return node(op, inputs, a -> { });
    }

    private String node(String op, List<String> inputs, java.util.function.Consumer<List<Onnx.AttributeProto>> attributes) {
        String output = op.toLowerCase(java.util.Locale.ROOT) + "_" + nodeCount++;
        List<Onnx.AttributeProto> attrs = new ArrayList<>();
        attributes.accept(attrs);
        graph.addNode(Onnx.NodeProto.newBuilder().setOpType(op).setName(output).addAllInput(inputs).addOutput(output)
                .addAllAttribute(attrs));
        return output;
    }

    private String floatScalar(String name, float value) {
        return scalar(name, Onnx.TensorProto.DataType.FLOAT, t -> t.addFloatData(value));
    }

    private String intScalar(String name, int value) {
        return scalar(name, Onnx.TensorProto.DataType.INT32, t -> t.addInt32Data(value));
    }

    private String longScalar(String name, long value) {
        return scalar(name, Onnx.TensorProto.DataType.INT64, t -> t.addInt64Data(value));
    }

    private String unsignedLongScalar(String name, long value) {
        return scalar(name, Onnx.TensorProto.DataType.UINT64, t -> t.addUint64Data(value));
    }

    private String byteScalar(String name, byte value) {
        return scalar(name, Onnx.TensorProto.DataType.UINT8, t -> t.setRawData(ByteString.copyFrom(new byte[] {value})));
    }

    /** A scalar initialiser of {@code type} whose value {@code value} sets. */
    private String scalar(String name, Onnx.TensorProto.DataType type, java.util.function.Consumer<Onnx.TensorProto.Builder> value) {
        Onnx.TensorProto.Builder tensor = Onnx.TensorProto.newBuilder().setName(name).setDataType(type.getNumber());
        value.accept(tensor);
        graph.addInitializer(tensor);
        return name;
    }

    private String longs(String name, long... values) {
        Onnx.TensorProto.Builder tensor = Onnx.TensorProto.newBuilder().setName(name)
                .setDataType(Onnx.TensorProto.DataType.INT64_VALUE).addDims(values.length);
        for (long v : values) {
            tensor.addInt64Data(v);
        }
        graph.addInitializer(tensor);
        return name;
    }

    private static Onnx.AttributeProto stringAttribute(String name, String value) {
        return Onnx.AttributeProto.newBuilder().setName(name).setType(Onnx.AttributeProto.AttributeType.STRING)
                .setS(ByteString.copyFromUtf8(value)).build();
    }

    private static Onnx.TensorProto floatTensor(String name, INDArray value) {
        float[] data = value.dup('c').data().asFloat();
        ByteBuffer bytes = ByteBuffer.allocate(data.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        bytes.asFloatBuffer().put(data);
        Onnx.TensorProto.Builder tensor = Onnx.TensorProto.newBuilder().setName(name)
                .setDataType(Onnx.TensorProto.DataType.FLOAT_VALUE).setRawData(ByteString.copyFrom(bytes.array()));
        for (long dim : value.shape()) {
            tensor.addDims(dim);
        }
        return tensor.build();
    }

    private static Onnx.ValueInfoProto valueInfo(String name, Onnx.TensorProto.DataType type, String batch, int width) {
        Onnx.TensorShapeProto shape = Onnx.TensorShapeProto.newBuilder()
                .addDim(Onnx.TensorShapeProto.Dimension.newBuilder().setDimParam(batch))
                .addDim(Onnx.TensorShapeProto.Dimension.newBuilder().setDimValue(width)).build();
        return Onnx.ValueInfoProto.newBuilder().setName(name).setType(Onnx.TypeProto.newBuilder()
                .setTensorType(Onnx.TypeProto.Tensor.newBuilder().setElemType(type.getNumber()).setShape(shape))).build();
    }

    private static Onnx.AttributeProto intAttribute(String name, long value) {
        return Onnx.AttributeProto.newBuilder().setName(name).setType(Onnx.AttributeProto.AttributeType.INT).setI(value).build();
    }

    private static Onnx.AttributeProto intsAttribute(String name, int... values) {
        Onnx.AttributeProto.Builder a = Onnx.AttributeProto.newBuilder().setName(name).setType(Onnx.AttributeProto.AttributeType.INTS);
        for (int v : values) {
            a.addInts(v);
        }
        return a.build();
    }
}
