package org.langid.model.train.trace.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.langid.model.train.trace.Call;
import org.langid.model.train.trace.RecordedStep;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.OpContext;
import org.nd4j.linalg.factory.Nd4j;

/** AttentionFusion finds each attention core of a recorded step and leaves a core as recorded when fusing it would change what runs. */
class AttentionFusionTest {

    /**
     * On a real recorded step both layers' attention cores are fused; when some other call also
     * reads a core's intermediate (here the first core's scores), that core stays as recorded and
     * the other is still fused.
     */
    @Test
    void aCoreWhoseScoresAreReadElsewhereStaysAsRecorded() {
        List<Call> calls = RecordedStep.twoLayers();
        assertEquals(2, fusedCores(calls), "both cores of the untouched step fuse");
        Call scores = calls.stream()
                .filter(call -> "matmul".equals(call.op().opName()) && call.context().getInputArrays().get(0).rank() == 4
                        && call.context().getIArguments().equals(List.of(0L, 1L, 0L)))
                .findFirst().orElseThrow();
        List<Call> withReader = RecordedStep.withReaderOf(calls, calls.stream()
                .filter(call -> "softmax".equals(call.op().opName())).findFirst().orElseThrow(), scores.context().getOutputArrays().get(0));
        assertEquals(1, fusedCores(withReader), "the core read elsewhere stays");
    }

    /**
     * SameDiff's arena may give dQ the array of dO, dead once P·V's backward has read it. The fused
     * backward runs there and writes dQ early, while it still reads dO: that core stays as recorded.
     */
    @Test
    void aCoreWhoseEarlyWrittenGradientSharesAnArrayItReadsStaysAsRecorded() {
        List<Call> calls = RecordedStep.twoLayers();
        assertEquals(2, fusedCores(calls, false), "both cores fuse without the head layouts too");
        int weighingBack = first(calls, "matmul_bp", List.of(0L, 0L, 0L));
        int scoresBack = first(calls, "matmul_bp", List.of(0L, 1L, 0L));
        INDArray dO = calls.get(weighingBack).context().getInputArrays().get(2);
        Call recorded = calls.get(scoresBack);
        OpContext context = Nd4j.getExecutioner().buildContext();
        context.setInputArrays(recorded.context().getInputArrays());
        context.setOutputArrays(dO, recorded.context().getOutputArrays().get(1));
        context.setIArguments(recorded.context().getIArguments().stream().mapToLong(Long::longValue).toArray());
        List<Call> aliased = new ArrayList<>(calls);
        aliased.set(scoresBack, new Call(recorded.op(), context, null, Call.Kernel.NATIVE));
        assertEquals(1, fusedCores(aliased, false), "the core whose dQ would overwrite its dO stays");
    }

    /** The first rank-4 call of {@code op} with these integer arguments (the last layer's, in the backward pass). */
    private static int first(List<Call> calls, String op, List<Long> arguments) {
        for (int i = 0; i < calls.size(); i++) {
            Call call = calls.get(i);
            if (op.equals(call.op().opName()) && call.context().getInputArrays().get(0).rank() == 4
                    && call.context().getIArguments().equals(arguments)) {
                return i;
            }
        }
        throw new AssertionError("no " + op + " " + arguments);
    }

    private static long fusedCores(List<Call> recorded) {
        return fusedCores(recorded, true);
    }

    /** The plan's rewrites up to the fusion, as Rewrites runs them (the head layouts if {@code folded}); the cores fused. */
    private static long fusedCores(List<Call> recorded, boolean folded) {
        List<Call> planned = Rewrites.replaced(recorded, true);
        List<Call> retired = new ArrayList<>();
        if (folded) {
            planned = HeadLayouts.fold(planned, List.of(), retired);
        }
        long before = planned.stream().filter(call -> call.kernel() == Call.Kernel.FUSED).count();
        planned = AttentionFusion.fuse(planned, List.of(), retired);
        return (planned.stream().filter(call -> call.kernel() == Call.Kernel.FUSED).count() - before) / 2;
    }

}
