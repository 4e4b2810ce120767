package org.langid.model.train.kernels;

import static org.langid.model.train.kernels.VectorMath.get;
import static org.langid.model.train.kernels.VectorMath.put;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import org.langid.model.train.kernels.VectorMath.Blocks;

/**
 * The attention's core, {@code P = softmax(scale·Q·Kᵀ + M)}, {@code O = P·V}, and its backward, one
 * (query positions × key positions) block of one window's head at a time on the JDK's vector API
 * ({@code AttentionFusion} puts these in a recorded step). Done as separate calls, each of the
 * products, the scale, the mask, softmax and their backward passes reads and writes a whole
 * (B, H, T, T) array; here a block's scores and their gradients stay in L1, and only P, O and the
 * gradients of Q, K and V are written. Blocks are (T, C) for Q, K, V, O and their gradients and
 * (T, T) for P and M, laid out as {@link Blocks} say. Loaded only when the vector module is present.
 */
public final class AttentionMath {

    private static final VectorSpecies<Float> SPECIES = FloatVector.SPECIES_PREFERRED;
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    private AttentionMath() {
    }

    /** Per-plan arrays for one (T, C) attention: a block of each operand (one thread runs a plan). */
    public static final class Scratch {
        final int t;
        final int c;
        final float[] q;            // (T, C) blocks of Q, K, V, dO
        final float[] k;
        final float[] v;
        final float[] dO;
        final float[] transposed;   // Kᵀ forward, Vᵀ backward: (C, T)
        final float[] p;            // (T, T): P
        final float[] dS;           // (T, T): dP, then dS

        public Scratch(int t, int c) {
            this.t = t;
            this.c = c;
            q = new float[t * c];
            k = new float[t * c];
            v = new float[t * c];
            dO = new float[t * c];
            transposed = new float[c * t];
            p = new float[t * t];
            dS = new float[t * t];
        }
    }

    /**
     * For each of {@code blocks} blocks: P = softmax(scale·Q·Kᵀ + M) over each row (M absent if
     * {@code mask} is null), O = P·V. The same operations in the same order as the graph's calls.
     */
    public static void forward(Blocks q, Blocks k, Blocks v, Blocks mask, float scale, Blocks p, Blocks o, int blocks, Scratch s) {
        forward(q, k, v, mask, scale, p, o, blocks, s, true);
    }

    /** {@link #forward}, with the by-row passes where they apply only if {@code byRows} (tests compare the two). */
    public static void forward(Blocks q, Blocks k, Blocks v, Blocks mask, float scale, Blocks p, Blocks o, int blocks, Scratch s,
                               boolean byRows) {
        int t = s.t;
        int c = s.c;
        if (byRows && rowsAreVectors(t, c)) {
            forwardByRows(q, k, v, mask, scale, p, o, blocks, s);
            return;
        }
        for (int b = 0; b < blocks; b++) {
            VectorMath.load(q, b, t, c, s.q);
            VectorMath.load(k, b, t, c, s.k);
            transpose(s.k, t, c, s.transposed);
            int maskStart = mask == null ? 0 : mask.start(b);
            if (t == SPECIES.length()) {
                weightsInRegisters(s, mask, maskStart, scale, p, p.start(b));
            } else {
                weights(s, mask, maskStart, scale, p, p.start(b));
            }
            product(s.p, false, v, t, c, o, b);
        }
    }

    /** The one block shape the by-row passes take, (16, 16): the default model's 16 positions and heads of 16. */
    private static final int ROW = 16;
    /** Float lanes of this machine's vectors: 16 with AVX-512, 8 with AVX2. */
    private static final int LANES = SPECIES.length();
    /** Half a row, one AVX2 vector. */
    private static final int HALF = ROW / 2;

