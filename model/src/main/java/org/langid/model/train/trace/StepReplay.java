package org.langid.model.train.trace;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.langid.model.train.kernels.NativeShortcuts;
import org.langid.model.train.kernels.VectorKernels;
import org.langid.model.train.trace.passes.AttentionFusion;
import org.langid.model.train.trace.passes.EmbeddingLookupFusion;
import org.langid.model.train.trace.passes.GradientCopyElision;
import org.langid.model.train.trace.passes.HeadLayouts;
import org.langid.model.train.trace.passes.LayerNormFusion;
import org.langid.model.train.trace.passes.ReluFusion;
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
 * A training step replayed without SameDiff's session: the native ops of one recorded step, in
 * the order SameDiff ran them, on the same arrays. SameDiff M2.1's session spends, per op, Java
 * time on dependency tracking, shape inference, array allocation and argument marshalling; at
 * batch 256 that was a quarter of a step (bench/PROFILE.md), and at small batches most of it.
 * With a fixed batch size every step runs the same ops on arrays of the same shapes, so one
 * step is recorded (a listener sees each op with its input and output arrays) and later steps
 * copy their placeholders into the recorded ones and call the same native ops again.
 *
 * <p>The results are bit-identical to SameDiff's: the same native calls on the same buffers in
 * the same order (StepReplayTest). A step is only replayed when everything it computes went
 * through plain native ops; if SameDiff did anything in Java that a replay would skip (control
 * flow, views, identities), or a placeholder or a result is not an array the recording saw,
 * {@link Recorder#plan} returns null and training stays on SameDiff.
 */
public final class StepReplay {

    private StepReplay() {
    }

    /** What runs a call: libnd4j's op as SameDiff ran it, or a replacement computing the same outputs from the same arrays. */
    public enum Kernel {
        NATIVE("native"), SHORTCUT("short"), VECTOR("vector"), FUSED("fused");

        final String label;

        Kernel(String label) {
            this.label = label;
        }
    }

    /**
     * One native op with its arguments and arrays, as SameDiff ran it; {@code replacement}, if not
     * null, computes the same outputs from the same arrays instead ({@link NativeShortcuts},
     * {@link VectorKernels}).
     */
    public record Call(DifferentialFunction op, OpContext context, Runnable replacement, Kernel kernel) {

        /** This call with the fastest replacement the switches allow, or itself. */
        public Call replaced(boolean shortcuts, boolean vectors, VectorKernels.Scratch scratch) {
            Runnable faster = shortcuts ? NativeShortcuts.replacing(op, context) : null;
            if (faster != null) {
                return new Call(op, context, faster, Kernel.SHORTCUT);
            }
            faster = vectors ? VectorKernels.replacing(op, context, scratch) : null;
            return faster == null ? this : new Call(op, context, faster, Kernel.VECTOR);
        }

        public void close() {
            try {
                context.close();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }

        public void run() {
            if (replacement != null) {
                replacement.run();
            } else if (op instanceof CustomOp custom) {
                Nd4j.getExecutioner().exec(custom, context);
            } else {
                Nd4j.getExecutioner().exec((Op) op, context);
            }
        }
    }

    /** A recorded step: its calls, the arrays its placeholders were read from, and its results. */
    public static final class Plan implements AutoCloseable {
        /**
         * -Dlangid.step_replay.profile=N: each call is timed, and every N steps the log gets the
         * calls by their mean time per step (bench/PROFILE.md). 0: off.
         */
        private static final int PROFILE_EVERY = Integer.getInteger("langid.step_replay.profile", 0);
        private long[] nanos;
        private int runs;
        private final List<Call> calls;
        private final List<Call> retired;   // replaced by fused calls: kept to close their contexts
        private final Map<String, INDArray> placeholders;
        private final Map<String, INDArray> results;

        private Plan(List<Call> calls, List<Call> retired, Map<String, INDArray> placeholders, Map<String, INDArray> results) {
            this.calls = calls;
            this.retired = retired;
            this.placeholders = placeholders;
            this.results = results;
        }

        /**
         * Runs the step on new placeholder values (the same names and shapes as recorded) and
         * returns its results by name (arrays the next run overwrites: copy what must last).
         */
        public Map<String, INDArray> run(Map<String, INDArray> values) {
            for (Map.Entry<String, INDArray> placeholder : placeholders.entrySet()) {
                INDArray value = values.get(placeholder.getKey());
                if (value == null || !java.util.Arrays.equals(value.shape(), placeholder.getValue().shape())) {
                    throw new IllegalArgumentException("placeholder " + placeholder.getKey() + " is missing or of another shape than recorded");
                }
                placeholder.getValue().assign(value);
            }
            if (PROFILE_EVERY > 0) {
                profiledRun();
            } else {
                for (Call call : calls) {
                    call.run();
                }
            }
            return results;
        }

        public int calls() {
            return calls.size();
        }

        private void profiledRun() {
            if (nanos == null) {
                nanos = new long[calls.size()];
            }
            for (int i = 0; i < calls.size(); i++) {
                long started = System.nanoTime();
                calls.get(i).run();
                nanos[i] += System.nanoTime() - started;
            }
            if (++runs % PROFILE_EVERY != 0) {
                return;
            }
            long total = java.util.Arrays.stream(nanos).sum();
            StringBuilder table = new StringBuilder(String.format("replayed step profile, mean of %d steps: %.2f ms in %d calls%n",
                    runs, total / 1e6 / runs, calls.size()));
            Integer[] order = new Integer[calls.size()];
            for (int i = 0; i < order.length; i++) {
                order[i] = i;
            }
            java.util.Arrays.sort(order, (a, b) -> Long.compare(nanos[b], nanos[a]));
            for (int i : order) {
                Call call = calls.get(i);
                StringBuilder shapes = new StringBuilder();
                for (INDArray input : call.context().getInputArrays()) {
                    shapes.append(java.util.Arrays.toString(input.shape())).append(' ');
                }
                table.append(String.format("%8.3f ms  %-12s %-18s %-6s %s%n", nanos[i] / 1e6 / runs, call.op().opName(),
                        call.op().getOwnName(), call.kernel().label, shapes));
            }
            org.slf4j.LoggerFactory.getLogger(StepReplay.class).info(table.toString());
        }

        /** Calls run by {@code kernel}. */
        public int calls(Kernel kernel) {
            return (int) calls.stream().filter(call -> call.kernel() == kernel).count();
        }

        @Override
        public void close() {
            // A fused call shares its context with a call it replaced: close each context once.
            Set<OpContext> closed = Collections.newSetFromMap(new IdentityHashMap<>());
            java.util.stream.Stream.concat(calls.stream(), retired.stream())
                    .filter(call -> closed.add(call.context()))
                    .forEach(Call::close);
        }
    }

    /** Records the native ops of one SameDiff execution, for {@link #plan}. */
    public static final class Recorder extends BaseListener {
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
            calls.add(new Call(function, context, null, Kernel.NATIVE));
        }

        /**
         * The recorded step as a plan, or null if it cannot be replayed exactly. {@code fed}: the
         * placeholder arrays given to SameDiff; {@code results}: the arrays it returned, by name.
         */
        public Plan plan(Map<String, INDArray> fed, Map<String, INDArray> results) {
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
            boolean shortcuts = NativeShortcuts.enabled();
            boolean vectors = VectorKernels.enabled();
            VectorKernels.Scratch scratch = new VectorKernels.Scratch();
            List<Call> retired = new ArrayList<>();
            List<Call> recorded = calls;
            if (shortcuts && Boolean.parseBoolean(System.getProperty(GradientCopyElision.PROPERTY, "true"))) {
                recorded = GradientCopyElision.elide(recorded, results.values(), retired);
            }
            List<Call> planned = recorded.stream().map(call -> call.replaced(shortcuts, vectors, scratch)).toList();
            if (vectors) {
                planned = LayerNormFusion.fuse(planned, results.values(), retired);
                if (Boolean.parseBoolean(System.getProperty(HeadLayouts.PROPERTY, "true"))) {
                    planned = HeadLayouts.fold(planned, results.values(), retired);
                }
                if (Boolean.parseBoolean(System.getProperty(AttentionFusion.PROPERTY, "true"))) {
                    planned = AttentionFusion.fuse(planned, results.values(), retired);
                }
                if (Boolean.parseBoolean(System.getProperty(ReluFusion.PROPERTY, "true"))) {
                    planned = ReluFusion.fuse(planned, results.values(), retired);
                }
                if (Boolean.parseBoolean(System.getProperty(EmbeddingLookupFusion.PROPERTY, "true"))) {
                    planned = EmbeddingLookupFusion.fuse(planned, results.values(), retired);
                }
            }
            if (Boolean.getBoolean("langid.step_replay.dump")) {
                dump(planned);
            }
            return new Plan(List.copyOf(planned), List.copyOf(retired), new LinkedHashMap<>(fed), new LinkedHashMap<>(results));
        }

        /** -Dlangid.step_replay.dump=true: the log gets every call of the plan with its arrays, numbered by first use. */
        private static void dump(List<Call> planned) {
            Map<INDArray, Integer> ids = new IdentityHashMap<>();
            StringBuilder table = new StringBuilder("recorded step, " + planned.size() + " calls (array #id shape):\n");
            for (int i = 0; i < planned.size(); i++) {
                Call call = planned.get(i);
                table.append(String.format("%4d %-16s %-22s %-6s", i, call.op().opName(), call.op().getOwnName(), call.kernel().label));
                for (INDArray input : call.context().getInputArrays()) {
                    table.append(" #").append(ids.computeIfAbsent(input, a -> ids.size())).append(java.util.Arrays.toString(input.shape()));
                }
                table.append(" ->");
                for (INDArray output : call.context().getOutputArrays()) {
                    table.append(" #").append(ids.computeIfAbsent(output, a -> ids.size())).append(java.util.Arrays.toString(output.shape()));
                }
                table.append(" i").append(call.context().getIArguments()).append('\n');
            }
            org.slf4j.LoggerFactory.getLogger(StepReplay.class).info(table.toString());
        }

        /** The calls recorded so far, as SameDiff ran them (tests build plans from them). */
        public List<Call> recorded() {
            return List.copyOf(calls);
        }

        public String unsupported() {
            return unsupported;
        }

        private Plan discard() {
            calls.forEach(Call::close);
            return null;
        }
    }
}
