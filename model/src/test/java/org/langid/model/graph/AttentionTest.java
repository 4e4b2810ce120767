package org.langid.model.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** Scaled dot-product and multi-head attention against explicit loops (double precision). */
class AttentionTest {

    private static final double TOLERANCE = 1e-10;
    private final Random random = new Random(42);

    /** Runs scaledDotProduct on one batch element and one head; returns {output, weights}. */
    private static double[][][] runSdpa(double[][] q, double[][] k, double[][] v, SDVariableMask maskKind, double[] keyIsReal, boolean scale) {
        SameDiff sd = SameDiff.create();
        int tq = q.length;
        int tk = k.length;
        SDVariable qv = sd.constant(Nd4j.create(q).reshape(1, 1, tq, q[0].length));
        SDVariable kv = sd.constant(Nd4j.create(k).reshape(1, 1, tk, k[0].length));
        SDVariable vv = sd.constant(Nd4j.create(v).reshape(1, 1, tk, v[0].length));
        SDVariable mask = switch (maskKind) {
            case NONE -> null;
            case CAUSAL -> Attention.causalMask(sd, "causal", tq, tk, DataType.DOUBLE);
            case PADDING -> Attention.paddingMask(sd, sd.constant(Nd4j.createFromArray(keyIsReal).reshape(1, tk)), tk);
        };
        Attention.Result r = Attention.scaledDotProduct(sd, "attn", qv, kv, vv, mask, scale, q[0].length);
        Map<String, INDArray> out = sd.output(new HashMap<>(), r.output().name(), r.weights().name());
        return new double[][][] {
            out.get(r.output().name()).reshape(tq, v[0].length).toDoubleMatrix(),
            out.get(r.weights().name()).reshape(tq, tk).toDoubleMatrix()};
    }

    enum SDVariableMask { NONE, CAUSAL, PADDING }

    @Test
    void weightsRowsSumToOneAndMatrixFormEqualsTheLoop() {
        for (boolean scale : new boolean[] {true, false}) {
            double[][] q = Reference.random(random, 7, 5);
            double[][] k = Reference.random(random, 7, 5);
            double[][] v = Reference.random(random, 7, 3);
            double[][][] result = runSdpa(q, k, v, SDVariableMask.NONE, null, scale);
            double[][] expectedWeights = Reference.weights(q, k, null, scale);
            for (int i = 0; i < 7; i++) {
                assertEquals(1.0, java.util.Arrays.stream(result[1][i]).sum(), TOLERANCE, "row " + i);
                assertArrayEquals(expectedWeights[i], result[1][i], TOLERANCE);
            }
            double[][] expected = Reference.attend(expectedWeights, v);
            for (int i = 0; i < 7; i++) {
                assertArrayEquals(expected[i], result[0][i], TOLERANCE);
            }
        }
    }

    @Test
    void withTheCausalMaskOutputIIgnoresLaterPositions() {
        double[][] q = Reference.random(random, 6, 4);
        double[][] k = Reference.random(random, 6, 4);
        double[][] v = Reference.random(random, 6, 4);
        double[][][] before = runSdpa(q, k, v, SDVariableMask.CAUSAL, null, true);
        // Change positions 4 and 5 entirely: outputs 0..3 must not move.
        for (int j = 4; j < 6; j++) {
            q[j] = Reference.random(random, 1, 4)[0];
            k[j] = Reference.random(random, 1, 4)[0];
            v[j] = Reference.random(random, 1, 4)[0];
        }
        double[][][] after = runSdpa(q, k, v, SDVariableMask.CAUSAL, null, true);
        for (int i = 0; i < 4; i++) {
            assertArrayEquals(before[0][i], after[0][i], TOLERANCE, "output " + i);
            for (int j = i + 1; j < 6; j++) {
                assertEquals(0.0, after[1][i][j], 0.0, "weight of a future position");
            }
        }
        assertEquals(1.0, after[1][0][0], TOLERANCE, "the first position sees only itself");
    }