    /**
     * Whether {@link #forwardByRows} and {@link #backwardByRows} take this block shape: (16, 16) with
     * 16 float lanes (AVX-512: a row of each operand one vector) or 8 (AVX2: two). They do the same
     * operations in the same order as the general passes at the same width, so give the same bits
     * (AttentionFusionTest), in about 0.7× the time alone with either width (bench/EXPERIMENTS.md, "Training speed: the step"): the
     * shape is a constant there, so C2 unrolls their loops and drops the index checks, they take
     * four rows at a time (independent chains of multiply-adds where one row waits on each add's
     * latency), and they call the vector API directly, with no masks and no helper that takes or
     * returns a vector.
     */
    static boolean rowsAreVectors(int t, int c) {
        return t == ROW && c == ROW && (LANES == ROW || LANES == HALF);
    }

    private static void forwardByRows(Blocks q, Blocks k, Blocks v, Blocks mask, float scale, Blocks p, Blocks o, int blocks, Scratch s) {
        float[] queries = s.q;
        float[] keys = s.transposed;   // Kᵀ: (C, T)
        float[] values = s.v;
        float[] weights = s.p;
        for (int b = 0; b < blocks; b++) {
            rows(q, b, queries);
            rows(k, b, s.k);
            transpose(s.k, ROW, ROW, keys);
            rows(v, b, values);
            blockProduct(queries, keys, weights);   // scores S = Q·Kᵀ
            int maskStart = mask == null ? 0 : mask.start(b);
            if (LANES == ROW) {
                softmaxRows(weights, mask, maskStart, scale, p, p.start(b));
            } else {
                softmaxHalfRows(weights, mask, maskStart, scale, p, p.start(b));
            }
            blockProducts(weights, false, values, o, b);   // O = P·V
        }
    }

    private static void backwardByRows(Blocks q, Blocks k, Blocks v, Blocks p, Blocks dO, float scale, Blocks dQ, Blocks dK, Blocks dV,
                                       int blocks, Scratch s) {
        float[] weights = s.p;
        float[] outGradient = s.dO;
        float[] valuesT = s.transposed;   // Vᵀ: (C, T)
        float[] scoreGradient = s.dS;
        for (int b = 0; b < blocks; b++) {
            rows(p, b, weights);
            rows(dO, b, outGradient);
            rows(v, b, s.v);
            transpose(s.v, ROW, ROW, valuesT);
            rows(q, b, s.q);
            rows(k, b, s.k);
            blockProducts(weights, true, outGradient, dV, b);   // dV = Pᵀ·dO
            blockProduct(outGradient, valuesT, scoreGradient);   // dP = dO·Vᵀ
            if (LANES == ROW) {
                scoreGradientRows(scoreGradient, weights, scale);
            } else {
                scoreGradientHalfRows(scoreGradient, weights, scale);
            }
            blockProducts(scoreGradient, false, s.k, dQ, b);   // dQ = dS·K
            blockProducts(scoreGradient, true, s.q, dK, b);    // dK = dSᵀ·Q
        }
    }

    /** Block b of {@code from}, (16, 16), into {@code to} row after row. */
    private static void rows(Blocks from, int b, float[] to) {
        ByteBuffer buffer = from.buffer();
        int start = from.start(b);
        for (int r = 0; r < ROW; r++) {
            for (int h = 0; h < ROW; h += LANES) {
                FloatVector.fromByteBuffer(SPECIES, buffer, (start + r * from.rowStride() + h) * Float.BYTES, NATIVE).intoArray(to, r * ROW + h);
            }
        }
    }

    // Each step of the by-row passes in two versions: a row one vector (16 lanes) and two (8 lanes,
    // its low and high half), each doing what the general passes do at that width in their order:
    // with 16 lanes a row's softmax and dS in registers (weightsInRegisters,
    // scoreGradientsInRegisters); with 8 the maxima and sums from -inf and zero over the halves, dS's
    // row sum a chain of multiply-adds from zero (weights, scoreGradients). LANES is a constant, so
    // C2 keeps one branch.

    /** {@code out} = a · b, all (16, 16) row after row in arrays. */
    private static void blockProduct(float[] a, float[] b, float[] out) {
        if (LANES == ROW) {
            rowProducts(a, false, b, null, 0, out);
        } else {
            halfRowProducts(a, false, b, null, 0, out);
        }
    }

