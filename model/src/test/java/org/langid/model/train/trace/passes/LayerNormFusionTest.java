package org.langid.model.train.trace.passes;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.langid.model.train.kernels.VectorMath;
import org.langid.model.train.trace.Call;
import org.langid.model.train.trace.RecordedStep;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The fused layer norm's passes (VectorMath.layerNorm, layerNormGradient) against the layer norm
 * and its derivative written out in double precision; StepReplayTest checks the fusion of a real
 * recorded step against SameDiff's composed one.
 */
class LayerNormFusionTest {

    /** d: the model's width (whole vectors), a narrow one and an odd one (a partial vector). */
    @ParameterizedTest
    @CsvSource({"64, true", "64, false", "8, true", "5, true", "21, false"})
    void forwardAndGradientsMatchTheirDefinition(int d, boolean withOther) {
        int rows = 7;
        double epsilon = 1e-5;
        Random random = new Random(d);
        INDArray x = array(random, rows, d, 2.0, 0.5);
        INDArray gain = array(random, 1, d, 1.0, 1.0).reshape(d);
        INDArray bias = array(random, 1, d, 0.5, 0.0).reshape(d);
        INDArray dy = array(random, rows, d, 1.0, 0.0);
        INDArray other = withOther ? array(random, rows, d, 1.0, 0.0) : null;

        INDArray y = Nd4j.create(DataType.FLOAT, rows, d);
        VectorMath.layerNorm(x.data().asNio(), gain.data().asNio(), bias.data().asNio(), (float) epsilon, y.data().asNio(), rows, d);
        INDArray dx = Nd4j.create(DataType.FLOAT, rows, d);
        INDArray dGain = Nd4j.create(DataType.FLOAT, d);
        INDArray dBias = Nd4j.create(DataType.FLOAT, d);
        VectorMath.layerNormGradient(x.data().asNio(), dy.data().asNio(), gain.data().asNio(), (float) epsilon,
                other == null ? null : other.data().asNio(), dx.data().asNio(), dGain.data().asNio(), dBias.data().asNio(), rows, d);

        double[] expectedGain = new double[d];
        double[] expectedBias = new double[d];
        for (int r = 0; r < rows; r++) {
            double mean = 0;
            for (int j = 0; j < d; j++) {
                mean += x.getDouble(r, j) / d;
            }
            double variance = 0;
            for (int j = 0; j < d; j++) {
                variance += Math.pow(x.getDouble(r, j) - mean, 2) / d;
            }
            double s = 1 / Math.sqrt(variance + epsilon);
            double meanG = 0;
            double meanGX = 0;
            for (int j = 0; j < d; j++) {
                double xHat = (x.getDouble(r, j) - mean) * s;
                double g = dy.getDouble(r, j) * gain.getDouble(j);
                meanG += g / d;
                meanGX += g * xHat / d;
                expectedGain[j] += dy.getDouble(r, j) * xHat;
                expectedBias[j] += dy.getDouble(r, j);
                assertNear(xHat * gain.getDouble(j) + bias.getDouble(j), y.getDouble(r, j), "y[" + r + ", " + j + "]");
            }
            for (int j = 0; j < d; j++) {
                double xHat = (x.getDouble(r, j) - mean) * s;
                double g = dy.getDouble(r, j) * gain.getDouble(j);
                double expected = s * (g - meanG - xHat * meanGX) + (other == null ? 0 : other.getDouble(r, j));
                assertNear(expected, dx.getDouble(r, j), "dx[" + r + ", " + j + "]");
            }
        }
        for (int j = 0; j < d; j++) {
            assertNear(expectedGain[j], dGain.getDouble(j), "dGain[" + j + "]");
            assertNear(expectedBias[j], dBias.getDouble(j), "dBias[" + j + "]");
        }
    }

    /**
     * On a real recorded step the five layer norms of a two-layer model are fused; when some other
     * call also reads a norm's intermediate (here the centred rows X − mean of the first), that norm
     * stays as recorded and the other four are still fused.
     */
    @org.junit.jupiter.api.Test
    void aNormWhoseIntermediateIsReadElsewhereStaysAsRecorded() {
        java.util.List<Call> calls = RecordedStep.twoLayers();
        assertTrue(fusedNorms(calls) == 5, "all five norms of the untouched step fuse: " + fusedNorms(calls));

        Call centring = calls.stream().filter(call -> "subtract".equals(call.op().opName())).findFirst().orElseThrow();
        java.util.List<Call> withReader = RecordedStep.withReaderOf(calls, centring, centring.context().getOutputArrays().get(0));
        assertTrue(fusedNorms(withReader) == 4, "the norm read elsewhere stays: " + fusedNorms(withReader));
    }