    @Test
    void paddedKeysGetZeroWeight() {
        double[][] q = Reference.random(random, 5, 4);
        double[][] k = Reference.random(random, 5, 4);
        double[][] v = Reference.random(random, 5, 2);
        double[] keyIsReal = {1, 1, 1, 0, 0};
        double[][][] result = runSdpa(q, k, v, SDVariableMask.PADDING, keyIsReal, true);
        double[][] expected = Reference.weights(Reference.columns(q, 0, 4), Reference.columns(k, 0, 4), null, true);
        double[][] realKeys = java.util.Arrays.copyOf(k, 3);
        double[][] expectedWeights = Reference.weights(q, realKeys, null, true);
        for (int i = 0; i < 5; i++) {
            assertEquals(0.0, result[1][i][3], 0.0);
            assertEquals(0.0, result[1][i][4], 0.0);
            assertArrayEquals(expectedWeights[i], java.util.Arrays.copyOf(result[1][i], 3), TOLERANCE);
        }
        assertEquals(expected.length, 5);
    }

    @Test
    void crossAttentionTakesQueriesAndKeysOfDifferentLengths() {
        double[][] q = Reference.random(random, 3, 4);   // 3 queries
        double[][] k = Reference.random(random, 9, 4);   // 9 keys
        double[][] v = Reference.random(random, 9, 6);
        double[][][] result = runSdpa(q, k, v, SDVariableMask.NONE, null, true);
        assertEquals(3, result[0].length);
        assertEquals(6, result[0][0].length);
        assertEquals(9, result[1][0].length);
        double[][] expected = Reference.attend(Reference.weights(q, k, null, true), v);
        for (int i = 0; i < 3; i++) {
            assertArrayEquals(expected[i], result[0][i], TOLERANCE);
        }
    }

    @Test
    void multiHeadEqualsSingleHeadsConcatenatedThenProjected() {
        int d = 8;
        int heads = 2;
        int hs = d / heads;
        int tq = 4;
        int tk = 6;
        double[][] xq = Reference.random(random, tq, d);
        double[][] xkv = Reference.random(random, tk, d);
        double[][][] w = new double[4][][];
        double[][] b = new double[4][];
        for (int i = 0; i < 4; i++) {
            w[i] = Reference.random(random, d, d);
            b[i] = Reference.random(random, 1, d)[0];
        }
        SameDiff sd = SameDiff.create();
        SDVariable[] wv = new SDVariable[4];
        SDVariable[] bv = new SDVariable[4];
        for (int i = 0; i < 4; i++) {
            wv[i] = sd.constant(Nd4j.create(w[i]));
            bv[i] = sd.constant(Nd4j.createFromArray(b[i]));
        }
        Attention.Result r = Attention.multiHead(sd, "mha", sd.constant(Nd4j.create(xq)), sd.constant(Nd4j.create(xkv)),
                tq, tk, d, heads, new Attention.MultiHeadWeights(wv[0], bv[0], wv[1], bv[1], wv[2], bv[2], wv[3], bv[3]), null, true);
        double[][] actual = sd.output(new HashMap<>(), r.output().name()).get(r.output().name()).toDoubleMatrix();

        double[][] q = Reference.linear(xq, w[0], b[0]);
        double[][] k = Reference.linear(xkv, w[1], b[1]);
        double[][] v = Reference.linear(xkv, w[2], b[2]);
        double[][] concatenated = new double[tq][d];
        for (int h = 0; h < heads; h++) {
            double[][] head = Reference.attend(Reference.weights(Reference.columns(q, h * hs, (h + 1) * hs),
                    Reference.columns(k, h * hs, (h + 1) * hs), null, true), Reference.columns(v, h * hs, (h + 1) * hs));
            for (int i = 0; i < tq; i++) {
                System.arraycopy(head[i], 0, concatenated[i], h * hs, hs);
            }
        }
        double[][] expected = Reference.linear(concatenated, w[3], b[3]);
        for (int i = 0; i < tq; i++) {
            assertArrayEquals(expected[i], actual[i], 1e-9);
        }
    }
}
