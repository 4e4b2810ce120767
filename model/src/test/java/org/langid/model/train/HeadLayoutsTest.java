package org.langid.model.train;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.langid.model.graph.ModelConfig;
import org.langid.model.graph.ParameterLayout;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.OpContext;
import org.nd4j.linalg.factory.Nd4j;

/**
 * HeadLayouts drops a head permute (and the copy before it) only when products alone read its
 * result; StepReplayTest checks that the folded steps are bit for bit the unfolded ones.
 */
class HeadLayoutsTest {

    @Test
    void aPermuteReadByAnotherCallStays() {
        System.setProperty(VectorKernels.PROPERTY, "always");   // the products on any vector width
        try {
            List<StepReplay.Call> recorded = recordedStep();
            assertEquals(2 * 16, dropped(replaced(recorded)), "two layers: Q, K, V, the output and their gradients, each a permute and a copy");

            // Something else also reads the first permuted operand (Q, K or V of the first layer): that
            // permute must stay, and with it the copy before it. (Folding rewires the products: replace afresh.)
            List<StepReplay.Call> calls = replaced(recorded);
            StepReplay.Call permute = calls.stream().filter(call -> "permute".equals(call.op().opName())).findFirst().orElseThrow();
            INDArray permuted = permute.context().getOutputArrays().get(0);
            OpContext context = Nd4j.getExecutioner().buildContext();
            context.setInputArrays(permuted);
            context.setOutputArrays(permuted.ulike());
            List<StepReplay.Call> withReader = new ArrayList<>(calls);
            withReader.add(new StepReplay.Call(permute.op(), context, null, StepReplay.Kernel.NATIVE));
            assertEquals(2 * 16 - 2, dropped(withReader));
        } finally {
            System.clearProperty(VectorKernels.PROPERTY);
        }
    }

    private static int dropped(List<StepReplay.Call> calls) {
        List<StepReplay.Call> retired = new ArrayList<>();
        HeadLayouts.fold(calls, List.of(), retired);
        return retired.size();
    }

    /** The calls as a plan runs them before the layouts are folded: products and permutes on the vector API, reshapes as copies. */
    private static List<StepReplay.Call> replaced(List<StepReplay.Call> recorded) {
        VectorKernels.Scratch scratch = new VectorKernels.Scratch();
        return recorded.stream().map(call -> call.replaced(true, true, scratch)).toList();
    }

    private static List<StepReplay.Call> recordedStep() {
        ModelConfig config = new ModelConfig();
        config.window = 6;
        config.dModel = 8;
        config.heads = 2;
        config.layers = 2;
        config.ffn = 8;
        config.ngramBuckets = 0;
        config.languages = List.of("en", "de", "fr");
        LocalSteps steps = new LocalSteps(config, TrainingState.start(ParameterLayout.of(config).initialise(3, DataType.FLOAT)), 20);
        StepReplay.Recorder recorder = new StepReplay.Recorder();
        steps.addListener(recorder);
        steps.step(Nd4j.createFromArray(new int[][] {{1, 2, 3, 4, 5, 6}, {7, 8, 9, 10, 11, 12}, {3, 3, 3, 68, 68, 68}}),
                Nd4j.createFromArray(new int[] {0, 1, 2}));
        return recorder.recorded();
    }
}
