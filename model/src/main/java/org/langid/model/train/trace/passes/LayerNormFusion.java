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
 * Finds the layer norms of a recorded training step ({@code LanguageIdGraph.layerNorm}: twelve
 * native calls forward, fifteen backward, each a pass over (N, d) rows) and runs each direction as
 * one pass on the JDK's vector API ({@link VectorMath#layerNorm}, {@link VectorMath#layerNormGradient}).
 * The composed form has to stay in the graph (libnd4j's own layer_norm has no epsilon and measured
 * slower); here its calls are recognised by their data flow, and a layer norm is only fused when
 * every call and every array matches what that method builds, its intermediates are read by no
 * other call, and the fused calls' inputs are still intact where they run. Anything else stays
 * as recorded.
 *
 * <p>The fused forward writes Y where the bias add wrote it; the backward writes the input's
 * gradient (with the gradient the input receives from elsewhere, which the composed form added
 * in two more calls), the gain's and the bias's gradients where the composed form's last calls
 * wrote them. Mathematically the same derivative; results agree to float rounding.
 *
 * <p>Pattern: {@code LanguageIdGraph.layerNorm} (marked there).
 */
final class LayerNormFusion {

    private LayerNormFusion() {
    }

    /** One layer norm's calls, and what its fused passes read and write. */
    private record Match(BitSet calls, int forwardAt, int backwardAt, Value x, INDArray gain, INDArray bias, double epsilon,
                         INDArray y, Value dy, Value other, INDArray dx, INDArray dGain, INDArray dBias) {
    }

    /**
     * {@code calls} with each layer norm it can fuse replaced by its two fused calls; the calls
     * fused away go to {@code retired} (their contexts are closed with the plan).
     */
    static List<Call> fuse(List<Call> calls, java.util.Collection<INDArray> results, List<Call> retired) {
        StepDataflow flow = new StepDataflow(calls, results);
        BitSet taken = new BitSet();
        List<Match> matches = flow.matches("reduce_mean", i -> match(flow, i), Match::calls, taken);
        if (matches.isEmpty()) {
            return calls;
        }
        Map<Integer, Runnable> fused = new HashMap<>();
        for (Match m : matches) {
            int d = (int) m.gain.length();
            int rows = (int) (m.x.array().length() / d);
            fused.put(m.forwardAt, () -> VectorMath.layerNorm(m.x.array().data().asNio(), m.gain.data().asNio(), m.bias.data().asNio(),
                    (float) m.epsilon, m.y.data().asNio(), rows, d));
            fused.put(m.backwardAt, () -> VectorMath.layerNormGradient(m.x.array().data().asNio(), m.dy.array().data().asNio(),
                    m.gain.data().asNio(), (float) m.epsilon, m.other == null ? null : m.other.array().data().asNio(),
                    m.dx.data().asNio(), m.dGain.data().asNio(), m.dBias.data().asNio(), rows, d));
        }
        return StepDataflow.rewritten(calls, fused, taken, retired);
    }