    /** Block b of {@code out} (16, 16) = op(a) · right (op(a)[i][j] = a[j·16 + i] if transposed). */
    private static void blockProducts(float[] a, boolean transposed, float[] right, Blocks out, int b) {
        if (LANES == ROW) {
            rowProducts(a, transposed, right, out, b, null);
        } else {
            halfRowProducts(a, transposed, right, out, b, null);
        }
    }

    /** P = softmax(scale·S + M) row by row, S in {@code weights}, P written over it and into block pStart of p: a row one vector. */
    private static void softmaxRows(float[] weights, Blocks mask, int maskStart, float scale, Blocks p, int pStart) {
        ByteBuffer pBuffer = p.buffer();
        for (int i = 0; i < ROW; i++) {
            FloatVector score = FloatVector.fromArray(SPECIES, weights, i * ROW).mul(scale);
            if (mask != null) {
                score = score.add(FloatVector.fromByteBuffer(SPECIES, mask.buffer(), (maskStart + i * mask.rowStride()) * Float.BYTES, NATIVE));
            }
            FloatVector e = exp(score.sub(score.reduceLanes(VectorOperators.MAX)));
            FloatVector weight = e.div(e.reduceLanes(VectorOperators.ADD));
            weight.intoArray(weights, i * ROW);
            weight.intoByteBuffer(pBuffer, (pStart + i * p.rowStride()) * Float.BYTES, NATIVE);
        }
    }

    /** {@link #softmaxRows} with a row two vectors. */
    private static void softmaxHalfRows(float[] weights, Blocks mask, int maskStart, float scale, Blocks p, int pStart) {
        ByteBuffer pBuffer = p.buffer();
        FloatVector lowest = FloatVector.broadcast(SPECIES, Float.NEGATIVE_INFINITY);
        for (int i = 0; i < ROW; i++) {
            FloatVector low = FloatVector.fromArray(SPECIES, weights, i * ROW).mul(scale);
            FloatVector high = FloatVector.fromArray(SPECIES, weights, i * ROW + HALF).mul(scale);
            if (mask != null) {
                int at = (maskStart + i * mask.rowStride()) * Float.BYTES;
                low = low.add(FloatVector.fromByteBuffer(SPECIES, mask.buffer(), at, NATIVE));
                high = high.add(FloatVector.fromByteBuffer(SPECIES, mask.buffer(), at + HALF * Float.BYTES, NATIVE));
            }
            float max = lowest.max(low).max(high).reduceLanes(VectorOperators.MAX);
            FloatVector eLow = exp(low.sub(max));
            FloatVector eHigh = exp(high.sub(max));
            float sum = FloatVector.zero(SPECIES).add(eLow).add(eHigh).reduceLanes(VectorOperators.ADD);
            FloatVector weightLow = eLow.div(sum);
            FloatVector weightHigh = eHigh.div(sum);
            weightLow.intoArray(weights, i * ROW);
            weightHigh.intoArray(weights, i * ROW + HALF);
            int to = (pStart + i * p.rowStride()) * Float.BYTES;
            weightLow.intoByteBuffer(pBuffer, to, NATIVE);
            weightHigh.intoByteBuffer(pBuffer, to + HALF * Float.BYTES, NATIVE);
        }
    }

    /** dS = scale·P∘(dP − rowsum(dP∘P)) row by row, dP in {@code scoreGradient}, dS written over it: a row one vector. */
    private static void scoreGradientRows(float[] scoreGradient, float[] weights, float scale) {
        for (int i = 0; i < ROW; i++) {
            FloatVector dp = FloatVector.fromArray(SPECIES, scoreGradient, i * ROW);
            FloatVector weight = FloatVector.fromArray(SPECIES, weights, i * ROW);
            float dot = dp.mul(weight).reduceLanes(VectorOperators.ADD);
            weight.mul(dp.sub(dot)).mul(scale).intoArray(scoreGradient, i * ROW);
        }
    }

