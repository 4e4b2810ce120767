package org.langid.model.train.trace.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.langid.model.train.trace.Call;
import org.langid.model.train.trace.RecordedStep;

/**
 * The character embedding's lookup (EmbeddingLookupFusion) against its definition, and its fusion
 * into a real recorded step; StepReplayTest trains with it against SameDiff's one-hot product.
 */
class EmbeddingLookupFusionTest {

    @Test
    void eachPositionGetsItsSymbolsRowAndGivesItsGradientBackToThatRow() {
        int rows = 5;
        int d = 3;
        int[] symbols = {2, 0, 2, 4, -1, 5, 2};   // −1 and 5 are outside the table: no row, as one-hot has none
        Random random = new Random(5);
        float[] table = new float[rows * d];
        float[] dy = new float[symbols.length * d];
        for (int i = 0; i < table.length; i++) {
            table[i] = random.nextFloat() - 0.5f;
        }
        for (int i = 0; i < dy.length; i++) {
            dy[i] = random.nextFloat() - 0.5f;
        }
        FloatBuffer y = floats(symbols.length * d);
        EmbeddingLookupFusion.lookup(IntBuffer.wrap(symbols), FloatBuffer.wrap(table), y, symbols.length, rows, d);
        FloatBuffer dTable = floats(rows * d);
        dTable.put(0, 99f);   // overwritten, not added to
        EmbeddingLookupFusion.lookupGradient(IntBuffer.wrap(symbols), FloatBuffer.wrap(dy), dTable, symbols.length, rows, d, new double[rows * d]);
        for (int p = 0; p < symbols.length; p++) {
            for (int j = 0; j < d; j++) {
                float expected = symbols[p] >= 0 && symbols[p] < rows ? table[symbols[p] * d + j] : 0f;
                assertEquals(expected, y.get(p * d + j), "y[" + p + ", " + j + "]");
            }
        }
        for (int s = 0; s < rows; s++) {
            for (int j = 0; j < d; j++) {
                double expected = 0;
                for (int p = 0; p < symbols.length; p++) {
                    expected += symbols[p] == s ? dy[p * d + j] : 0;
                }
                assertEquals((float) expected, dTable.get(s * d + j), "dTable[" + s + ", " + j + "]");
            }
        }
    }

    /** The embedding of a real recorded step is fused; when another call also reads its one-hot array, it stays as recorded. */
    @Test
    void aLookupWhoseOneHotIsReadElsewhereStaysAsRecorded() {
        List<Call> calls = RecordedStep.twoLayers();
        assertEquals(1, fusedLookups(calls), "the character embedding of the untouched step fuses");

        Call oneHot = calls.stream()
                .filter(call -> "onehot".equals(call.op().opName()) && call.context().getOutputArrays().get(0).rank() == 3)
                .findFirst().orElseThrow();
        List<Call> withReader = RecordedStep.withReaderOf(calls, oneHot, oneHot.context().getOutputArrays().get(0));
        assertEquals(0, fusedLookups(withReader), "a one-hot read elsewhere stays");
    }

    private static long fusedLookups(List<Call> calls) {
        List<Call> planned = EmbeddingLookupFusion.fuse(calls, List.of(), new ArrayList<>());
        return planned.stream().filter(call -> call.kernel() == Call.Kernel.FUSED).count() / 2;
    }

    private static FloatBuffer floats(int n) {
        return ByteBuffer.allocateDirect(n * Float.BYTES).order(ByteOrder.nativeOrder()).asFloatBuffer();
    }
}
