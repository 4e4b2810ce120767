package org.langid.model.train.trace.passes;

import static org.langid.model.train.trace.passes.StepDataflow.same;

import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.langid.model.train.kernels.AttentionMath;
import org.langid.model.train.kernels.VectorKernels.BatchedProducts;
import org.langid.model.train.kernels.VectorKernels.Operand;
import org.langid.model.train.kernels.VectorKernels.Product;
import org.langid.model.train.kernels.VectorKernels;
import org.langid.model.train.trace.Call;
import org.langid.model.train.trace.passes.StepDataflow.Value;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.ScalarOp;

/**
 * Finds each attention's core in a recorded training step ({@code Attention.scaledDotProduct}:
 * S = Q·Kᵀ, the scale, the mask, softmax, O = P·V, five calls forward and five backward, each a
 * pass over (B, H, T, T) or (B, H, T, C) arrays) and runs each direction as one pass per block
 * ({@link AttentionMath}). Runs after {@link HeadLayouts}, whose products may read Q, K, V and dO
 * and write O and the gradients in the heads' (B, T, H, C) layout: the fused passes take each
 * operand as the products had it. A core is fused only when every call matches, the scores, their
 * gradients and the mask's gradient are read by no other call, and what the fused passes read is
 * intact where they run. The forward runs where O was written (and writes P there, not earlier),
 * the backward where dV was (and writes dQ and dK there, not later). Same derivative; results agree
 * with the separate calls to float rounding.
 *
 * <p>Pattern: {@code Attention.scaledDotProduct} (marked there).
 */
final class AttentionFusion {

    private AttentionFusion() {
    }

    private record Match(BitSet calls, int forwardAt, int backwardAt, Runnable forward, Runnable backward) {
    }

    /** {@code calls} with each attention core it can fuse replaced by its two fused calls; the others go to {@code retired}. */
    static List<Call> fuse(List<Call> calls, java.util.Collection<INDArray> results, List<Call> retired) {
        StepDataflow flow = new StepDataflow(calls, results);
        BitSet taken = new BitSet();
        Map<Integer, Runnable> fused = new HashMap<>();
        for (int i = 0; i < calls.size(); i++) {
            if (!"matmul".equals(flow.op(i)) || taken.get(i)) {
                continue;
            }
            Match match = match(flow, i);
            if (match != null && !match.calls.intersects(taken)) {
                taken.or(match.calls);
                fused.put(match.forwardAt, match.forward);
                fused.put(match.backwardAt, match.backward);
            }
        }
        return fused.isEmpty() ? calls : StepDataflow.rewritten(calls, fused, taken, retired);
    }