    /** {@link #scoreGradientRows} with a row two vectors. */
    private static void scoreGradientHalfRows(float[] scoreGradient, float[] weights, float scale) {
        for (int i = 0; i < ROW; i++) {
            FloatVector dpLow = FloatVector.fromArray(SPECIES, scoreGradient, i * ROW);
            FloatVector dpHigh = FloatVector.fromArray(SPECIES, scoreGradient, i * ROW + HALF);
            FloatVector weightLow = FloatVector.fromArray(SPECIES, weights, i * ROW);
            FloatVector weightHigh = FloatVector.fromArray(SPECIES, weights, i * ROW + HALF);
            float dot = dpHigh.fma(weightHigh, dpLow.fma(weightLow, FloatVector.zero(SPECIES))).reduceLanes(VectorOperators.ADD);
            weightLow.mul(dpLow.sub(dot)).mul(scale).intoArray(scoreGradient, i * ROW);
            weightHigh.mul(dpHigh.sub(dot)).mul(scale).intoArray(scoreGradient, i * ROW + HALF);
        }
    }

    /**
     * Block b of {@code out} (16, 16) = op(a) · right, or into the array {@code to} row after row
     * when it is given (then out and b are not read); a and right (16, 16) row after row in arrays
     * (op(a)[i][j] = a[j·16 + i] if transposed): four rows at a time, each row's sum over j in
     * order from zero, as {@link #product} and {@link #matrix} add them. {@code matrix(a, b, out,
     * 16, 16, 16)} gives the same bits, but its tail masks and variable shape cost the by-row
     * passes 5–10%.
     */
    private static void rowProducts(float[] a, boolean transposed, float[] right, Blocks out, int b, float[] to) {
        int rowStep = transposed ? 1 : ROW;
        int columnStep = transposed ? ROW : 1;
        for (int i = 0; i < ROW; i += 4) {
            FloatVector acc0 = FloatVector.zero(SPECIES);
            FloatVector acc1 = acc0;
            FloatVector acc2 = acc0;
            FloatVector acc3 = acc0;
            int at = i * rowStep;
            for (int j = 0; j < ROW; j++, at += columnStep) {
                FloatVector row = FloatVector.fromArray(SPECIES, right, j * ROW);
                acc0 = row.fma(FloatVector.broadcast(SPECIES, a[at]), acc0);
                acc1 = row.fma(FloatVector.broadcast(SPECIES, a[at + rowStep]), acc1);
                acc2 = row.fma(FloatVector.broadcast(SPECIES, a[at + 2 * rowStep]), acc2);
                acc3 = row.fma(FloatVector.broadcast(SPECIES, a[at + 3 * rowStep]), acc3);
            }
            if (to != null) {
                acc0.intoArray(to, i * ROW);
                acc1.intoArray(to, (i + 1) * ROW);
                acc2.intoArray(to, (i + 2) * ROW);
                acc3.intoArray(to, (i + 3) * ROW);
                continue;
            }
            ByteBuffer buffer = out.buffer();
            int first = (out.start(b) + i * out.rowStride()) * Float.BYTES;
            int next = out.rowStride() * Float.BYTES;
            acc0.intoByteBuffer(buffer, first, NATIVE);
            acc1.intoByteBuffer(buffer, first + next, NATIVE);
            acc2.intoByteBuffer(buffer, first + 2 * next, NATIVE);
            acc3.intoByteBuffer(buffer, first + 3 * next, NATIVE);
        }
    }