    /** The layer norm whose first call is the row mean {@code first}, or null if anything differs. */
    private static Match match(StepDataflow f, int first) {
        BitSet calls = new BitSet();
        // Forward: M = mean(X); C = X − M; S = C·C; V = mean(S); Ve = V + ε; R = rsqrt(Ve); Pw = pow(Ve);
        // RX = R·ones(1, d); P = Pw·s; N = C·RX; Sc = N·GX (GX = ones(N, 1)·gain(1, d)); Y = Sc + bias
        Value x = f.in(first, 0);
        INDArray xa = x.array();
        if (xa.rank() != 2 || xa.dataType() != DataType.FLOAT || f.calls.get(first).context().getInputArrays().size() != 1) {
            return null;
        }
        int d = (int) xa.size(1);
        Value m = f.out(first, 0);
        int c1 = f.reader(m, "subtract", 1);
        if (c1 < 0 || !same(f.in(c1, 0), x)) {
            return null;
        }
        Value c = f.out(c1, 0);
        int c2 = -1;
        for (int r : f.readersOf(c)) {
            if (r < f.calls.size() && "multiply".equals(f.op(r)) && same(f.in(r, 0), c) && same(f.in(r, 1), c)) {
                c2 = r;
            }
        }
        if (c2 < 0) {
            return null;
        }
        int c3 = next(f, c2, 0, "reduce_mean", 0);
        int c4 = next(f, c3, 0, "add_scalar", 0);
        int c5 = next(f, c4, 0, "rsqrt", 0);
        int c6 = next(f, c4, 0, "pow", 0);
        int c7 = next(f, c5, 0, "matmul", 0);
        int c8 = next(f, c6, 0, "mul_scalar", 0);
        int c9 = next(f, c7, 0, "multiply", 1);
        if (c8 < 0 || c9 < 0 || !same(f.in(c9, 0), c) || !ones(f.in(c7, 1).array(), 1, d)
                || !(f.calls.get(c4).op() instanceof ScalarOp scalar) || scalar.scalar() == null) {
            return null;
        }
        double epsilon = scalar.scalar().getDouble(0);
        int c10 = next(f, c9, 0, "multiply", 0);
        if (c10 < 0) {
            return null;
        }
        Value gx = f.in(c10, 1);
        int expand = gx.call();
        if (expand < 0 || !"matmul".equals(f.op(expand)) || !"ones_as".equals(opOf(f, f.in(expand, 0))) || f.in(expand, 1).call() < 0
                || !"reshape".equals(f.op(f.in(expand, 1).call()))) {
            return null;
        }
        INDArray gain = f.in(f.in(expand, 1).call(), 0).array();
        int c11 = next(f, c10, 0, "biasadd", 0);
        if (c11 < 0 || gain.length() != d) {
            return null;
        }
        INDArray bias = f.in(c11, 1).array();
        int[] forward = {first, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11};

        // Backward: dSc, dBias = biasadd_bp(Sc, bias, dY); dN, dGX = multiply_bp(N, GX, dSc);
        // dOnes, dGainRow = matmul_bp(ones, gainRow, dGX); dGain = reshape(dGainRow); dC1, dRX = multiply_bp(C, RX, dN);
        // dR, dOnesRow = matmul_bp(R, onesRow, dRX); dVe = dR·P; dS = reduce_mean_bp(S, dVe); dC2, dC3 = multiply_bp(C, C, dS);
        // dC = dC1 + dC2 + dC3; dX1, dM = subtract_bp(X, M, dC); dX2 = reduce_mean_bp(X, dM); dX = [other +] dX1 + dX2
        int b0 = next(f, c10, 0, "biasadd_bp", 0);
        int b1 = next(f, b0, 0, "multiply_bp", 2);
        int b2 = next(f, b1, 1, "matmul_bp", 2);
        int b3 = next(f, b2, 1, "reshape", 0);
        int b4 = next(f, b1, 0, "multiply_bp", 2);
        int b5 = next(f, b4, 1, "matmul_bp", 2);
        int b6 = next(f, b5, 0, "multiply", -1);
        int b7 = next(f, b6, 0, "reduce_mean_bp", 1);
        int b8 = next(f, b7, 0, "multiply_bp", 2);
        if (b8 < 0 || !same(f.in(b1, 0), f.out(c9, 0)) || !same(f.in(b1, 1), gx) || !same(f.in(b4, 0), c) || !same(f.in(b4, 1), f.out(c7, 0))
                || !same(f.in(b5, 0), f.out(c5, 0)) || !same(f.in(b2, 1), f.in(expand, 1)) || !same(f.in(b8, 0), c) || !same(f.in(b8, 1), c)
                || !same(f.in(b7, 0), f.out(c2, 0)) || !(same(f.in(b6, 0), f.out(c8, 0)) || same(f.in(b6, 1), f.out(c8, 0)))) {
            return null;
        }
        int b9 = sum(f, f.out(b4, 0), f.out(b8, 0));
        int b10 = b9 < 0 ? -1 : sum(f, f.out(b9, 0), f.out(b8, 1));
        int b11 = next(f, b10, 0, "subtract_bp", 2);
        if (b11 < 0 || !same(f.in(b11, 0), x) || !same(f.in(b11, 1), m)) {
            return null;
        }
        int b12 = next(f, b11, 1, "reduce_mean_bp", 1);
        if (b12 < 0 || !same(f.in(b12, 0), x)) {
            return null;
        }
        Value dx1 = f.out(b11, 0);
        Value dx2 = f.out(b12, 0);
        int a1 = f.reader(dx1, "add", -1);
        if (a1 < 0) {
            return null;
        }
        Value other = null;
        int last = a1;
        int[] adds;
        if (isSum(f, a1, dx1, dx2)) {
            adds = new int[] {a1};
        } else {
            other = same(f.in(a1, 0), dx1) ? f.in(a1, 1) : f.in(a1, 0);
            last = next(f, a1, 0, "add", -1);
            if (last < 0 || !isSum(f, last, f.out(a1, 0), dx2)) {
                return null;
            }
            adds = new int[] {a1, last};
        }
        int[] backward = {b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12};
        for (int call : forward) {
            calls.set(call);
        }
        for (int call : backward) {
            calls.set(call);
        }
        for (int call : adds) {
            calls.set(call);
        }
        // The gain's expansion ones(N, 1)·gain goes too when only the norm's own calls read it (the passes read the gain).
        if (f.readersOf(gx).stream().allMatch(calls::get)) {
            calls.set(expand);
        }
        Value y = f.out(c11, 0);
        Value dy = f.in(b0, 2);
        Value dGain = f.out(b3, 0);
        Value dBias = f.out(b0, 1);
        Value dx = f.out(last, 0);
        // Whatever the fused calls do not write is read by fused-away calls only.
        if (!f.readWithin(calls, List.of(y, dGain, dBias, dx))) {
            return null;
        }
        // The forward runs where Y was written, the backward where dX was: their inputs must still be there,
        // and the gain's and bias's gradients, written later than before, must not be read or overwritten in between.
        int forwardAt = c11;
        int backwardAt = last;
        BitSet skipped = (BitSet) calls.clone();
        skipped.clear(forwardAt);   // runs, and writes Y only, as before
        if (!f.untouched(x.array(), x.call(), backwardAt, skipped) || !f.untouched(dy.array(), dy.call(), backwardAt, skipped)
                || (other != null && !f.untouched(other.array(), other.call(), backwardAt, skipped))
                || !f.untouched(gain, -1, backwardAt, skipped) || !f.untouched(bias, -1, forwardAt, skipped)
                || !movable(f, dGain, backwardAt, skipped) || !movable(f, dBias, backwardAt, skipped)
                || !VectorKernels.denseFloats(xa, y.array(), dy.array(), dx.array(), gain, bias, dGain.array(), dBias.array())
                || (other != null && !VectorKernels.denseFloats(other.array())) || !Arrays.equals(dx.array().shape(), xa.shape())
                || !Arrays.equals(dy.array().shape(), xa.shape()) || !Arrays.equals(y.array().shape(), xa.shape())
                || (other != null && !Arrays.equals(other.array().shape(), xa.shape()))
                || bias.length() != d || dGain.array().length() != d || dBias.array().length() != d) {
            return null;
        }
        return new Match(calls, forwardAt, backwardAt, x, gain, bias, epsilon, y.array(), dy, other, dx.array(), dGain.array(), dBias.array());
    }

