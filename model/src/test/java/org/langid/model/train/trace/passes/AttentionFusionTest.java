package org.langid.model.train.trace.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.langid.model.train.kernels.VectorKernels;
import org.langid.model.train.trace.RecordedStep;
import org.langid.model.train.trace.StepReplay;
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
        System.setProperty(VectorKernels.PROPERTY, "always");   // on narrower CPUs too
        try {
            List<StepReplay.Call> calls = RecordedStep.twoLayers();
            assertEquals(2, fusedCores(calls), "both cores of the untouched step fuse");
            StepReplay.Call scores = calls.stream()
                    .filter(call -> "matmul".equals(call.op().opName()) && call.context().getInputArrays().get(0).rank() == 4
                            && call.context().getIArguments().equals(List.of(0L, 1L, 0L)))
                    .findFirst().orElseThrow();
            List<StepReplay.Call> withReader = RecordedStep.withReaderOf(calls, calls.stream()
                    .filter(call -> "softmax".equals(call.op().opName())).findFirst().orElseThrow(), scores.context().getOutputArrays().get(0));
            assertEquals(1, fusedCores(withReader), "the core read elsewhere stays");
        } finally {
            System.clearProperty(VectorKernels.PROPERTY);
        }
    }

    /**
     * SameDiff's arena may give dQ the array of dO, dead once P·V's backward has read it. The fused
     * backward runs there and writes dQ early, while it still reads dO: that core stays as recorded.
     */
    @Test
    void aCoreWhoseEarlyWrittenGradientSharesAnArrayItReadsStaysAsRecorded() {
        System.setProperty(VectorKernels.PROPERTY, "always");
        try {
            List<StepReplay.Call> calls = RecordedStep.twoLayers();
            assertEquals(2, fusedCores(calls, false), "both cores fuse without the head layouts too");
            int weighingBack = first(calls, "matmul_bp", List.of(0L, 0L, 0L));
            int scoresBack = first(calls, "matmul_bp", List.of(0L, 1L, 0L));
            INDArray dO = calls.get(weighingBack).context().getInputArrays().get(2);
            StepReplay.Call recorded = calls.get(scoresBack);
            OpContext context = Nd4j.getExecutioner().buildContext();
            context.setInputArrays(recorded.context().getInputArrays());
            context.setOutputArrays(dO, recorded.context().getOutputArrays().get(1));
            context.setIArguments(recorded.context().getIArguments().stream().mapToLong(Long::longValue).toArray());
            List<StepReplay.Call> aliased = new ArrayList<>(calls);
            aliased.set(scoresBack, new StepReplay.Call(recorded.op(), context, null, StepReplay.Kernel.NATIVE));
            assertEquals(1, fusedCores(aliased, false), "the core whose dQ would overwrite its dO stays");
        } finally {
            System.clearProperty(VectorKernels.PROPERTY);
        }
    }

    /** The first rank-4 call of {@code op} with these integer arguments (the last layer's, in the backward pass). */
    private static int first(List<StepReplay.Call> calls, String op, List<Long> arguments) {
        for (int i = 0; i < calls.size(); i++) {
            StepReplay.Call call = calls.get(i);
            if (op.equals(call.op().opName()) && call.context().getInputArrays().get(0).rank() == 4
                    && call.context().getIArguments().equals(arguments)) {
                return i;
            }
        }
        throw new AssertionError("no " + op + " " + arguments);
    }

    private static long fusedCores(List<StepReplay.Call> recorded) {
        return fusedCores(recorded, true);
    }

    /** The plan's rewrites up to the fusion, as StepReplay.Recorder#plan runs them (the head layouts if {@code folded}); the cores fused. */
    private static long fusedCores(List<StepReplay.Call> recorded, boolean folded) {
        VectorKernels.Scratch scratch = new VectorKernels.Scratch();
        List<StepReplay.Call> planned = recorded.stream().map(call -> call.replaced(true, true, scratch)).toList();
        List<StepReplay.Call> retired = new ArrayList<>();
        if (folded) {
            planned = HeadLayouts.fold(planned, List.of(), retired);
        }
        long before = planned.stream().filter(call -> call.kernel() == StepReplay.Kernel.FUSED).count();
        planned = AttentionFusion.fuse(planned, List.of(), retired);
        return (planned.stream().filter(call -> call.kernel() == StepReplay.Kernel.FUSED).count() - before) / 2;
    }

}
