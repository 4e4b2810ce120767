package org.langid.model.train.kernels;

import java.util.Arrays;
import java.util.List;
import org.nd4j.autodiff.functions.DifferentialFunction;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.DynamicCustomOp;
import org.nd4j.linalg.api.ops.OpContext;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Calls of a recorded training step that run a shorter native way than libnd4j's own op. Sums
 * and broadcasts become 2-D matrix products with a constant vector, on oneDNN: for the (B·T, d)
 * rows of this model libnd4j M2.1 sums along a dimension at a few GB/s, and the same sum as a
 * product with a ones vector takes a tenth of the time (bench/EXPERIMENTS.md, "Training speed: the step"):
 * <ul>
 *   <li>{@code biasadd_bp} over (N, c): the input gradient is a copy of dZ (none when
 *       {@code GradientCopyElision} made it dZ itself); the bias gradient,
 *       the column sum of dZ, is ones(1, N) · dZ;</li>
 *   <li>{@code reduce_mean} of (N, d) rows into (N, 1): X · (1/d)(d, 1);</li>
 *   <li>{@code reduce_mean_bp} of it: dX = dY (N, 1) · (1/d)(1, d);</li>
 *   <li>{@code subtract_bp} of (N, d) − (N, 1): dX = dZ, dY = dZ · −1(d, 1).</li>
 * </ul>
 * And {@code reshape} between dense arrays, which libnd4j copies element by element, is one
 * memory copy (the bytes are the same in C order).
 *
 * <p>The sums match libnd4j's to float rounding, not bit for bit (they run in another order;
 * 1/d is exact for this model's widths, powers of two); the copies are exact. Any other call, or
 * these ops on other shapes, stays native.
 */
public final class NativeShortcuts {

    private NativeShortcuts() {
    }

    /** What replaces the native call of {@code op} on {@code context}'s arrays, or null if it stays native. */
    public static Runnable replacing(DifferentialFunction op, OpContext context) {
        List<INDArray> in = context.getInputArrays();
        List<INDArray> out = context.getOutputArrays();
        if ("reshape".equals(op.opName())) {
            return copy(in, out);
        }
        if (!floats(in) || !floats(out)) {
            return null;
        }
        return switch (op.opName()) {
            case "biasadd_bp" -> biasGradient(in, out);
            case "reduce_mean" -> rowMean(in, out);
            case "reduce_mean_bp" -> rowMeanGradient(in, out, context.getIArguments());
            case "subtract_bp" -> rowSubtractGradient(in, out);
            default -> null;
        };
    }

    /** biasadd_bp: inputs X (N, c), bias (c), dZ (N, c); outputs dX (N, c), dBias (c). */
    private static Runnable biasGradient(List<INDArray> in, List<INDArray> out) {
        if (in.size() != 3 || out.size() != 2) {
            return null;
        }
        INDArray dz = in.get(2);
        INDArray dx = out.get(0);
        INDArray dBias = out.get(1);
        if (dz.rank() != 2 || !same(dz, in.get(0)) || !same(dz, dx) || dBias.rank() != 1 || dBias.length() != dz.size(1)) {
            return null;
        }
        INDArray dBiasRow = rowView(dBias);
        if (dBiasRow == null) {
            return null;
        }
        DynamicCustomOp columnSum = product(constant(1.0, 1, dz.size(0)), dz, dBiasRow);   // (1, N)·(N, c)
        if (dx == dz) {   // GradientCopyElision: dX is dZ itself
            return () -> Nd4j.exec(columnSum);
        }
        return () -> {
            dx.assign(dz);
            Nd4j.exec(columnSum);
        };
    }

    /** reduce_mean over the rows' features: X (N, d) into (N, 1). */
    private static Runnable rowMean(List<INDArray> in, List<INDArray> out) {
        if (in.size() != 1 || out.size() != 1) {
            return null;
        }
        INDArray x = in.get(0);
        INDArray mean = out.get(0);
        if (!rows(x) || !Arrays.equals(mean.shape(), new long[] {x.size(0), 1})) {
            return null;   // (N, 1) from (N, d) with N, d > 1 can only be the mean along dimension 1, kept
        }
        DynamicCustomOp product = product(x, constant(1.0 / x.size(1), x.size(1), 1), mean);   // (N, d)·(d, 1)
        return () -> Nd4j.exec(product);
    }

