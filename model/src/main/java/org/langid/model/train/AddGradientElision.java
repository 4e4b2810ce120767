package org.langid.model.train;

import static org.langid.model.train.StepDataflow.same;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import org.langid.model.train.StepDataflow.Value;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Drops the {@code add_bp} calls of a recorded step whose two outputs are plain copies of the
 * gradient they receive (Z = X + Y with X, Y and Z of one shape: dX = dY = dZ), and has their
 * readers read dZ itself. Each such call wrote two arrays of the activations' size (4 MB each at
 * batch 1024) that were only read. Exact: the readers get the same floats from another array. A
 * call is only dropped when its outputs are no step result, dZ's array is not written again
 * before its last new reader runs, and no reader writes the array it now reads.
 *
 * <p>Runs on the recorded calls before any replacement or fusion, which then see the new data flow.
 */
final class AddGradientElision {

    /** -Dlangid.step_replay.add_gradient_elision=false keeps the copies. */
    static final String PROPERTY = "langid.step_replay.add_gradient_elision";

    private AddGradientElision() {
    }

    /** {@code calls} without the copying add_bp calls (moved to {@code retired}), their readers rewired to the incoming gradient. */
    static List<StepReplay.Call> elide(List<StepReplay.Call> calls, java.util.Collection<INDArray> results, List<StepReplay.Call> retired) {
        BitSet dropped = new BitSet();
        for (int i = 0; i < calls.size(); i++) {
            // The data flow changes with each rewiring: read it afresh.
            StepDataflow flow = new StepDataflow(calls, results);
            if ("add_bp".equals(flow.op(i)) && !dropped.get(i) && elidable(flow, i, dropped)) {
                rewire(flow, i);
                dropped.set(i);
            }
        }
        if (dropped.isEmpty()) {
            return calls;
        }
        List<StepReplay.Call> kept = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            (dropped.get(i) ? retired : kept).add(calls.get(i));
        }
        return kept;
    }

    private static boolean elidable(StepDataflow f, int call, BitSet dropped) {
        List<INDArray> in = f.calls.get(call).context().getInputArrays();
        List<INDArray> out = f.calls.get(call).context().getOutputArrays();
        if (in.size() != 3 || out.size() != 2) {
            return false;
        }
        Value dz = f.in(call, 2);
        long[] shape = dz.array().shape();
        for (INDArray array : List.of(in.get(0), in.get(1), out.get(0), out.get(1))) {
            if (!Arrays.equals(array.shape(), shape) || array.dataType() != dz.array().dataType()) {
                return false;   // a broadcast: the gradient is summed, not copied
            }
        }
        int last = call;
        for (int slot = 0; slot < 2; slot++) {
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
        return f.untouched(dz.array(), dz.call(), last, dropped) && (dz.call() < 0 || same(f.in(call, 2), dz));
    }

    /** Every input of a later call that reads an output of {@code call} reads dZ's array instead. */
    private static void rewire(StepDataflow f, int call) {
        Value dz = f.in(call, 2);
        for (int slot = 0; slot < 2; slot++) {
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