    /**
     * {@link #rowProducts} half a row a vector: block b of {@code out} =
     * op(a) · right, or into the array {@code to} row after row when it is given (then out and b
     * are not read); four rows' two halves at a time, each sum over j in order from zero, as {@link
     * #product} and {@link #matrix} add them.
     */
    private static void halfRowProducts(float[] a, boolean transposed, float[] right, Blocks out, int b, float[] to) {
        int rowStep = transposed ? 1 : ROW;
        int columnStep = transposed ? ROW : 1;
        for (int i = 0; i < ROW; i += 4) {
            FloatVector low0 = FloatVector.zero(SPECIES);
            FloatVector low1 = low0;
            FloatVector low2 = low0;
            FloatVector low3 = low0;
            FloatVector high0 = low0;
            FloatVector high1 = low0;
            FloatVector high2 = low0;
            FloatVector high3 = low0;
            int at = i * rowStep;
            for (int j = 0; j < ROW; j++, at += columnStep) {
                FloatVector rowLow = FloatVector.fromArray(SPECIES, right, j * ROW);
                FloatVector rowHigh = FloatVector.fromArray(SPECIES, right, j * ROW + HALF);
                FloatVector a0 = FloatVector.broadcast(SPECIES, a[at]);
                FloatVector a1 = FloatVector.broadcast(SPECIES, a[at + rowStep]);
                FloatVector a2 = FloatVector.broadcast(SPECIES, a[at + 2 * rowStep]);
                FloatVector a3 = FloatVector.broadcast(SPECIES, a[at + 3 * rowStep]);
                low0 = rowLow.fma(a0, low0);
                high0 = rowHigh.fma(a0, high0);
                low1 = rowLow.fma(a1, low1);
                high1 = rowHigh.fma(a1, high1);
                low2 = rowLow.fma(a2, low2);
                high2 = rowHigh.fma(a2, high2);
                low3 = rowLow.fma(a3, low3);
                high3 = rowHigh.fma(a3, high3);
            }
            if (to != null) {
                low0.intoArray(to, i * ROW);
                high0.intoArray(to, i * ROW + HALF);
                low1.intoArray(to, (i + 1) * ROW);
                high1.intoArray(to, (i + 1) * ROW + HALF);
                low2.intoArray(to, (i + 2) * ROW);
                high2.intoArray(to, (i + 2) * ROW + HALF);
                low3.intoArray(to, (i + 3) * ROW);
                high3.intoArray(to, (i + 3) * ROW + HALF);
                continue;
            }
            ByteBuffer buffer = out.buffer();
            int first = (out.start(b) + i * out.rowStride()) * Float.BYTES;
            int next = out.rowStride() * Float.BYTES;
            int half = HALF * Float.BYTES;
            low0.intoByteBuffer(buffer, first, NATIVE);
            high0.intoByteBuffer(buffer, first + half, NATIVE);
            low1.intoByteBuffer(buffer, first + next, NATIVE);
            high1.intoByteBuffer(buffer, first + next + half, NATIVE);
            low2.intoByteBuffer(buffer, first + 2 * next, NATIVE);
            high2.intoByteBuffer(buffer, first + 2 * next + half, NATIVE);
            low3.intoByteBuffer(buffer, first + 3 * next, NATIVE);
            high3.intoByteBuffer(buffer, first + 3 * next + half, NATIVE);
        }
    }

    /** A block's P into s.p and P, from s.q and s.transposed (Kᵀ), when a row of scores is one vector: each row in registers. */
    private static void weightsInRegisters(Scratch s, Blocks mask, int maskStart, float scale, Blocks p, int pStart) {
        int t = s.t;
        int c = s.c;
        for (int i = 0; i < t; i++) {
            FloatVector score = FloatVector.zero(SPECIES);
            for (int cc = 0; cc < c; cc++) {
                score = FloatVector.fromArray(SPECIES, s.transposed, cc * t).fma(FloatVector.broadcast(SPECIES, s.q[i * c + cc]), score);
            }
            score = score.mul(scale);
            if (mask != null) {
                score = score.add(get(mask.buffer(), (maskStart + i * mask.rowStride()) * Float.BYTES, null));
            }
            FloatVector e = exp(score.sub(score.reduceLanes(VectorOperators.MAX)));
            FloatVector weight = e.div(e.reduceLanes(VectorOperators.ADD));
            weight.intoArray(s.p, i * t);
            VectorMath.store(weight, p, pStart + i * p.rowStride(), null);
        }
    }

