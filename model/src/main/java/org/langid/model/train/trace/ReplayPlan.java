package org.langid.model.train.trace;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A recorded step replayed without SameDiff's session: its calls, the arrays its placeholders were
 * read from, and its results. Made by {@link StepRecorder#plan}. Not thread-safe: the calls share
 * their arrays from one run to the next.
 */
public final class ReplayPlan implements AutoCloseable {
    private final List<Call> calls;
    private final List<Call> retired;   // replaced by fused calls: kept to close their contexts
    private final Map<String, INDArray> placeholders;
    private final Map<String, INDArray> results;
    /** Diagnostics: every this many runs the log gets the calls by their mean time; 0: untimed. */
    private final int profileEvery;
    private long[] nanos;
    private int runs;

    ReplayPlan(List<Call> calls, List<Call> retired, Map<String, INDArray> placeholders, Map<String, INDArray> results, int profileEvery) {
        this.calls = calls;
        this.retired = retired;
        this.placeholders = placeholders;
        this.results = results;
        this.profileEvery = profileEvery;
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
        if (profileEvery > 0) {
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

    /** Calls run by {@code kernel}. */
    public int calls(Call.Kernel kernel) {
        return (int) calls.stream().filter(call -> call.kernel() == kernel).count();
    }

    /** Every call of the plan with its arrays, numbered by first use (the data flow the rewrite passes read). */
    public String describe() {
        Map<INDArray, Integer> ids = new IdentityHashMap<>();
        StringBuilder table = new StringBuilder("recorded step, " + calls.size() + " calls (array #id shape):\n");
        for (int i = 0; i < calls.size(); i++) {
            table.append(String.format("%4d ", i)).append(calls.get(i).describe(ids)).append('\n');
        }
        return table.toString();
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
        if (++runs % profileEvery != 0) {
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
        org.slf4j.LoggerFactory.getLogger(ReplayPlan.class).info(table.toString());
    }

    @Override
    public void close() {
        // A fused call shares its context with a call it replaced: close each context once.
        Set<org.nd4j.linalg.api.ops.OpContext> closed = Collections.newSetFromMap(new IdentityHashMap<>());
        java.util.stream.Stream.concat(calls.stream(), retired.stream())
                .filter(call -> closed.add(call.context()))
                .forEach(Call::close);
    }
}