    /** reduce_mean_bp along dimension 1, kept: inputs X (N, d), dY (N, 1); output dX (N, d). */
    private static Runnable rowMeanGradient(List<INDArray> in, List<INDArray> out, List<Long> dimensions) {
        if (in.size() != 2 || out.size() != 1 || dimensions.size() != 1 || (dimensions.get(0) != 1 && dimensions.get(0) != -1)) {
            return null;
        }
        INDArray x = in.get(0);
        INDArray dy = in.get(1);
        INDArray dx = out.get(0);
        if (!rows(x) || !same(x, dx) || !Arrays.equals(dy.shape(), new long[] {x.size(0), 1})) {
            return null;
        }
        DynamicCustomOp product = product(dy, constant(1.0 / x.size(1), 1, x.size(1)), dx);   // (N, 1)·(1, d)
        return () -> Nd4j.exec(product);
    }

    /** subtract_bp of X (N, d) − Y (N, 1): inputs X, Y, dZ (N, d); outputs dX (N, d), dY (N, 1). */
    private static Runnable rowSubtractGradient(List<INDArray> in, List<INDArray> out) {
        if (in.size() != 3 || out.size() != 2) {
            return null;
        }
        INDArray x = in.get(0);
        INDArray dz = in.get(2);
        INDArray dx = out.get(0);
        INDArray dy = out.get(1);
        long[] column = {x.size(0), 1};
        if (!rows(x) || !same(x, dz) || !same(x, dx) || !Arrays.equals(in.get(1).shape(), column) || !Arrays.equals(dy.shape(), column)) {
            return null;
        }
        DynamicCustomOp rowSum = product(dz, constant(-1.0, x.size(1), 1), dy);   // (N, d)·(d, 1)
        return () -> {
            dx.assign(dz);
            Nd4j.exec(rowSum);
        };
    }

    /** reshape (inputs X and, optionally, the shape) between dense arrays of one length: the same bytes. */
    private static Runnable copy(List<INDArray> in, List<INDArray> out) {
        if (in.isEmpty() || in.size() > 2 || out.size() != 1) {
            return null;
        }
        INDArray x = in.get(0);
        INDArray z = out.get(0);
        if (x.length() != z.length() || !VectorKernels.denseFloats(x, z)) {
            return null;
        }
        long bytes = x.length() * Float.BYTES;
        org.bytedeco.javacpp.Pointer from = x.data().addressPointer();
        org.bytedeco.javacpp.Pointer to = z.data().addressPointer();
        return () -> org.bytedeco.javacpp.Pointer.memcpy(to, from, bytes);
    }

    /** Z = A · B, libnd4j's matmul on rank-2 arrays (oneDNN in the -onednn build). */
    private static DynamicCustomOp product(INDArray a, INDArray b, INDArray z) {
        return DynamicCustomOp.builder("matmul").addInputs(a, b).addOutputs(z).build();
    }

    private static INDArray constant(double value, long rows, long columns) {
        return Nd4j.valueArrayOf(new long[] {rows, columns}, value, DataType.FLOAT);
    }

    /** (c) as a (1, c) array on the same memory, or null if ND4J would copy it. */
    private static INDArray rowView(INDArray vector) {
        INDArray row = vector.reshape(1, vector.length());
        boolean shared = row.data().addressPointer().address() == vector.data().addressPointer().address()
                && row.offset() == vector.offset();
        return shared ? row : null;
    }

    /** A 2-D float matrix of more than one row and column, C order, default strides (what oneDNN's product takes). */
    private static boolean rows(INDArray x) {
        return x.rank() == 2 && x.size(0) > 1 && x.size(1) > 1 && x.ordering() == 'c'
                && org.nd4j.linalg.api.shape.Shape.hasDefaultStridesForShape(x);
    }

    private static boolean same(INDArray a, INDArray b) {
        return Arrays.equals(a.shape(), b.shape());
    }

    private static boolean floats(List<INDArray> arrays) {
        return arrays.stream().allMatch(array -> array != null && array.dataType() == DataType.FLOAT);
    }
}
