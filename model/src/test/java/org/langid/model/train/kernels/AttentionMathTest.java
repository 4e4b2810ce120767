package org.langid.model.train.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.langid.model.train.kernels.VectorKernels.Operand;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The fused attention core against softmax(scale·Q·Kᵀ + M)·V and its derivative written out in
 * double precision, and by central differences; AttentionFusionTest finds the cores in recorded
 * steps, StepReplayTest checks the fused steps against SameDiff's separate calls.
 */
class AttentionMathTest {

    private static final int BATCH = 3;
    private static final int HEADS = 2;

    /**
     * (T, C): the default model's 16 × 16 (a row is one AVX-512 vector), the pipeline's 16 × 32, and
     * odd ones (partial vectors, an odd number of rows); Q, K, V, dO and the outputs either as
     * (B, H, T, C) blocks or read and written in the heads' (B, T, H, C) layout.
     */
    @ParameterizedTest
    @CsvSource({"16, 16, true, false", "16, 16, false, true", "16, 32, true, true", "6, 4, true, true", "19, 5, false, false",
            "7, 20, true, false"})
    void forwardAndGradientsMatchTheirDefinition(int t, int c, boolean masked, boolean headsSecond) {
        Nd4j.getRandom().setSeed(t * 100L + c);
        float scale = (float) (1 / Math.sqrt(c));
        Core core = new Core(t, c, masked, headsSecond);
        core.run(scale);
        for (int b = 0; b < BATCH; b++) {
            for (int h = 0; h < HEADS; h++) {
                Reference expected = new Reference(core, b, h, scale);
                for (int i = 0; i < t; i++) {
                    for (int j = 0; j < t; j++) {
                        assertNear(expected.p[i][j], core.p.getDouble(b, h, i, j), "P", b, h, i, j);
                    }
                    for (int cc = 0; cc < c; cc++) {
                        assertNear(expected.o[i][cc], core.get(core.o, b, h, i, cc), "O", b, h, i, cc);
                        assertNear(expected.dQ[i][cc], core.get(core.dQ, b, h, i, cc), "dQ", b, h, i, cc);
                        assertNear(expected.dK[i][cc], core.get(core.dK, b, h, i, cc), "dK", b, h, i, cc);
                        assertNear(expected.dV[i][cc], core.get(core.dV, b, h, i, cc), "dV", b, h, i, cc);
                    }
                }
            }
        }
    }

    /**
     * The by-row passes of the default model's (16, 16) blocks (AVX-512: a row a vector; AVX2: two)
     * give the general passes' bits on this machine: a run's result does not depend on which of them
     * a step took. Random scores large enough that a row's maximum matters, with and without the
     * padding mask, in both layouts.
     */
    @ParameterizedTest
    @CsvSource({"true, false", "false, true", "true, true"})
    void theByRowPassesGiveTheGeneralPassesBits(boolean masked, boolean headsSecond) {
        assertEquals(VECTOR_LANES == 8 || VECTOR_LANES == 16, AttentionMath.rowsAreVectors(16, 16),
                "with " + VECTOR_LANES + " float lanes, whether the (16, 16) blocks take the by-row passes");
        Nd4j.getRandom().setSeed(1616);
        Core core = new Core(16, 16, masked, headsSecond);
        core.q.muli(3);
        core.run(0.25f, false);
        List<INDArray> general = core.results();
        core.run(0.25f, true);
        List<INDArray> byRows = core.results();
        String[] names = {"P", "O", "dQ", "dK", "dV"};
        for (int r = 0; r < names.length; r++) {
            float[] expected = general.get(r).data().asFloat();
            float[] actual = byRows.get(r).data().asFloat();
            for (int i = 0; i < expected.length; i++) {
                assertEquals(Float.floatToRawIntBits(expected[i]), Float.floatToRawIntBits(actual[i]),
                        names[r] + " at " + i + ": " + actual[i] + " by rows, " + expected[i] + " by the general passes");
            }
        }
    }

    private static final int VECTOR_LANES = jdk.incubator.vector.FloatVector.SPECIES_PREFERRED.length();

    /**
     * The softmax's exp: within 3e-7 of Math.exp relative (x ≤ 0), exactly 0 from −88 down, where
     * masked keys land, and the same bits as its formula written with scalar IEEE operations, on
     * the first calls (interpreted) and the last (compiled): a run repeats itself bit for bit
     * whenever the JIT compiles it.
     */
    @Test
    void expIsAccurateAndTheSameCompiledOrNot() {
        int lanes = VectorMath.lanes();
        float[] x = new float[lanes];
        float[] e = new float[lanes];
        java.util.Random random = new java.util.Random(5);
        for (int round = 0; round < 20_000; round++) {
            for (int i = 0; i < lanes; i++) {
                x[i] = round == 0 ? new float[] {0f, -88f, -1e9f, -87.3f}[i % 4] : (float) (-90 * Math.pow(random.nextDouble(), 3));
            }
            AttentionMath.exp(jdk.incubator.vector.FloatVector.fromArray(jdk.incubator.vector.FloatVector.SPECIES_PREFERRED, x, 0)).intoArray(e, 0);
            for (int i = 0; i < lanes; i++) {
                assertEquals(Float.floatToIntBits(scalarExp(x[i])), Float.floatToIntBits(e[i]), "exp(" + x[i] + ") in round " + round);
                double exact = Math.exp(x[i]);
                if (x[i] <= -88f) {
                    assertEquals(0f, e[i], "exp(" + x[i] + ") is 0");
                } else if (x[i] < -87.3f) {
                    assertTrue(e[i] <= 2e-38, "exp(" + x[i] + ") = " + e[i] + ", about 0");
                } else {
                    assertTrue(Math.abs(e[i] - exact) <= 3e-7 * exact, "exp(" + x[i] + ") = " + e[i] + ", not " + exact);
                }
            }
        }
    }