    /** The attention core whose scores {@code first} computes, or null if anything differs from what the fused passes do. */
    private static Match match(StepDataflow f, int first) {
        // Forward: S0 = Q·Kᵀ; [S1 = S0·scale]; [S2 = S1 + M]; P = softmax(S2); O = P·V
        Product qk = single(f, first, 0, 1);
        if (qk == null || qk.transposeA() || !qk.transposeB() || qk.n() != qk.m()) {
            return null;
        }
        int t = qk.m();
        int c = qk.k();
        int blocks = qk.batch();
        BitSet calls = new BitSet();
        calls.set(first);
        Value s = f.out(first, 0);
        int scaling = f.reader(s, "mul_scalar", 0);
        Double scale = 1.0;
        if (scaling >= 0) {
            scale = scalar(f, scaling);
            if (scale == null) {
                return null;
            }
            calls.set(scaling);
            s = f.out(scaling, 0);
        }
        Value unmasked = s;
        int masking = f.reader(s, "add", -1);
        int maskSlot = -1;
        Value mask = null;
        if (masking >= 0) {
            if (f.calls.get(masking).context().getInputArrays().size() != 2 || same(f.in(masking, 0), f.in(masking, 1))) {
                return null;
            }
            maskSlot = same(f.in(masking, 0), s) ? 1 : 0;
            mask = f.in(masking, maskSlot);
            if (!VectorKernels.denseFloats(mask.array()) || !java.util.Arrays.equals(mask.array().shape(), s.array().shape())) {
                return null;
            }
            calls.set(masking);
            s = f.out(masking, 0);
        }
        Value scores = s;
        int softmax = f.reader(scores, "softmax", 0);
        if (softmax < 0 || !lastAxis(f, softmax)) {
            return null;
        }
        calls.set(softmax);
        Value p = f.out(softmax, 0);
        int weighing = f.reader(p, "matmul", 0);
        Product pv = weighing < 0 ? null : single(f, weighing, 0, 0);
        if (pv == null || pv.a().array() != p.array() || !dense(pv.a(), t) || pv.transposeA() || pv.transposeB()
                || pv.batch() != blocks || pv.m() != t || pv.k() != t || pv.n() != c
                || !VectorKernels.denseFloats(p.array()) || p.array().length() != (long) blocks * t * t) {
            return null;
        }
        calls.set(weighing);

        // Backward: dP, dV = matmul_bp(P, V, dO); dS2 = softmax_bp(S2, dP); [dS1, dM = add_bp(S1, M, dS2)];
        // [dS0 = dS1·scale]; dQ, dK = matmul_bp(Q, K, dS0)
        int weighingBack = f.reader(p, "matmul_bp", 0);
        List<Product> back = weighingBack < 0 ? null : products(f, weighingBack, 0, 0);
        if (back == null || !same(f.in(weighingBack, 1), f.in(weighing, 1))) {
            return null;
        }
        calls.set(weighingBack);
        int softmaxBack = f.reader(f.out(weighingBack, 0), "softmax_bp", 1);
        if (softmaxBack < 0 || !same(f.in(softmaxBack, 0), scores) || !f.calls.get(softmaxBack).context().getIArguments()
                .equals(f.calls.get(softmax).context().getIArguments())) {
            return null;
        }
        calls.set(softmaxBack);
        Value ds = f.out(softmaxBack, 0);
        int maskBack = mask == null ? -1 : f.reader(ds, "add_bp", 2);
        if (maskBack >= 0) {   // absent when GradientCopyElision had the next call read dS2 itself
            if (!same(f.in(maskBack, maskSlot), mask) || !same(f.in(maskBack, 1 - maskSlot), unmasked)) {
                return null;
            }
            calls.set(maskBack);
            ds = f.out(maskBack, 1 - maskSlot);
        }
        if (scaling >= 0) {
            int scalingBack = f.reader(ds, "mul_scalar", 0);
            if (scalingBack < 0 || !scale.equals(scalar(f, scalingBack))) {
                return null;
            }
            calls.set(scalingBack);
            ds = f.out(scalingBack, 0);
        }
        int scoresBack = f.reader(ds, "matmul_bp", 2);
        List<Product> scoresGradients = scoresBack < 0 ? null : products(f, scoresBack, 0, 1);
        if (scoresGradients == null || !same(f.in(scoresBack, 0), f.in(first, 0)) || !same(f.in(scoresBack, 1), f.in(first, 1))) {
            return null;
        }
        calls.set(scoresBack);

        // libnd4j's matmul_bp as VectorKernels splits it: (dP = dO·Vᵀ, dV = Pᵀ·dO) and (dQ = dS·K, dK = dSᵀ·Q).
        Product dP = back.get(0);
        Product dV = back.get(1);
        Product dQ = scoresGradients.get(0);
        Product dK = scoresGradients.get(1);
        if (!shaped(dP, blocks, t, c, t) || !shaped(dV, blocks, t, t, c) || !shaped(dQ, blocks, t, t, c) || !shaped(dK, blocks, t, t, c)
                || dP.transposeA() || !dP.transposeB() || !dV.transposeA() || dV.transposeB() || dV.a().array() != p.array()
                || dQ.transposeA() || dQ.transposeB() || !dK.transposeA() || dK.transposeB()) {
            return null;
        }
        Value dVValue = f.out(weighingBack, 1);
        Value dQValue = f.out(scoresBack, 0);
        Value dKValue = f.out(scoresBack, 1);
        // What the fused passes do not write is read by fused-away calls only.
        if (!f.readWithin(calls, List.of(p, f.out(weighing, 0), dVValue, dQValue, dKValue))) {
            return null;
        }
        int forwardAt = weighing;
        int backwardAt = weighingBack;
        // The forward reads Q, K and M later than before and writes P later; the backward reads Q and K
        // earlier and writes dQ and dK earlier. Nothing else may touch those arrays in between.
        for (int reader : f.readersOf(p)) {
            if (!calls.get(reader) && reader <= forwardAt) {
                return null;
            }
        }
        if (!untouched(f, qk.a().array(), first, forwardAt, calls) || !untouched(f, qk.b().array(), first, forwardAt, calls)
                || (mask != null && !untouched(f, mask.array(), masking, forwardAt, calls))
                || !unused(f, p.array(), softmax, forwardAt, calls)
                || !untouched(f, dK.b().array(), backwardAt, scoresBack, calls) || !untouched(f, dQ.b().array(), backwardAt, scoresBack, calls)
                || !unused(f, dQ.z().array(), backwardAt, scoresBack, calls) || !unused(f, dK.z().array(), backwardAt, scoresBack, calls)) {
            return null;
        }
        // SameDiff's arena may hand a dead array to a later value: what a fused pass writes must not be
        // what it reads (dQ and dK were written after P, V and dO were last read, and now are not).
        List<INDArray> forwardReads = mask == null ? List.of(qk.a().array(), qk.b().array(), pv.b().array())
                : List.of(qk.a().array(), qk.b().array(), pv.b().array(), mask.array());
        List<INDArray> backwardReads = List.of(dK.b().array(), dQ.b().array(), dP.b().array(), dP.a().array(), p.array());
        if (!apart(List.of(p.array(), pv.z().array()), forwardReads) || !apart(List.of(dQ.z().array(), dK.z().array(), dV.z().array()), backwardReads)) {
            return null;
        }
        float factor = scale.floatValue();
        AttentionMath.Scratch scratch = new AttentionMath.Scratch(t, c);
        Operand maskOperand = mask == null ? null : Operand.dense(mask.array());
        Operand weights = Operand.dense(p.array());
        Runnable forward = () -> AttentionMath.forward(qk.a().blocks(), qk.b().blocks(), pv.b().blocks(),
                maskOperand == null ? null : maskOperand.blocks(), factor, weights.blocks(), pv.z().blocks(), blocks, scratch);
        Runnable backward = () -> AttentionMath.backward(dK.b().blocks(), dQ.b().blocks(), dP.b().blocks(), weights.blocks(), dP.a().blocks(),
                factor, dQ.z().blocks(), dK.z().blocks(), dV.z().blocks(), blocks, scratch);
        return new Match(calls, forwardAt, backwardAt, forward, backward);
    }

