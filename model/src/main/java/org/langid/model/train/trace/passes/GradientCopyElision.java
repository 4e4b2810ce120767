package org.langid.model.train.trace.passes;

import static org.langid.model.train.trace.passes.StepDataflow.same;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import org.langid.model.train.kernels.NativeShortcuts;
import org.langid.model.train.trace.Call;
import org.langid.model.train.trace.passes.StepDataflow.Value;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Removes the gradient copies of a recorded step: {@code add_bp} of Z = X + Y with X, Y and Z of
 * one shape writes dX = dY = dZ, and {@code biasadd_bp} writes dX = dZ beside the bias's gradient.
 * Each copy is an array of the activations' size (4 MB at batch 1024) that is only read. The
 * readers of a copy read dZ itself instead; an {@code add_bp} is then dropped, and a
 * {@code biasadd_bp} writes its dX onto dZ, which {@link NativeShortcuts} skips. Exact: the readers
 * get the same floats from another array. A copy is only removed when it is no step result, dZ's
 * array is not written again before its last new reader runs, and no reader writes the array it
 * now reads.
 *
 * <p>Runs on the recorded calls before any replacement or fusion, which then see the new data flow.
 * Pattern: the residual adds in {@code LanguageIdGraph.define} and the bias adds of
 * {@code Attention.linear} (marked there).
 */
final class GradientCopyElision {

    private GradientCopyElision() {
    }

    /**
     * {@code calls} without the copying add_bp calls (moved to {@code retired}) and with each copying
     * biasadd_bp's dX written onto its dZ, the copies' readers rewired to the incoming gradient.
     */
    static List<Call> elide(List<Call> calls, java.util.Collection<INDArray> results, List<Call> retired) {
        return elide(calls, results, retired, new int[1]);
    }

    /** As {@link #elide(List, java.util.Collection, List)}, counting in {@code rewired[0]} the biasadd_bp calls that now write onto dZ. */
    static List<Call> elide(List<Call> calls, java.util.Collection<INDArray> results, List<Call> retired, int[] rewired) {
        BitSet dropped = new BitSet();
        StepDataflow flow = new StepDataflow(calls, results);
        for (int i = 0; i < calls.size(); i++) {
            if ("add_bp".equals(flow.op(i)) && elidable(flow, i, 2, new int[] {0, 1}, dropped)) {
                rewire(flow, i, new int[] {0, 1});
                dropped.set(i);
            } else if ("biasadd_bp".equals(flow.op(i)) && elidable(flow, i, 1, new int[] {0}, dropped)) {
                rewire(flow, i, new int[] {0});
                calls.get(i).context().setOutputArray(0, flow.in(i, 2).array());   // dX written onto dZ: the same floats
                rewired[0]++;
            } else {
                continue;
            }
            flow = new StepDataflow(calls, results);   // the rewiring changed who reads what
        }
        return dropped.isEmpty() ? calls : StepDataflow.rewritten(calls, java.util.Map.of(), dropped, retired);
    }

    /**
     * Whether the outputs {@code copies} of {@code call} (inputs (X, ·, dZ), two outputs) are copies of
     * dZ that can go: its first {@code sameShaped} inputs and those outputs have dZ's shape and type.
     */
    private static boolean elidable(StepDataflow f, int call, int sameShaped, int[] copies, BitSet dropped) {
        List<INDArray> in = f.calls.get(call).context().getInputArrays();
        List<INDArray> out = f.calls.get(call).context().getOutputArrays();
        if (dropped.get(call) || in.size() != 3 || out.size() != 2) {
            return false;
        }
        Value dz = f.in(call, 2);
        long[] shape = dz.array().shape();
        List<INDArray> shaped = new ArrayList<>(in.subList(0, sameShaped));
        for (int slot : copies) {
            shaped.add(out.get(slot));
        }
        for (INDArray array : shaped) {
            if (!Arrays.equals(array.shape(), shape) || array.dataType() != dz.array().dataType()) {
                return false;   // a broadcast: the gradient is summed, not copied
            }
        }
        int last = call;
        for (int slot : copies) {
            for (int reader : f.readersOf(f.out(call, slot))) {
                if (reader >= f.calls.size()) {
                    return false;   // a step result
                }
                if (f.writes.get(reader).contains(dz.array())) {
                    return false;   // would write the array it now reads
                }
                last = Math.max(last, reader);
            }
        }
        // dZ's array must hold dZ until the last reader: nothing in between writes it.
        return f.untouched(dz.array(), dz.call(), last, dropped);
    }

    /** Every input of a later call that reads output {@code copies} of {@code call} reads dZ's array instead. */
    private static void rewire(StepDataflow f, int call, int[] copies) {
        Value dz = f.in(call, 2);
        for (int slot : copies) {
            Value copy = f.out(call, slot);
            for (int reader : f.readersOf(copy)) {
                for (int input = 0; input < f.inputs[reader].length; input++) {
                    if (same(f.in(reader, input), copy)) {
                        f.calls.get(reader).context().setInputArray(input, dz.array());
                    }
                }
            }
        }
    }
}
