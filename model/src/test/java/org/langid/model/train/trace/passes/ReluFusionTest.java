package org.langid.model.train.trace.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.langid.model.train.kernels.VectorMath;
import org.langid.model.train.trace.Call;
import org.langid.model.train.trace.RecordedStep;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The fused ReLU's passes (VectorMath.relu, reluGradient) against libnd4j's own calls of the
 * composed form, bit for bit, and the fusion on a real recorded step; StepReplayTest trains with it.
 */
class ReluFusionTest {

    /** Odd lengths end in a partial vector; −0, ±∞ and NaN keep what X·mask gives them. */
    @Test
    void passesEqualTheComposedReluBitForBit() {
        for (int n : new int[] {37, 64, 5}) {
            Random random = new Random(n);
            float[] values = new float[n];
            float[] upstream = new float[n];
            for (int i = 0; i < n; i++) {
                values[i] = (float) random.nextGaussian();
                upstream[i] = (float) random.nextGaussian();
            }
            float[] special = {-0f, 0f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY};
            System.arraycopy(special, 0, values, 0, Math.min(special.length, n));
            INDArray x = Nd4j.createFromArray(values);
            INDArray dy = Nd4j.createFromArray(upstream);

            INDArray mask = x.gt(0.0).castTo(DataType.FLOAT);
            INDArray expectedY = x.mul(mask);
            INDArray expectedDx = dy.mul(mask);
            INDArray y = Nd4j.create(DataType.FLOAT, n);
            INDArray dx = Nd4j.create(DataType.FLOAT, n);
            VectorMath.relu(x.data().asNio(), y.data().asNio(), n);
            VectorMath.reluGradient(x.data().asNio(), dy.data().asNio(), dx.data().asNio(), n);
            for (int i = 0; i < n; i++) {
                assertEquals(Float.floatToRawIntBits(expectedY.getFloat(i)), Float.floatToRawIntBits(y.getFloat(i)), "y[" + i + "] of " + values[i]);
                assertEquals(Float.floatToRawIntBits(expectedDx.getFloat(i)), Float.floatToRawIntBits(dx.getFloat(i)), "dx[" + i + "] of " + values[i]);
            }
        }
    }

    /** Both feed-forward ReLUs of a real recorded step are fused; when another call also reads a mask, that ReLU stays. */
    @Test
    void aReluWhoseMaskIsReadElsewhereStaysAsRecorded() {
        List<Call> calls = RecordedStep.twoLayers();
        assertEquals(2, fusedRelus(calls), "the two layers' ReLUs of the untouched step fuse");

        Call compare = calls.stream().filter(call -> "greaterthan_scalar".equals(call.op().opName())).findFirst().orElseThrow();
        Call cast = calls.stream().filter(call -> "cast".equals(call.op().opName())
                && call.context().getInputArrays().get(0) == compare.context().getOutputArrays().get(0)).findFirst().orElseThrow();
        List<Call> withReader = RecordedStep.withReaderOf(calls, cast, cast.context().getOutputArrays().get(0));
        assertEquals(1, fusedRelus(withReader), "the ReLU whose mask is read elsewhere stays");
    }

    private static long fusedRelus(List<Call> calls) {
        List<Call> planned = ReluFusion.fuse(calls, List.of(), new ArrayList<>());
        return planned.stream().filter(call -> call.kernel() == Call.Kernel.FUSED).count() / 2;
    }
}
