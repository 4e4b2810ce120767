package org.langid.model.train.trace.passes;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.langid.model.train.trace.Call;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The data flow of a recorded step's calls: which call wrote each array a call reads (a value),
 * and which calls read each value (calls.size() standing for the step's results). SameDiff's
 * arena may hand an array to a later call once its value is dead, so values, not arrays, are
 * what flows. The rewrites of a plan ({@link LayerNormFusion}, {@link HeadLayouts}) check on it
 * that what they drop is read by nothing else and that what they read is still there.
 */
final class StepDataflow {

    /** A value: output {@code slot} of call {@code call} (or an array from outside the plan, call −1). */
    record Value(int call, int slot, INDArray array) {
    }

    final List<Call> calls;
    final Value[][] inputs;
    final Map<Long, List<Integer>> readers = new HashMap<>();   // key(call, slot) -> reading calls (calls.size(): the step's results)
    final List<Set<INDArray>> writes = new ArrayList<>();   // by call, the arrays it writes (identity)
    final List<Set<INDArray>> reads = new ArrayList<>();    // by call, the arrays it reads (identity)

    StepDataflow(List<Call> calls, java.util.Collection<INDArray> results) {
        this.calls = calls;
        inputs = new Value[calls.size()][];
        Map<INDArray, Value> last = new IdentityHashMap<>();
        for (int i = 0; i < calls.size(); i++) {
            List<INDArray> in = calls.get(i).context().getInputArrays();
            inputs[i] = new Value[in.size()];
            reads.add(identitySet(in));
            for (int s = 0; s < in.size(); s++) {
                Value value = last.get(in.get(s));
                inputs[i][s] = value != null ? value : new Value(-1, 0, in.get(s));
                if (value != null) {
                    readers.computeIfAbsent(key(value.call, value.slot), k -> new ArrayList<>()).add(i);
                }
            }
            List<INDArray> out = calls.get(i).context().getOutputArrays();
            for (int s = 0; s < out.size(); s++) {
                last.put(out.get(s), new Value(i, s, out.get(s)));
            }
            writes.add(identitySet(out));
        }
        for (INDArray result : results) {
            Value value = last.get(result);
            if (value != null) {
                readers.computeIfAbsent(key(value.call, value.slot), k -> new ArrayList<>()).add(calls.size());
            }
        }
    }

    static long key(int call, int slot) {
        return ((long) call << 8) | slot;
    }

    Value out(int call, int slot) {
        return new Value(call, slot, calls.get(call).context().getOutputArrays().get(slot));
    }

    Value in(int call, int slot) {
        return inputs[call][slot];
    }

    List<Integer> readersOf(Value value) {
        return value.call < 0 ? List.of() : readers.getOrDefault(key(value.call, value.slot), List.of());
    }

    String op(int call) {
        return calls.get(call).op().opName();
    }

    int outputs(int call) {
        return calls.get(call).context().getOutputArrays().size();
    }

    /** The one call reading {@code value} that runs {@code op} and reads it in {@code slot} (any if −1), or −1. */
    int reader(Value value, String op, int slot) {
        int found = -1;
        for (int reader : readersOf(value)) {
            if (reader < calls.size() && op.equals(op(reader)) && (slot < 0 || same(in(reader, slot), value))) {
                if (found >= 0 && found != reader) {
                    return -1;
                }
                found = reader;
            }
        }
        return found;
    }

    /** Whether no call in (from, to) writes {@code array}, leaving out {@code skipped} (calls that will not run). */
    boolean untouched(INDArray array, int from, int to, BitSet skipped) {
        for (int i = Math.max(from + 1, 0); i < to; i++) {
            if (!skipped.get(i) && writes.get(i).contains(array)) {
                return false;
            }
        }
        return true;
    }

    /** Whether no call in (from, to), leaving out {@code skipped}, reads or writes {@code array}. */
    boolean unused(INDArray array, int from, int to, BitSet skipped) {
        for (int i = Math.max(from + 1, 0); i < to; i++) {
            if (!skipped.get(i) && (writes.get(i).contains(array) || reads.get(i).contains(array))) {
                return false;
            }
        }
        return true;
    }

    /** Whether every value the calls in {@code group} write, but those in {@code kept}, is read by calls in {@code group} only. */
    boolean readWithin(BitSet group, List<Value> kept) {
        for (int call = group.nextSetBit(0); call >= 0; call = group.nextSetBit(call + 1)) {
            for (int slot = 0; slot < outputs(call); slot++) {
                Value value = out(call, slot);
                if (kept.stream().anyMatch(k -> same(k, value))) {
                    continue;
                }
                for (int reader : readersOf(value)) {
                    if (!group.get(reader)) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /**
     * The matches {@code match} finds at the calls running {@code op}, in call order, each kept only
     * if none of its calls ({@code callsOf}) is in an earlier match; {@code taken} gets the kept ones' calls.
     */
    <M> List<M> matches(String op, java.util.function.IntFunction<M> match, java.util.function.Function<M, BitSet> callsOf, BitSet taken) {
        List<M> found = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            if (op.equals(op(i)) && !taken.get(i)) {
                M m = match.apply(i);
                if (m != null && !callsOf.apply(m).intersects(taken)) {
                    found.add(m);
                    taken.or(callsOf.apply(m));
                }
            }
        }
        return found;
    }

    /**
     * {@code calls} with those in {@code fusedAway} moved to {@code retired}, and before each call
     * index in {@code fused} (itself fused away) the fused pass run with that call's op and context.
     */
    static List<Call> rewritten(List<Call> calls, Map<Integer, Runnable> fused, BitSet fusedAway,
                                           List<Call> retired) {
        List<Call> planned = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            Call call = calls.get(i);
            if (fused.containsKey(i)) {
                planned.add(call.replacedBy(fused.get(i), Call.Kernel.FUSED));
            }
            (fusedAway.get(i) ? retired : planned).add(call);
        }
        return planned;
    }

    private static Set<INDArray> identitySet(List<INDArray> arrays) {
        Set<INDArray> set = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        set.addAll(arrays);
        return set;
    }

    /** The same value: the same call's same output, in the same array. */
    static boolean same(Value a, Value b) {
        return a.call() == b.call() && a.slot() == b.slot() && a.array() == b.array();
    }
}
