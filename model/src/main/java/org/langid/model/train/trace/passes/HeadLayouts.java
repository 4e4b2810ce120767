package org.langid.model.train.trace.passes;

import java.util.BitSet;
import java.util.List;
import org.langid.model.train.kernels.NativeShortcuts;
import org.langid.model.train.kernels.VectorKernels;
import org.langid.model.train.trace.Call;
import org.langid.model.train.trace.passes.StepDataflow.Value;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Drops the copies that split and join the attention's heads around its batched products. The
 * graph turns (B·T, H·C) rows into (B, H, T, C) blocks with a reshape (a copy) and a permute (a
 * second copy), and back the same way; the products on the vector API
 * ({@link VectorKernels.BatchedProducts}) can read and write the (B, T, H, C) layout in place
 * instead. A permute is dropped only when every call reading its result is such a product, the
 * array read instead is still unchanged where they run, and, for results, nothing reads or
 * writes the array written instead between the product and the copies it replaces. The values
 * are the same floats in the same order: exact.
 *
 * <p>Pattern: {@code Attention.splitHeads} and the join in {@code Attention.multiHead} (marked there).
 */
final class HeadLayouts {

    private HeadLayouts() {
    }

    /** {@code calls} without the copies the products can take over; the dropped calls go to {@code retired}. */
    static List<Call> fold(List<Call> calls, java.util.Collection<INDArray> results, List<Call> retired) {
        StepDataflow f = new StepDataflow(calls, results);
        BitSet dropped = new BitSet();
        for (int permute = 0; permute < calls.size(); permute++) {
            if (!headPermute(f, permute)) {
                continue;
            }
            if (!foldRead(f, permute, dropped)) {
                foldWrite(f, permute, dropped);
            }
        }
        return dropped.isEmpty() ? calls : StepDataflow.rewritten(calls, java.util.Map.of(), dropped, retired);
    }

    /**
     * The permute (B, T, H, C) → (B, H, T, C) read only by products: they read its input (or the
     * rows the copy before it copied) instead.
     */
    private static boolean foldRead(StepDataflow f, int permute, BitSet dropped) {
        Value permuted = f.out(permute, 0);
        List<Integer> readers = dataReaders(f, permuted);
        if (readers.isEmpty()) {
            return false;
        }
        int last = -1;
        for (int reader : readers) {
            if (!(reader < f.calls.size() && f.calls.get(reader).replacement() instanceof VectorKernels.BatchedProducts)) {
                return false;
            }
            last = Math.max(last, reader);
        }
        Value input = f.in(permute, 0);
        Value source = input;
        int copy = input.call();
        boolean dropCopy = copy >= 0 && isCopy(f, copy) && dataReaders(f, input).equals(List.of(permute));
        if (dropCopy && f.untouched(f.in(copy, 0).array(), f.in(copy, 0).call(), last + 1, new BitSet())) {
            source = f.in(copy, 0);
        } else {
            dropCopy = false;
            if (!f.untouched(input.array(), input.call(), last + 1, new BitSet())) {
                return false;
            }
        }
        for (int reader : readers) {
            ((VectorKernels.BatchedProducts) f.calls.get(reader).replacement()).readThroughHeads(permuted.array(), source.array());
        }
        dropped.set(permute);
        if (dropCopy) {
            dropped.set(copy);
        }
        return true;
    }

    /**
     * The permute (B, H, T, C) → (B, T, H, C) of one product's result, read by nothing else: the
     * product writes (B, T, H, C) itself, into the permute's result or the copy after it.
     */
    private static boolean foldWrite(StepDataflow f, int permute, BitSet dropped) {
        Value input = f.in(permute, 0);
        int product = input.call();
        if (product < 0 || !(f.calls.get(product).replacement() instanceof VectorKernels.BatchedProducts products)
                || !products.writes(input.array()) || !dataReaders(f, input).equals(List.of(permute))) {
            return false;
        }
        Value permuted = f.out(permute, 0);
        Value target = permuted;
        int end = permute;
        List<Integer> readers = dataReaders(f, permuted);
        BitSet skipped = (BitSet) dropped.clone();
        skipped.set(permute);
        if (readers.size() == 1 && readers.get(0) < f.calls.size() && isCopy(f, readers.get(0))) {
            int copy = readers.get(0);
            skipped.set(copy);
            if (f.unused(f.out(copy, 0).array(), product, copy + 1, skipped)) {
                target = f.out(copy, 0);
                end = copy;
            } else {
                skipped.clear(copy);
            }
        }
        // Written at the product now, instead of later: nothing in between may read or write the target array.
        if (!f.unused(target.array(), product, end + 1, skipped)) {
            return false;
        }
        products.writeThroughHeads(input.array(), target.array());
        dropped.set(permute);
        if (end != permute) {
            dropped.set(end);
        }
        return true;
    }

    /** The calls reading {@code value}'s floats: all its readers but {@code shape_of}, which reads only the (unchanged) shape. */
    private static List<Integer> dataReaders(StepDataflow f, Value value) {
        return f.readersOf(value).stream().filter(reader -> reader >= f.calls.size() || !"shape_of".equals(f.op(reader))).toList();
    }

    /** A permute swapping dimensions 1 and 2 of dense rank-4 arrays, on the vector API. */
    private static boolean headPermute(StepDataflow f, int call) {
        Call c = f.calls.get(call);
        return "permute".equals(c.op().opName()) && c.kernel() == Call.Kernel.VECTOR
                && c.context().getIArguments().equals(List.of(0L, 2L, 1L, 3L))
                && c.context().getInputArrays().get(0).rank() == 4 && c.context().getOutputArrays().get(0).rank() == 4;
    }

    /** A reshape between dense arrays, run as one memory copy (NativeShortcuts): the same floats in the same order. */
    private static boolean isCopy(StepDataflow f, int call) {
        Call c = f.calls.get(call);
        return "reshape".equals(c.op().opName()) && c.kernel() == Call.Kernel.SHORTCUT;
    }
}
