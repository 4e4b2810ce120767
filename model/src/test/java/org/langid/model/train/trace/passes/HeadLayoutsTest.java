package org.langid.model.train.trace.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.langid.model.train.trace.Call;
import org.langid.model.train.trace.RecordedStep;

/**
 * HeadLayouts drops a head permute (and the copy before it) only when products alone read its
 * result; StepReplayTest checks that the folded steps are bit for bit the unfolded ones.
 */
class HeadLayoutsTest {

    @Test
    void aPermuteReadByAnotherCallStays() {
        List<Call> recorded = RecordedStep.twoLayers();
        assertEquals(2 * 16, dropped(replaced(recorded)), "two layers: Q, K, V, the output and their gradients, each a permute and a copy");

        // Something else also reads the first permuted operand (Q, K or V of the first layer): that
        // permute must stay, and with it the copy before it. (Folding rewires the products: replace afresh.)
        List<Call> calls = replaced(recorded);
        Call permute = calls.stream().filter(call -> "permute".equals(call.op().opName())).findFirst().orElseThrow();
        List<Call> withReader = RecordedStep.withReaderOf(calls, permute, permute.context().getOutputArrays().get(0));
        assertEquals(2 * 16 - 2, dropped(withReader));
    }

    private static int dropped(List<Call> calls) {
        List<Call> retired = new ArrayList<>();
        HeadLayouts.fold(calls, List.of(), retired);
        return retired.size();
    }

    /** The calls as a plan runs them before the layouts are folded: products and permutes on the vector API, reshapes as copies. */
    private static List<Call> replaced(List<Call> recorded) {
        return Rewrites.replaced(recorded, true);
    }
}