    /** The same for rows of several vectors or part of one: the block's scores first, four rows at a time, then each row's softmax. */
    private static void weights(Scratch s, Blocks mask, int maskStart, float scale, Blocks p, int pStart) {
        int t = s.t;
        int lanes = SPECIES.length();
        VectorMask<Float> tail = SPECIES.indexInRange(t - t % lanes, t);
        matrix(s.q, s.transposed, s.p, t, s.c, t);
        for (int i = 0; i < t; i++) {
            FloatVector maxima = FloatVector.broadcast(SPECIES, Float.NEGATIVE_INFINITY);
            for (int j0 = 0; j0 < t; j0 += lanes) {
                VectorMask<Float> in = j0 + lanes <= t ? null : tail;
                FloatVector score = get(s.p, i * t + j0, in).mul(scale);
                if (mask != null) {
                    score = score.add(get(mask.buffer(), (maskStart + i * mask.rowStride() + j0) * Float.BYTES, in));
                }
                put(score, s.p, i * t + j0, in);
                maxima = in == null ? maxima.max(score) : maxima.lanewise(VectorOperators.MAX, score, in);
            }
            float max = maxima.reduceLanes(VectorOperators.MAX);
            FloatVector sums = FloatVector.zero(SPECIES);
            for (int j0 = 0; j0 < t; j0 += lanes) {
                VectorMask<Float> in = j0 + lanes <= t ? null : tail;
                FloatVector e = exp(get(s.p, i * t + j0, in).sub(max));
                put(e, s.p, i * t + j0, in);
                sums = in == null ? sums.add(e) : sums.add(e, in);
            }
            float sum = sums.reduceLanes(VectorOperators.ADD);
            for (int j0 = 0; j0 < t; j0 += lanes) {
                VectorMask<Float> in = j0 + lanes <= t ? null : tail;
                FloatVector weight = get(s.p, i * t + j0, in).div(sum);
                put(weight, s.p, i * t + j0, in);
                VectorMath.store(weight, p, pStart + i * p.rowStride() + j0, in);
            }
        }
    }

    /**
     * For each block, from dO: dV = Pᵀ·dO, dP = dO·Vᵀ, dS = scale·P∘(dP − rowsum(dP∘P)) (softmax's
     * derivative; the mask's is the identity), dQ = dS·K, dK = dSᵀ·Q. P is the forward's.
     */
    public static void backward(Blocks q, Blocks k, Blocks v, Blocks p, Blocks dO, float scale, Blocks dQ, Blocks dK, Blocks dV,
                                int blocks, Scratch s) {
        backward(q, k, v, p, dO, scale, dQ, dK, dV, blocks, s, true);
    }

    /** {@link #backward}, with the by-row passes where they apply only if {@code byRows} (tests compare the two). */
    public static void backward(Blocks q, Blocks k, Blocks v, Blocks p, Blocks dO, float scale, Blocks dQ, Blocks dK, Blocks dV,
                                int blocks, Scratch s, boolean byRows) {
        int t = s.t;
        int c = s.c;
        if (byRows && rowsAreVectors(t, c)) {
            backwardByRows(q, k, v, p, dO, scale, dQ, dK, dV, blocks, s);
            return;
        }
        for (int b = 0; b < blocks; b++) {
            VectorMath.load(p, b, t, t, s.p);
            VectorMath.load(dO, b, t, c, s.dO);
            VectorMath.load(v, b, t, c, s.v);
            transpose(s.v, t, c, s.transposed);
            product(s.p, true, dO, t, c, dV, b);
            if (t == SPECIES.length()) {
                scoreGradientsInRegisters(s, scale);
            } else {
                scoreGradients(s, scale);
            }
            product(s.dS, false, k, t, c, dQ, b);
            product(s.dS, true, q, t, c, dK, b);
        }
    }

    /** A block's dS into s.dS, from s.dO, s.transposed (Vᵀ) and s.p, when a row is one vector: each row in registers. */
    private static void scoreGradientsInRegisters(Scratch s, float scale) {
        int t = s.t;
        int c = s.c;
        for (int i = 0; i < t; i++) {
            FloatVector dp = FloatVector.zero(SPECIES);
            for (int cc = 0; cc < c; cc++) {
                dp = FloatVector.fromArray(SPECIES, s.transposed, cc * t).fma(FloatVector.broadcast(SPECIES, s.dO[i * c + cc]), dp);
            }
            FloatVector weights = FloatVector.fromArray(SPECIES, s.p, i * t);
            float dot = dp.mul(weights).reduceLanes(VectorOperators.ADD);
            weights.mul(dp.sub(dot)).mul(scale).intoArray(s.dS, i * t);
        }
    }