    /** AttentionMath.exp written lane by lane. */
    private static float scalarExp(float x) {
        float clamped = Math.max(x, -88f);
        float shifted = Math.fma(clamped, 1.44269504088896341f, 12582912f);
        float n = shifted - 12582912f;
        float r = Math.fma(n, -0.693359375f, clamped);
        r = Math.fma(n, 2.12194440e-4f, r);
        float p = 1.9875691500e-4f;
        p = Math.fma(p, r, 1.3981999507e-3f);
        p = Math.fma(p, r, 8.3334519073e-3f);
        p = Math.fma(p, r, 4.1665795894e-2f);
        p = Math.fma(p, r, 1.6666665459e-1f);
        p = Math.fma(p, r, 5.0000001201e-1f);
        float er = p * (r * r) + r + 1f;
        return er * Float.intBitsToFloat((Float.floatToRawIntBits(shifted) - (Float.floatToRawIntBits(12582912f) - 127)) << 23);
    }

    /** The gradients are the derivative of Σ dO∘O: central differences in double precision, with the padding mask. */
    @ParameterizedTest
    @CsvSource({"6, 4", "16, 16"})
    void gradientsAreTheDerivative(int t, int c) {
        Nd4j.getRandom().setSeed(7L * t + c);
        float scale = (float) (1 / Math.sqrt(c));
        Core core = new Core(t, c, true, true);
        core.run(scale);
        double step = 1e-3;
        for (int b = 0; b < BATCH; b++) {
            for (int h = 0; h < HEADS; h++) {
                for (int i = 0; i < t; i += 3) {
                    for (int cc = 0; cc < c; cc += 2) {
                        for (int which = 0; which < 3; which++) {
                            INDArray[] operands = {core.q, core.k, core.v};
                            INDArray[] gradients = {core.dQ, core.dK, core.dV};
                            double up = new Reference(core, b, h, scale, which, i, cc, step).loss();
                            double down = new Reference(core, b, h, scale, which, i, cc, -step).loss();
                            double numeric = (up - down) / (2 * step);
                            double analytic = core.get(gradients[which], b, h, i, cc);
                            assertTrue(Math.abs(numeric - analytic) <= 2e-3 * Math.max(1, Math.abs(numeric)),
                                    "d" + "QKV".charAt(which) + "[" + b + ", " + h + ", " + i + ", " + cc + "]: " + analytic
                                            + ", central difference " + numeric + " (operand " + operands[which].shapeInfoToString() + ")");
                        }
                    }
                }
            }
        }
    }

    /** One attention core's arrays, run through AttentionMath. */
    private static final class Core {
        final int t;
        final int c;
        final boolean headsSecond;
        final INDArray q;
        final INDArray k;
        final INDArray v;
        final INDArray dO;
        final INDArray mask;
        final INDArray p;
        final INDArray o;
        final INDArray dQ;
        final INDArray dK;
        final INDArray dV;
        final INDArray blockShape;

        Core(int t, int c, boolean masked, boolean headsSecond) {
            this.t = t;
            this.c = c;
            this.headsSecond = headsSecond;
            long[] shape = headsSecond ? new long[] {BATCH, t, HEADS, c} : new long[] {BATCH, HEADS, t, c};
            q = Nd4j.randn(DataType.FLOAT, shape);
            k = Nd4j.randn(DataType.FLOAT, shape);
            v = Nd4j.randn(DataType.FLOAT, shape);
            dO = Nd4j.randn(DataType.FLOAT, shape);
            o = Nd4j.create(DataType.FLOAT, shape);
            dQ = Nd4j.create(DataType.FLOAT, shape);
            dK = Nd4j.create(DataType.FLOAT, shape);
            dV = Nd4j.create(DataType.FLOAT, shape);
            blockShape = Nd4j.create(DataType.FLOAT, BATCH, HEADS, t, c);
            p = Nd4j.create(DataType.FLOAT, BATCH, HEADS, t, t);
            if (masked) {
                // The padding mask: the last keys of each window masked, as Attention.keyMask writes it.
                mask = Nd4j.zeros(DataType.FLOAT, BATCH, HEADS, t, t);
                for (int b = 0; b < BATCH; b++) {
                    for (int j = t - b; j < t; j++) {
                        for (int h = 0; h < HEADS; h++) {
                            for (int i = 0; i < t; i++) {
                                mask.putScalar(new long[] {b, h, i, j}, -1e9);
                            }
                        }
                    }
                }
            } else {
                mask = null;
            }
        }

