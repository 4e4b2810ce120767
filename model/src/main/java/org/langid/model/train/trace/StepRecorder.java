package org.langid.model.train.trace;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.nd4j.autodiff.functions.DifferentialFunction;
import org.nd4j.autodiff.listeners.At;
import org.nd4j.autodiff.listeners.BaseListener;
import org.nd4j.autodiff.listeners.Operation;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.autodiff.samediff.internal.SameDiffOp;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.CustomOp;
import org.nd4j.linalg.api.ops.Op;
import org.nd4j.linalg.api.ops.OpContext;
import org.nd4j.linalg.dataset.api.MultiDataSet;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Records the native ops of one SameDiff execution (a listener), for a step replayed without
 * SameDiff's session ({@link ReplayPlan}): the same ops in the order SameDiff ran them, on the
 * same arrays. SameDiff M2.1's session spends, per op, Java time on dependency tracking, shape
 * inference, array allocation and argument marshalling; at batch 256 that was a quarter of a step (bench/EXPERIMENTS.md, "Training speed: the step"), and at small batches most of it.
 * With a fixed batch size every step runs the same ops on arrays of the same shapes, so one
 * step is recorded (a listener sees each op with its input and output arrays) and later steps
 * copy their placeholders into the recorded ones and call the same native ops again.
 *
 * <p>The results are bit-identical to SameDiff's: the same native calls on the same buffers in
 * the same order (StepReplayTest). A step is only replayed when everything it computes went
 * through plain native ops; if SameDiff did anything in Java that a replay would skip (control
 * flow, views, identities), or a placeholder or a result is not an array the recording saw,
 * {@link #plan} returns null and training stays on SameDiff.
 */
public final class StepRecorder extends BaseListener {

    // The classes InferenceSession handles in Java rather than by one native call.
    private static final List<String> JAVA_SIDE = List.of("Identity", "Switch", "Merge", "Enter", "Exit", "NextIteration",
            "LoopCond", "Assign", "GradientBackwardsMarker", "CreateView", "ExternalErrorsFunction", "Invoke", "Assert");

    private final List<Call> calls = new ArrayList<>();
    private final Set<INDArray> outputs = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<INDArray> inputs = Collections.newSetFromMap(new IdentityHashMap<>());
    private String unsupported;

    @Override
    public boolean isActive(Operation operation) {
        return true;
    }

    @Override
    public void opExecution(SameDiff sd, At at, MultiDataSet batch, SameDiffOp op, OpContext opContext, INDArray[] opOutputs) {
        if (unsupported != null) {
            return;
        }
        DifferentialFunction function = op.getOp();
        String type = function.getClass().getSimpleName();
        if (opContext == null || JAVA_SIDE.contains(type) || function.getClass().getName().contains(".tensorops.")
                || !(function instanceof CustomOp || function instanceof Op)) {
            unsupported = type;
            return;
        }
        List<INDArray> in = new ArrayList<>(opContext.getInputArrays());
        List<INDArray> out = new ArrayList<>(opContext.getOutputArrays());
        if (out.isEmpty() || in.stream().anyMatch(a -> a == null || a.isEmpty()) || out.stream().anyMatch(a -> a == null || a.isEmpty())) {
            unsupported = type + " (empty or missing arrays)";
            return;
        }
        OpContext context = Nd4j.getExecutioner().buildContext();
        context.setInputArrays(in);
        context.setOutputArrays(out);
        context.setIArguments(opContext.getIArguments().stream().mapToLong(Long::longValue).toArray());
        context.setTArguments(opContext.getTArguments().stream().mapToDouble(Double::doubleValue).toArray());
        context.setDArguments(opContext.getDArguments().toArray(new DataType[0]));
        boolean[] flags = new boolean[opContext.numBArguments()];
        for (int i = 0; i < flags.length; i++) {
            flags[i] = opContext.getBArguments().get(i);
        }
        context.setBArguments(flags);
        inputs.addAll(in);
        outputs.addAll(out);
        calls.add(new Call(function, context, null, Call.Kernel.NATIVE));
    }

    /**
     * The recorded step as a plan, its calls as {@code rewrite} makes them, or null if it cannot
     * be replayed exactly. {@code fed}: the placeholder arrays given to SameDiff; {@code results}:
     * the arrays it returned, by name; {@code profileEvery}: see {@link ReplayPlan} (0: untimed).
     */
    public ReplayPlan plan(Map<String, INDArray> fed, Map<String, INDArray> results, PlanRewrite rewrite, int profileEvery) {
        if (unsupported != null || calls.isEmpty()) {
            return discard();
        }
        for (INDArray placeholder : fed.values()) {
            if (!inputs.contains(placeholder) && !outputs.contains(placeholder)) {
                return discard();    // SameDiff read a copy (a cast, say): writing ours would change nothing
            }
        }
        for (INDArray result : results.values()) {
            if (!outputs.contains(result)) {
                return discard();    // computed or copied outside the recorded ops
            }
        }
        List<Call> retired = new ArrayList<>();
        List<Call> planned = rewrite.rewrite(calls, results.values(), retired);
        return new ReplayPlan(List.copyOf(planned), List.copyOf(retired), new LinkedHashMap<>(fed), new LinkedHashMap<>(results), profileEvery);
    }

    /** The calls recorded so far, as SameDiff ran them (tests build plans from them). */
    public List<Call> recorded() {
        return List.copyOf(calls);
    }

    public String unsupported() {
        return unsupported;
    }

    private ReplayPlan discard() {
        calls.forEach(Call::close);
        return null;
    }
}