    /** Whether no two of {@code written} share memory, and none shares memory with any of {@code read}. */
    private static boolean apart(List<INDArray> written, List<INDArray> read) {
        for (int i = 0; i < written.size(); i++) {
            for (int j = i + 1; j < written.size(); j++) {
                if (overlap(written.get(i), written.get(j))) {
                    return false;
                }
            }
            for (INDArray other : read) {
                if (overlap(written.get(i), other)) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean overlap(INDArray a, INDArray b) {
        long aStart = a.data().address();
        long bStart = b.data().address();
        return aStart < bStart + b.data().length() * Float.BYTES && bStart < aStart + a.data().length() * Float.BYTES;
    }

    /** The one product of a vector-API {@code matmul} with these transpose flags, or null. */
    private static Product single(StepDataflow f, int call, int transposeX, int transposeY) {
        List<Product> products = products(f, call, transposeX, transposeY);
        return products != null && products.size() == 1 ? products.get(0) : null;
    }

    /** The products of a call run on the vector API whose flags are (transposeX, transposeY, 0), or null. */
    private static List<Product> products(StepDataflow f, int call, int transposeX, int transposeY) {
        Call c = f.calls.get(call);
        if (!(c.replacement() instanceof BatchedProducts products) || !c.context().getIArguments().equals(List.of((long) transposeX, (long) transposeY, 0L))) {
            return null;
        }
        return products.products();
    }

    private static boolean shaped(Product product, int blocks, int m, int k, int n) {
        return product.batch() == blocks && product.m() == m && product.k() == k && product.n() == n;
    }

    /** A dense (…, T, T) operand: blocks one after another, rows T floats apart. */
    private static boolean dense(Operand operand, int t) {
        return operand.heads() == 1 && operand.rowStride() == t && operand.outer() == t * t;
    }

    private static boolean lastAxis(StepDataflow f, int softmax) {
        List<Long> axes = f.calls.get(softmax).context().getIArguments();
        int rank = f.calls.get(softmax).context().getInputArrays().get(0).rank();
        return axes.isEmpty() || (axes.size() == 1 && (axes.get(0) == -1 || axes.get(0) == rank - 1));
    }

    /** The scalar a {@code mul_scalar} call multiplies by, or null. */
    private static Double scalar(StepDataflow f, int call) {
        return f.calls.get(call).op() instanceof ScalarOp op && op.scalar() != null && op.scalar().length() == 1
                ? op.scalar().getDouble(0) : null;
    }

    /**
     * Whether no call in (from, to) that stays, leaving out {@code fused}, writes {@code array}, counting
     * the arrays the vector API's products write in place of their recorded outputs ({@link HeadLayouts}).
     */
    private static boolean untouched(StepDataflow f, INDArray array, int from, int to, BitSet fused) {
        for (int i = Math.max(from + 1, 0); i < to; i++) {
            if (!fused.get(i) && (f.writes.get(i).contains(array) || operands(f, i, array, true))) {
                return false;
            }
        }
        return true;
    }

    /** Whether no call in (from, to) that stays reads or writes {@code array}, products' operands included. */
    private static boolean unused(StepDataflow f, INDArray array, int from, int to, BitSet fused) {
        for (int i = Math.max(from + 1, 0); i < to; i++) {
            if (!fused.get(i) && (f.writes.get(i).contains(array) || f.reads.get(i).contains(array)
                    || operands(f, i, array, true) || operands(f, i, array, false))) {
                return false;
            }
        }
        return true;
    }

    /** Whether call i's products write (or, if not {@code written}, read) {@code array}. */
    private static boolean operands(StepDataflow f, int i, INDArray array, boolean written) {
        if (!(f.calls.get(i).replacement() instanceof BatchedProducts products)) {
            return false;
        }
        for (Product product : products.products()) {
            if (written ? product.z().array() == array : product.a().array() == array || product.b().array() == array) {
                return true;
            }
        }
        return false;
    }
}