        VectorMath.Blocks blocks(INDArray array) {
            return (headsSecond ? Operand.headsSecond(array, blockShape) : Operand.dense(array)).blocks();
        }

        void run(float scale) {
            run(scale, true);
        }

        /** Forward and backward, by the by-row passes where they apply if {@code byRows}, else by the general ones. */
        void run(float scale, boolean byRows) {
            AttentionMath.Scratch scratch = new AttentionMath.Scratch(t, c);
            AttentionMath.forward(blocks(q), blocks(k), blocks(v), mask == null ? null : Operand.dense(mask).blocks(), scale,
                    Operand.dense(p).blocks(), blocks(o), BATCH * HEADS, scratch, byRows);
            AttentionMath.backward(blocks(q), blocks(k), blocks(v), Operand.dense(p).blocks(), blocks(dO), scale,
                    blocks(dQ), blocks(dK), blocks(dV), BATCH * HEADS, scratch, byRows);
        }

        /** P, O, dQ, dK and dV as they stand, copied. */
        List<INDArray> results() {
            return List.of(p.dup(), o.dup(), dQ.dup(), dK.dup(), dV.dup());
        }

        double get(INDArray array, int b, int h, int i, int cc) {
            return headsSecond ? array.getDouble(b, i, h, cc) : array.getDouble(b, h, i, cc);
        }
    }

    /** One block's attention in double precision, optionally with one entry of Q, K or V moved by {@code step}. */
    private static final class Reference {
        final int t;
        final int c;
        final double[][] q;
        final double[][] k;
        final double[][] v;
        final double[][] dO;
        final double[][] p;
        final double[][] o;
        final double[][] dQ;
        final double[][] dK;
        final double[][] dV;

        Reference(Core core, int b, int h, double scale) {
            this(core, b, h, scale, -1, 0, 0, 0);
        }

        Reference(Core core, int b, int h, double scale, int which, int row, int column, double step) {
            t = core.t;
            c = core.c;
            q = block(core, core.q, b, h);
            k = block(core, core.k, b, h);
            v = block(core, core.v, b, h);
            dO = block(core, core.dO, b, h);
            if (which >= 0) {
                new double[][][] {q, k, v}[which][row][column] += step;
            }
            p = new double[t][t];
            for (int i = 0; i < t; i++) {
                double max = Double.NEGATIVE_INFINITY;
                for (int j = 0; j < t; j++) {
                    double score = 0;
                    for (int cc = 0; cc < c; cc++) {
                        score += q[i][cc] * k[j][cc];
                    }
                    p[i][j] = score * scale + (core.mask == null ? 0 : core.mask.getDouble(b, h, i, j));
                    max = Math.max(max, p[i][j]);
                }
                double sum = 0;
                for (int j = 0; j < t; j++) {
                    p[i][j] = Math.exp(p[i][j] - max);
                    sum += p[i][j];
                }
                for (int j = 0; j < t; j++) {
                    p[i][j] /= sum;
                }
            }
            o = product(p, false, v);
            dV = product(p, true, dO);
            double[][] dS = new double[t][t];
            for (int i = 0; i < t; i++) {
                double dot = 0;
                for (int j = 0; j < t; j++) {
                    for (int cc = 0; cc < c; cc++) {
                        dS[i][j] += dO[i][cc] * v[j][cc];
                    }
                    dot += dS[i][j] * p[i][j];
                }
                for (int j = 0; j < t; j++) {
                    dS[i][j] = p[i][j] * (dS[i][j] - dot) * scale;
                }
            }
            dQ = product(dS, false, k);
            dK = product(dS, true, q);
        }

        /** Σ dO∘O, whose gradients the fused backward computes. */
        double loss() {
            double total = 0;
            for (int i = 0; i < t; i++) {
                for (int cc = 0; cc < c; cc++) {
                    total += dO[i][cc] * o[i][cc];
                }
            }
            return total;
        }

        /** op(a) (T, T) · right (T, C). */
        private double[][] product(double[][] a, boolean transposed, double[][] right) {
            double[][] out = new double[t][c];
            for (int i = 0; i < t; i++) {
                for (int j = 0; j < t; j++) {
                    double weight = transposed ? a[j][i] : a[i][j];
                    for (int cc = 0; cc < c; cc++) {
                        out[i][cc] += weight * right[j][cc];
                    }
                }
            }
            return out;
        }

        private static double[][] block(Core core, INDArray array, int b, int h) {
            double[][] block = new double[core.t][core.c];
            for (int i = 0; i < core.t; i++) {
                for (int cc = 0; cc < core.c; cc++) {
                    block[i][cc] = core.get(array, b, h, i, cc);
                }
            }
            return block;
        }
    }

    private static void assertNear(double expected, double actual, String what, int b, int h, int i, int j) {
        assertTrue(Math.abs(expected - actual) <= 2e-5 * Math.max(1, Math.abs(expected)),
                what + "[" + b + ", " + h + ", " + i + ", " + j + "]: " + actual + ", expected " + expected);
    }
}