    /**
     * The one call running {@code op} that reads output {@code slot} of call {@code from} in input
     * {@code inSlot} (any if −1), or −1; −1 also when {@code from} is (a link missing earlier in the chain).
     */
    private static int next(StepDataflow f, int from, int slot, String op, int inSlot) {
        return from < 0 ? -1 : f.reader(f.out(from, slot), op, inSlot);
    }

    /** The add call reading both {@code a} and {@code b}, or −1. */
    private static int sum(StepDataflow f, Value a, Value b) {
        for (int reader : f.readersOf(a)) {
            if (reader < f.calls.size() && isSum(f, reader, a, b)) {
                return reader;
            }
        }
        return -1;
    }

    private static boolean isSum(StepDataflow f, int call, Value a, Value b) {
        return "add".equals(f.op(call)) && f.calls.get(call).context().getInputArrays().size() == 2
                && ((same(f.in(call, 0), a) && same(f.in(call, 1), b)) || (same(f.in(call, 0), b) && same(f.in(call, 1), a)));
    }

    /** A value written at its call may instead be written at {@code to}: nothing reads it before, nothing writes its array between. */
    private static boolean movable(StepDataflow f, Value value, int to, BitSet skipped) {
        for (int reader : f.readersOf(value)) {
            if (reader <= to) {
                return false;
            }
        }
        return f.untouched(value.array(), value.call(), to + 1, skipped);
    }

    private static String opOf(StepDataflow f, Value value) {
        return value.call() < 0 ? "" : f.op(value.call());
    }

    private static boolean ones(INDArray array, long rows, long columns) {
        return array.rank() == 2 && array.size(0) == rows && array.size(1) == columns && array.dataType() == DataType.FLOAT
                && array.minNumber().doubleValue() == 1.0 && array.maxNumber().doubleValue() == 1.0;
    }
}
