package org.langid.model.train.trace.passes;

import static org.langid.model.train.trace.passes.StepDataflow.same;

import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.langid.model.train.kernels.VectorKernels;
import org.langid.model.train.kernels.VectorMath;
import org.langid.model.train.trace.Call;
import org.langid.model.train.trace.passes.StepDataflow.Value;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.ScalarOp;

/**
 * Finds the feed-forward's ReLUs of a recorded step ({@code LanguageIdGraph.relu}: X·cast(X > 0),
 * three native calls forward and a {@code multiply_bp} backward, each a pass over the (N, FFN)
 * activations, the backward also writing the mask's unused gradient) and runs each direction as
 * one pass ({@link VectorMath#relu}, {@link VectorMath#reluGradient}). The passes multiply by the
 * same 1 or 0 the mask held, so their results are the composed form's bit for bit; a ReLU is only
 * fused when its calls are exactly that form, its mask is read by nothing else and X is intact
 * where the passes read it.
 *
 * <p>Pattern: {@code LanguageIdGraph.relu} (marked there).
 */
final class ReluFusion {

    private ReluFusion() {
    }

    private record Match(BitSet calls, int forwardAt, int backwardAt, INDArray x, INDArray y, INDArray dy, INDArray dx) {
    }

    /** {@code calls} with each ReLU it can fuse replaced by its two passes; the calls fused away go to {@code retired}. */
    static List<Call> fuse(List<Call> calls, java.util.Collection<INDArray> results, List<Call> retired) {
        StepDataflow flow = new StepDataflow(calls, results);
        BitSet taken = new BitSet();
        List<Match> matches = flow.matches("greaterthan_scalar", i -> match(flow, i), Match::calls, taken);
        if (matches.isEmpty()) {
            return calls;
        }
        Map<Integer, Runnable> fused = new HashMap<>();
        for (Match m : matches) {
            int n = (int) m.x.length();
            fused.put(m.forwardAt, () -> VectorMath.relu(m.x.data().asNio(), m.y.data().asNio(), n));
            fused.put(m.backwardAt, () -> VectorMath.reluGradient(m.x.data().asNio(), m.dy.data().asNio(), m.dx.data().asNio(), n));
        }
        return StepDataflow.rewritten(calls, fused, taken, retired);
    }

    /** The ReLU whose comparison is call {@code compare}, or null if anything differs from X·cast(X > 0). */
    private static Match match(StepDataflow f, int compare) {
        if (!(f.calls.get(compare).op() instanceof ScalarOp scalar) || scalar.scalar() == null || scalar.scalar().getDouble(0) != 0.0
                || f.calls.get(compare).context().getInputArrays().size() != 1) {
            return null;
        }
        Value x = f.in(compare, 0);
        int cast = f.reader(f.out(compare, 0), "cast", 0);
        if (cast < 0 || f.out(cast, 0).array().dataType() != DataType.FLOAT) {
            return null;
        }
        Value mask = f.out(cast, 0);
        int multiply = -1;
        int gradient = -1;
        for (int reader : f.readersOf(mask)) {
            if (reader < f.calls.size() && "multiply".equals(f.op(reader)) && readsBoth(f, reader, x, mask)) {
                multiply = reader;
            } else if (reader < f.calls.size() && "multiply_bp".equals(f.op(reader)) && readsBoth(f, reader, x, mask)) {
                gradient = reader;
            }
        }
        if (multiply < 0 || gradient < 0 || gradient < multiply) {
            return null;
        }
        int xSlot = same(f.in(gradient, 0), x) ? 0 : 1;   // multiply_bp writes the gradient of input i to output i
        BitSet calls = new BitSet();
        calls.set(compare);
        calls.set(cast);
        calls.set(multiply);
        calls.set(gradient);
        Value y = f.out(multiply, 0);
        Value dx = f.out(gradient, xSlot);
        Value dy = f.in(gradient, 2);
        // The comparison, the mask and the mask's gradient are read by the fused calls alone.
        if (!f.readWithin(calls, List.of(y, dx))) {
            return null;
        }
        BitSet skipped = (BitSet) calls.clone();
        skipped.clear(multiply);
        if (!f.untouched(x.array(), x.call(), gradient, skipped)
                || !VectorKernels.denseFloats(x.array(), y.array(), dy.array(), dx.array())
                || !Arrays.equals(y.array().shape(), x.array().shape()) || !Arrays.equals(dy.array().shape(), x.array().shape())
                || !Arrays.equals(dx.array().shape(), x.array().shape())) {
            return null;
        }
        return new Match(calls, multiply, gradient, x.array(), y.array(), dy.array(), dx.array());
    }

    /** Whether {@code call}'s first two inputs are {@code a} and {@code b}, in either order, and nothing else but a third. */
    private static boolean readsBoth(StepDataflow f, int call, Value a, Value b) {
        int inputs = f.calls.get(call).context().getInputArrays().size();
        boolean expected = "multiply".equals(f.op(call)) ? inputs == 2 : inputs == 3;
        return expected && ((same(f.in(call, 0), a) && same(f.in(call, 1), b)) || (same(f.in(call, 0), b) && same(f.in(call, 1), a)));
    }
}
