package org.langid.model.train.kernels;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The arithmetic of {@link VectorKernels} on the JDK's vector API: many small matrix products at
 * once, {@code C[p] = op(A[p]) · op(B[p])} for every p of a batch, row-major blocks packed one
 * after another (the attention's (B, H, T, T) and (B, H, T, d) products).
 * Loaded only when the {@code jdk.incubator.vector} module is present.
 */
public final class VectorMath {

    private static final VectorSpecies<Float> SPECIES = FloatVector.SPECIES_PREFERRED;
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    private VectorMath() {
    }

    /** Lanes of the widest float vector this CPU runs (16 with AVX-512, 8 with AVX2). */
    static int lanes() {
        return SPECIES.length();
    }

    /**
     * Where the row-major blocks of a batched operand lie in a native float buffer: block p starts
     * {@code (p / heads)·outer + (p % heads)·head} floats in, its rows {@code rowStride} floats apart.
     * A dense (…, R, C) array is {@code heads} 1, {@code outer} R·C, {@code rowStride} C; a
     * (B, T, H, C) array read as (B, H, T, C) is {@code heads} H, {@code outer} T·H·C, {@code head}
     * C, {@code rowStride} H·C.
     */
    public record Blocks(ByteBuffer buffer, int heads, int outer, int head, int rowStride) {

        public static Blocks dense(ByteBuffer buffer, int rows, int columns) {
            return new Blocks(buffer, 1, rows * columns, 0, columns);
        }

        int start(int block) {
            return (block / heads) * outer + (block % heads) * head;
        }
    }

    /**
     * For each of {@code batch} blocks: C (m, n) = op(A) (m, k) · op(B) (k, n), where A's blocks are
     * (k, m) if {@code transposeA} and (m, k) otherwise, B's (n, k) if {@code transposeB} and (k, n)
     * otherwise. Reads and writes the native buffers directly; {@code scratch}: three arrays of at
     * least max(m, k)·max(k, n) floats.
     */
    static void multiply(Blocks a, boolean transposeA, Blocks b, boolean transposeB, Blocks c,
                         int batch, int m, int k, int n, float[][] scratch) {
        int lanes = SPECIES.length();
        float[] aBlock = scratch[0];
        float[] bBlock = scratch[1];
        float[] bRows = scratch[2];
        int aColumns = transposeA ? m : k;
        for (int p = 0; p < batch; p++) {
            load(a, p, transposeA ? k : m, aColumns, aBlock);
            // op(B) as k rows of n, so that each step of the sum adds one scaled row.
            if (transposeB) {
                load(b, p, n, k, bBlock);
                for (int j = 0; j < n; j++) {
                    for (int kk = 0; kk < k; kk++) {
                        bRows[kk * n + j] = bBlock[j * k + kk];
                    }
                }
            } else {
                load(b, p, k, n, bRows);
            }
            int cBlock = c.start(p);
            for (int j0 = 0; j0 < n; j0 += lanes) {
                VectorMask<Float> in = j0 + lanes <= n ? null : SPECIES.indexInRange(j0, n);
                int i = 0;
                // Four rows at a time: four independent chains of fused multiply-adds.
                for (; i + 4 <= m; i += 4) {
                    FloatVector c0 = FloatVector.zero(SPECIES);
                    FloatVector c1 = c0;
                    FloatVector c2 = c0;
                    FloatVector c3 = c0;
                    for (int kk = 0; kk < k; kk++) {
                        FloatVector row = get(bRows, kk * n + j0, in);
                        c0 = row.fma(FloatVector.broadcast(SPECIES, aBlock[index(transposeA, i, kk, aColumns)]), c0);
                        c1 = row.fma(FloatVector.broadcast(SPECIES, aBlock[index(transposeA, i + 1, kk, aColumns)]), c1);
                        c2 = row.fma(FloatVector.broadcast(SPECIES, aBlock[index(transposeA, i + 2, kk, aColumns)]), c2);
                        c3 = row.fma(FloatVector.broadcast(SPECIES, aBlock[index(transposeA, i + 3, kk, aColumns)]), c3);
                    }
                    store(c0, c, cBlock + i * c.rowStride() + j0, in);
                    store(c1, c, cBlock + (i + 1) * c.rowStride() + j0, in);
                    store(c2, c, cBlock + (i + 2) * c.rowStride() + j0, in);
                    store(c3, c, cBlock + (i + 3) * c.rowStride() + j0, in);
                }
                for (; i < m; i++) {
                    FloatVector c0 = FloatVector.zero(SPECIES);
                    for (int kk = 0; kk < k; kk++) {
                        c0 = get(bRows, kk * n + j0, in)
                                .fma(FloatVector.broadcast(SPECIES, aBlock[index(transposeA, i, kk, aColumns)]), c0);
                    }
                    store(c0, c, cBlock + i * c.rowStride() + j0, in);
                }
            }
        }
    }

    /** Block p of {@code from}, (rows, columns), into {@code to} row after row. */
    static void load(Blocks from, int p, int rows, int columns, float[] to) {
        int lanes = SPECIES.length();
        int start = from.start(p);
        VectorMask<Float> tail = SPECIES.indexInRange(columns - columns % lanes, columns);
        for (int r = 0; r < rows; r++) {
            int source = (start + r * from.rowStride()) * Float.BYTES;
            for (int j = 0; j < columns; j += lanes) {
                VectorMask<Float> in = j + lanes <= columns ? null : tail;
                put(get(from.buffer(), source + j * Float.BYTES, in), to, r * columns + j, in);
            }
        }
    }

    static void store(FloatVector values, Blocks to, int offset, VectorMask<Float> in) {
        put(values, to.buffer(), offset * Float.BYTES, in);
    }

    /**
     * Row {@code r} of {@code to} (rows of {@code rowLength} floats, one after another) is a copy of
     * the {@code rowLength} floats at float offset {@code fromRows[r]} of {@code from}. Native byte order.
     */
    static void copyRows(ByteBuffer from, int[] fromRows, int rowLength, ByteBuffer to) {
        int lanes = SPECIES.length();
        VectorMask<Float> tail = SPECIES.indexInRange(rowLength - rowLength % lanes, rowLength);
        for (int r = 0; r < fromRows.length; r++) {
            int source = fromRows[r] * Float.BYTES;
            int target = r * rowLength * Float.BYTES;
            for (int j = 0; j < rowLength; j += lanes) {
                VectorMask<Float> in = j + lanes <= rowLength ? null : tail;
                put(get(from, source + j * Float.BYTES, in), to, target + j * Float.BYTES, in);
            }
        }
    }

    /**
     * Layer norm of {@code rows} rows of d floats: Y = (X − mean)·rsqrt(var + ε)·gain + bias, the
     * mean and the (biased) variance over each row's d features, in one pass over the rows.
     */
    public static void layerNorm(ByteBuffer x, ByteBuffer gain, ByteBuffer bias, float epsilon, ByteBuffer y, int rows, int d) {
        int lanes = SPECIES.length();
        VectorMask<Float> tail = SPECIES.indexInRange(d - d % lanes, d);
        float[] row = new float[d];
        float[] normed = new float[d];
        float[] g = copy(gain, d);
        float[] b = copy(bias, d);
        for (int r = 0; r < rows; r++) {
            int at = r * d * Float.BYTES;
            normalise(x, at, row, normed, d, epsilon, tail);
            for (int j = 0; j < d; j += lanes) {
                VectorMask<Float> in = j + lanes <= d ? null : tail;
                put(get(normed, j, in).mul(get(g, j, in)).add(get(b, j, in)), y, at + j * Float.BYTES, in);
            }
        }
    }

    /**
     * The gradients of {@link #layerNorm} from dY: dX (plus {@code other}, the gradient X gets from
     * elsewhere, if not null), dGain and dBias, summed over the rows. With X̂ = (X − mean)·s,
     * s = rsqrt(var + ε) and G = dY·gain: dX = s·(G − mean(G) − X̂·mean(G·X̂)), dGain = Σ dY·X̂,
     * dBias = Σ dY.
     */
    public static void layerNormGradient(ByteBuffer x, ByteBuffer dy, ByteBuffer gain, float epsilon, ByteBuffer other,
                                  ByteBuffer dx, ByteBuffer dGain, ByteBuffer dBias, int rows, int d) {
        int lanes = SPECIES.length();
        VectorMask<Float> tail = SPECIES.indexInRange(d - d % lanes, d);
        float[] row = new float[d];
        float[] normed = new float[d];
        float[] grad = new float[d];
        float[] g = copy(gain, d);
        float[] gainSum = new float[d];
        float[] biasSum = new float[d];
        for (int r = 0; r < rows; r++) {
            int at = r * d * Float.BYTES;
            FloatVector s = FloatVector.broadcast(SPECIES, normalise(x, at, row, normed, d, epsilon, tail));
            FloatVector sumG = FloatVector.zero(SPECIES);
            FloatVector sumGX = FloatVector.zero(SPECIES);
            for (int j = 0; j < d; j += lanes) {
                VectorMask<Float> in = j + lanes <= d ? null : tail;
                FloatVector xHat = get(normed, j, in);
                FloatVector upstream = get(dy, at + j * Float.BYTES, in);
                FloatVector gj = upstream.mul(get(g, j, in));
                put(gj, grad, j, in);
                sumG = sumG.add(gj);          // lanes past d hold zeros (masked loads)
                sumGX = xHat.fma(gj, sumGX);
                put(xHat.fma(upstream, get(gainSum, j, in)), gainSum, j, in);
                put(upstream.add(get(biasSum, j, in)), biasSum, j, in);
            }
            FloatVector meanG = FloatVector.broadcast(SPECIES, sumG.reduceLanes(VectorOperators.ADD) / d);
            FloatVector meanGX = FloatVector.broadcast(SPECIES, sumGX.reduceLanes(VectorOperators.ADD) / d);
            for (int j = 0; j < d; j += lanes) {
                VectorMask<Float> in = j + lanes <= d ? null : tail;
                FloatVector v = get(grad, j, in).sub(meanG).sub(get(normed, j, in).mul(meanGX)).mul(s);
                if (other != null) {
                    v = v.add(get(other, at + j * Float.BYTES, in));
                }
                put(v, dx, at + j * Float.BYTES, in);
            }
        }
        for (int j = 0; j < d; j++) {
            dGain.order(NATIVE).putFloat(j * Float.BYTES, gainSum[j]);
            dBias.order(NATIVE).putFloat(j * Float.BYTES, biasSum[j]);
        }
    }

    /** Y = X·(X > 0 ? 1 : 0) over n floats: the product with the mask the composed ReLU builds, bit for bit (−0 and NaN included). */
    public static void relu(ByteBuffer x, ByteBuffer y, int n) {
        int lanes = SPECIES.length();
        FloatVector zero = FloatVector.zero(SPECIES);
        for (int i = 0; i < n; i += lanes) {
            VectorMask<Float> in = i + lanes <= n ? null : SPECIES.indexInRange(i, n);
            FloatVector v = get(x, i * Float.BYTES, in);
            put(v.mul(zero.blend(1f, v.compare(VectorOperators.GT, 0f))), y, i * Float.BYTES, in);
        }
    }

    /** dX = dY·(X > 0 ? 1 : 0) over n floats: {@code multiply_bp}'s gradient of X by the mask, bit for bit. */
    public static void reluGradient(ByteBuffer x, ByteBuffer dy, ByteBuffer dx, int n) {
        int lanes = SPECIES.length();
        FloatVector zero = FloatVector.zero(SPECIES);
        for (int i = 0; i < n; i += lanes) {
            VectorMask<Float> in = i + lanes <= n ? null : SPECIES.indexInRange(i, n);
            int at = i * Float.BYTES;
            put(get(dy, at, in).mul(zero.blend(1f, get(x, at, in).compare(VectorOperators.GT, 0f))), dx, at, in);
        }
    }

    private static float[] copy(ByteBuffer vector, int d) {
        float[] values = new float[d];
        vector.order(NATIVE).asFloatBuffer().get(0, values);
        return values;
    }

    // Loads and stores of whole vectors (in == null) or of the lanes of in: masks only where needed,
    // masked access being slower in JDK 17. Masked-off lanes load as zeros.
    static FloatVector get(float[] from, int at, VectorMask<Float> in) {
        return in == null ? FloatVector.fromArray(SPECIES, from, at) : FloatVector.fromArray(SPECIES, from, at, in);
    }

    static FloatVector get(ByteBuffer from, int at, VectorMask<Float> in) {
        return in == null ? FloatVector.fromByteBuffer(SPECIES, from, at, NATIVE) : FloatVector.fromByteBuffer(SPECIES, from, at, NATIVE, in);
    }

    static void put(FloatVector values, float[] to, int at, VectorMask<Float> in) {
        if (in == null) {
            values.intoArray(to, at);
        } else {
            values.intoArray(to, at, in);
        }
    }

    static void put(FloatVector values, ByteBuffer to, int at, VectorMask<Float> in) {
        if (in == null) {
            values.intoByteBuffer(to, at, NATIVE);
        } else {
            values.intoByteBuffer(to, at, NATIVE, in);
        }
    }

    /**
     * The row of d floats at byte {@code at} of {@code x} into {@code row}, and its normalised values
     * (X − mean)·s into {@code normed}; returns s = rsqrt(var + ε).
     */
    private static float normalise(ByteBuffer x, int at, float[] row, float[] normed, int d, float epsilon, VectorMask<Float> tail) {
        int lanes = SPECIES.length();
        float mean = loadRow(x, at, row, d, tail) / d;
        float inverseStd = inverseStd(row, mean, d, epsilon, tail);
        FloatVector m = FloatVector.broadcast(SPECIES, mean);
        FloatVector s = FloatVector.broadcast(SPECIES, inverseStd);
        for (int j = 0; j < d; j += lanes) {
            VectorMask<Float> in = j + lanes <= d ? null : tail;
            put(get(row, j, in).sub(m).mul(s), normed, j, in);
        }
        return inverseStd;
    }

    /** Copies the row of d floats at byte {@code at} into {@code row}; returns its sum. */
    private static float loadRow(ByteBuffer from, int at, float[] row, int d, VectorMask<Float> tail) {
        int lanes = SPECIES.length();
        FloatVector sum = FloatVector.zero(SPECIES);
        for (int j = 0; j < d; j += lanes) {
            VectorMask<Float> in = j + lanes <= d ? null : tail;
            FloatVector v = get(from, at + j * Float.BYTES, in);
            put(v, row, j, in);
            sum = sum.add(v);
        }
        return sum.reduceLanes(VectorOperators.ADD);
    }

    /** rsqrt of the row's mean squared deviation from {@code mean}, plus ε. */
    private static float inverseStd(float[] row, float mean, int d, float epsilon, VectorMask<Float> tail) {
        int lanes = SPECIES.length();
        FloatVector m = FloatVector.broadcast(SPECIES, mean);
        FloatVector squares = FloatVector.zero(SPECIES);
        for (int j = 0; j < d; j += lanes) {
            VectorMask<Float> in = j + lanes <= d ? null : tail;
            FloatVector centred = get(row, j, in).sub(m);
            squares = in == null ? centred.fma(centred, squares) : squares.add(centred.mul(centred), in);
        }
        return (float) (1.0 / Math.sqrt(squares.reduceLanes(VectorOperators.ADD) / d + epsilon));
    }

    /** Where op(A)[i, kk] is in a block of A stored row after row, {@code columns} floats a row. */
    private static int index(boolean transposed, int i, int kk, int columns) {
        return transposed ? kk * columns + i : i * columns + kk;
    }
}
