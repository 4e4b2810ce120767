package org.langid.model.train.trace.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.langid.model.train.trace.Call;
import org.langid.model.train.trace.RecordedStep;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The add_bp and biasadd_bp copies of a real recorded step are elided and their readers rewired; StepReplayTest
 * trains with the elision against SameDiff, bit for bit.
 */
class GradientCopyElisionTest {

    @Test
    void copyingGradientsAreDroppedAndTheirReadersReadTheIncomingGradient() {
        List<Call> calls = RecordedStep.twoLayers();
        long before = addGradients(calls);
        assertTrue(before >= 4, "the step has residual adds' gradients: " + before);
        Call first = calls.stream().filter(call -> "add_bp".equals(call.op().opName())).findFirst().orElseThrow();
        INDArray incoming = first.context().getInputArrays().get(2);
        List<INDArray> copies = first.context().getOutputArrays();

        List<Call> retired = new ArrayList<>();
        List<Call> kept = GradientCopyElision.elide(calls, List.of(), retired);
        assertEquals(0, addGradients(kept), "every add_bp of equal shapes was a copy and is gone");
        assertEquals(before, retired.size());
        boolean rewired = false;
        for (Call call : kept) {
            for (INDArray input : call.context().getInputArrays()) {
                assertTrue(copies.stream().noneMatch(copy -> copy == input) || input == incoming, "no call reads a dropped copy");
                rewired |= input == incoming;
            }
        }
        assertTrue(rewired, "a reader of the first copy reads the incoming gradient");
        long biasGradients = kept.stream().filter(call -> "biasadd_bp".equals(call.op().opName())).count();
        long writtenOntoTheirGradient = kept.stream().filter(call -> "biasadd_bp".equals(call.op().opName())
                && call.context().getOutputArrays().get(0) == call.context().getInputArrays().get(2)).count();
        assertTrue(biasGradients > 0 && writtenOntoTheirGradient == biasGradients,
                "every bias gradient's dX copy is dZ itself: " + writtenOntoTheirGradient + " of " + biasGradients);
    }

    @Test
    void aCopyThatIsAStepResultIsKept() {
        List<Call> calls = RecordedStep.twoLayers();
        Call first = calls.stream().filter(call -> "add_bp".equals(call.op().opName())).findFirst().orElseThrow();
        List<Call> kept = GradientCopyElision.elide(calls, List.of(first.context().getOutputArrays().get(0)), new ArrayList<>());
        assertTrue(kept.contains(first), "the add_bp whose output is returned stays");
    }

    private static long addGradients(List<Call> calls) {
        return calls.stream().filter(call -> "add_bp".equals(call.op().opName())).count();
    }
}