    /** The same for rows of several vectors or part of one: the block's dP first, four rows at a time, then dS row by row. */
    private static void scoreGradients(Scratch s, float scale) {
        int t = s.t;
        int lanes = SPECIES.length();
        VectorMask<Float> tail = SPECIES.indexInRange(t - t % lanes, t);
        matrix(s.dO, s.transposed, s.dS, t, s.c, t);
        for (int i = 0; i < t; i++) {
            FloatVector dots = FloatVector.zero(SPECIES);   // masked-off lanes load as zeros
            for (int j0 = 0; j0 < t; j0 += lanes) {
                VectorMask<Float> in = j0 + lanes <= t ? null : tail;
                dots = get(s.dS, i * t + j0, in).fma(get(s.p, i * t + j0, in), dots);
            }
            float dot = dots.reduceLanes(VectorOperators.ADD);   // rowsum(dP∘P)
            for (int j0 = 0; j0 < t; j0 += lanes) {
                VectorMask<Float> in = j0 + lanes <= t ? null : tail;
                put(get(s.p, i * t + j0, in).mul(get(s.dS, i * t + j0, in).sub(dot)).mul(scale), s.dS, i * t + j0, in);
            }
        }
    }

    // exp for x ≤ 0 (a softmax's shifted scores) from IEEE operations alone, so that it gives the same
    // bits interpreted and compiled. VectorOperators.EXP does not: compiled by C2 it is an SVML call,
    // interpreted it is Math.exp per lane, the two differ in the last bit, and a step's result would
    // depend on when the JIT got to it (a retried or resumed run would not repeat the undisturbed one,
    // deploy/standalone/failures.sh). x = n·ln 2 + r with n = round(x·log2 e) (adding 1.5·2^23 rounds
    // it and leaves n in the low bits), e^r by Cephes' expf polynomial (~1 ulp), 2^n from n's bits;
    // x ≤ −88 gives n = −127, whose bits are those of 0: masked keys weigh exactly 0, as in libnd4j.
    private static final float ROUNDING = 12582912f;   // 1.5·2^23

    static FloatVector exp(FloatVector x) {
        FloatVector clamped = x.max(-88f);
        FloatVector shifted = clamped.fma(1.44269504088896341f, ROUNDING);
        FloatVector n = shifted.sub(ROUNDING);
        FloatVector r = n.fma(FloatVector.broadcast(SPECIES, -0.693359375f), clamped);
        r = n.fma(FloatVector.broadcast(SPECIES, 2.12194440e-4f), r);       // x − n·ln 2, ln 2 in two parts
        FloatVector polynomial = FloatVector.broadcast(SPECIES, 1.9875691500e-4f);
        polynomial = polynomial.fma(r, FloatVector.broadcast(SPECIES, 1.3981999507e-3f));
        polynomial = polynomial.fma(r, FloatVector.broadcast(SPECIES, 8.3334519073e-3f));
        polynomial = polynomial.fma(r, FloatVector.broadcast(SPECIES, 4.1665795894e-2f));
        polynomial = polynomial.fma(r, FloatVector.broadcast(SPECIES, 1.6666665459e-1f));
        polynomial = polynomial.fma(r, FloatVector.broadcast(SPECIES, 5.0000001201e-1f));
        FloatVector er = polynomial.mul(r.mul(r)).add(r).add(1.0f);
        IntVector bits = (IntVector) shifted.reinterpretAsInts();
        return er.mul(bits.sub(Float.floatToRawIntBits(ROUNDING) - 127).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats());
    }