    /** Each fused norm also drops its gain's expansion ones(N, 1)·gain(1, d), which only its own calls read. */
    @org.junit.jupiter.api.Test
    void theGainsExpansionGoesWithItsNorm() {
        java.util.List<Call> calls = RecordedStep.twoLayers();
        java.util.List<Call> planned = LayerNormFusion.fuse(calls, java.util.List.of(), new java.util.ArrayList<>());
        assertTrue(expansions(calls) - expansions(planned) == 5, "five expansions dropped: " + expansions(calls) + " -> " + expansions(planned));
    }

    /** Products of a column of ones (ones_as) by a (1, d) row: the gains' expansions and the positions' repetition. */
    private static long expansions(java.util.List<Call> calls) {
        java.util.Set<org.nd4j.linalg.api.ndarray.INDArray> ones = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        calls.stream().filter(call -> "ones_as".equals(call.op().opName())).forEach(call -> ones.addAll(call.context().getOutputArrays()));
        return calls.stream().filter(call -> "matmul".equals(call.op().opName()) && call.kernel() != Call.Kernel.FUSED
                && call.context().getInputArrays().size() == 2 && ones.contains(call.context().getInputArrays().get(0))).count();
    }

    private static long fusedNorms(java.util.List<Call> calls) {
        java.util.List<Call> planned = LayerNormFusion.fuse(calls, java.util.List.of(), new java.util.ArrayList<>());
        return planned.stream().filter(call -> call.kernel() == Call.Kernel.FUSED).count() / 2;
    }

    /** The derivative itself, by central differences of the loss Σ dY·Y in double precision. */
    @ParameterizedTest
    @CsvSource({"8", "21"})
    void gradientIsTheDerivative(int d) {
        int rows = 3;
        Random random = new Random(3 * d);
        INDArray x = array(random, rows, d, 1.0, 0.0);
        INDArray gain = array(random, 1, d, 1.0, 1.0).reshape(d);
        INDArray bias = Nd4j.zeros(DataType.FLOAT, d);
        INDArray dy = array(random, rows, d, 1.0, 0.0);
        INDArray dx = Nd4j.create(DataType.FLOAT, rows, d);
        VectorMath.layerNormGradient(x.data().asNio(), dy.data().asNio(), gain.data().asNio(), 1e-5f, null, dx.data().asNio(),
                Nd4j.create(DataType.FLOAT, d).data().asNio(), Nd4j.create(DataType.FLOAT, d).data().asNio(), rows, d);
        double h = 1e-3;
        for (int r = 0; r < rows; r++) {
            for (int j = 0; j < d; j++) {
                double up = loss(x, r, j, h, gain, dy, d);
                double down = loss(x, r, j, -h, gain, dy, d);
                double numeric = (up - down) / (2 * h);
                assertTrue(Math.abs(numeric - dx.getDouble(r, j)) <= 2e-3 * Math.max(1, Math.abs(numeric)),
                        "dx[" + r + ", " + j + "]: " + dx.getDouble(r, j) + ", central difference " + numeric);
            }
        }
    }

    /** Σ_j dY[r, j]·LN(x with x[r, j] moved by h)[r, j], in double precision (other rows do not depend on it). */
    private static double loss(INDArray x, int row, int column, double h, INDArray gain, INDArray dy, int d) {
        double[] values = new double[d];
        for (int j = 0; j < d; j++) {
            values[j] = x.getDouble(row, j) + (j == column ? h : 0);
        }
        double mean = java.util.Arrays.stream(values).sum() / d;
        double variance = java.util.Arrays.stream(values).map(v -> (v - mean) * (v - mean)).sum() / d;
        double s = 1 / Math.sqrt(variance + 1e-5);
        double total = 0;
        for (int j = 0; j < d; j++) {
            total += dy.getDouble(row, j) * (values[j] - mean) * s * gain.getDouble(j);
        }
        return total;
    }

    private static INDArray array(Random random, int rows, int columns, double scale, double offset) {
        float[][] values = new float[rows][columns];
        for (float[] row : values) {
            for (int j = 0; j < columns; j++) {
                row[j] = (float) (offset + scale * random.nextGaussian());
            }
        }
        return Nd4j.createFromArray(values);
    }

    private static void assertNear(double expected, double actual, String what) {
        assertTrue(Math.abs(expected - actual) <= 2e-5 * Math.max(1, Math.abs(expected)), what + ": " + actual + ", expected " + expected);
    }
}