    /** {@code out} (m, n) = a (m, k) · b (k, n), all row after row in arrays: four rows at a time. */
    private static void matrix(float[] a, float[] b, float[] out, int m, int k, int n) {
        int lanes = SPECIES.length();
        VectorMask<Float> tail = SPECIES.indexInRange(n - n % lanes, n);
        for (int j0 = 0; j0 < n; j0 += lanes) {
            VectorMask<Float> in = j0 + lanes <= n ? null : tail;
            int i = 0;
            for (; i + 4 <= m; i += 4) {
                FloatVector acc0 = FloatVector.zero(SPECIES);
                FloatVector acc1 = acc0;
                FloatVector acc2 = acc0;
                FloatVector acc3 = acc0;
                for (int kk = 0; kk < k; kk++) {
                    FloatVector row = get(b, kk * n + j0, in);
                    acc0 = row.fma(FloatVector.broadcast(SPECIES, a[i * k + kk]), acc0);
                    acc1 = row.fma(FloatVector.broadcast(SPECIES, a[(i + 1) * k + kk]), acc1);
                    acc2 = row.fma(FloatVector.broadcast(SPECIES, a[(i + 2) * k + kk]), acc2);
                    acc3 = row.fma(FloatVector.broadcast(SPECIES, a[(i + 3) * k + kk]), acc3);
                }
                put(acc0, out, i * n + j0, in);
                put(acc1, out, (i + 1) * n + j0, in);
                put(acc2, out, (i + 2) * n + j0, in);
                put(acc3, out, (i + 3) * n + j0, in);
            }
            for (; i < m; i++) {
                FloatVector acc = FloatVector.zero(SPECIES);
                for (int kk = 0; kk < k; kk++) {
                    acc = get(b, kk * n + j0, in).fma(FloatVector.broadcast(SPECIES, a[i * k + kk]), acc);
                }
                put(acc, out, i * n + j0, in);
            }
        }
    }

    /**
     * Block b of {@code out} (T, C) = op(a) · block b of {@code right} (T, C), a (T, T) row after row
     * (op(a)[i][j] = a[j·T + i] if transposed).
     */
    private static void product(float[] a, boolean transposed, Blocks right, int t, int c, Blocks out, int b) {
        int lanes = SPECIES.length();
        VectorMask<Float> tail = SPECIES.indexInRange(c - c % lanes, c);
        int start = out.start(b);
        int from = right.start(b);
        ByteBuffer rows = right.buffer();
        int rowStep = transposed ? 1 : t;      // op(a)[i][j] = a[i·rowStep + j·columnStep]
        int columnStep = transposed ? t : 1;
        for (int c0 = 0; c0 < c; c0 += lanes) {
            VectorMask<Float> in = c0 + lanes <= c ? null : tail;
            int i = 0;
            // Four rows at a time: four independent chains of fused multiply-adds.
            for (; i + 4 <= t; i += 4) {
                FloatVector acc0 = FloatVector.zero(SPECIES);
                FloatVector acc1 = acc0;
                FloatVector acc2 = acc0;
                FloatVector acc3 = acc0;
                int at = i * rowStep;
                for (int j = 0; j < t; j++, at += columnStep) {
                    FloatVector row = get(rows, (from + j * right.rowStride() + c0) * Float.BYTES, in);
                    acc0 = row.fma(FloatVector.broadcast(SPECIES, a[at]), acc0);
                    acc1 = row.fma(FloatVector.broadcast(SPECIES, a[at + rowStep]), acc1);
                    acc2 = row.fma(FloatVector.broadcast(SPECIES, a[at + 2 * rowStep]), acc2);
                    acc3 = row.fma(FloatVector.broadcast(SPECIES, a[at + 3 * rowStep]), acc3);
                }
                VectorMath.store(acc0, out, start + i * out.rowStride() + c0, in);
                VectorMath.store(acc1, out, start + (i + 1) * out.rowStride() + c0, in);
                VectorMath.store(acc2, out, start + (i + 2) * out.rowStride() + c0, in);
                VectorMath.store(acc3, out, start + (i + 3) * out.rowStride() + c0, in);
            }
            for (; i < t; i++) {
                FloatVector acc = FloatVector.zero(SPECIES);
                for (int j = 0; j < t; j++) {
                    acc = get(rows, (from + j * right.rowStride() + c0) * Float.BYTES, in)
                            .fma(FloatVector.broadcast(SPECIES, a[i * rowStep + j * columnStep]), acc);
                }
                VectorMath.store(acc, out, start + i * out.rowStride() + c0, in);
            }
        }
    }

    /** {@code to} (columns, rows) = the transpose of {@code from} (rows, columns). */
    private static void transpose(float[] from, int rows, int columns, float[] to) {
        for (int r = 0; r < rows; r++) {
            for (int j = 0; j < columns; j++) {
                to[j * rows + r] = from[r * columns + j];
            }
        }
    }
}
