package org.langid.model.train.trace;

import org.nd4j.autodiff.functions.DifferentialFunction;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.CustomOp;
import org.nd4j.linalg.api.ops.Op;
import org.nd4j.linalg.api.ops.OpContext;
import org.nd4j.linalg.factory.Nd4j;

/**
 * One native op of a recorded step with its arguments and arrays, as SameDiff ran it;
 * {@code replacement}, if not null, computes the same outputs from the same arrays instead (a
 * kernel of {@code org.langid.model.train.kernels}, or a fused pass).
 */
public record Call(DifferentialFunction op, OpContext context, Runnable replacement, Kernel kernel) {

    /** What runs a call: libnd4j's op as SameDiff ran it, or a replacement computing the same outputs from the same arrays. */
    public enum Kernel {
        NATIVE("native"), SHORTCUT("short"), VECTOR("vector"), FUSED("fused");

        final String label;

        Kernel(String label) {
            this.label = label;
        }
    }

    /** This call run by {@code replacement} instead ({@code kernel} says what that is). */
    public Call replacedBy(Runnable replacement, Kernel kernel) {
        return new Call(op, context, replacement, kernel);
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

    public void close() {
        try {
            context.close();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** One line: the op, its name in the graph, what runs it, and its arrays' shapes. */
    String describe(java.util.Map<INDArray, Integer> ids) {
        StringBuilder line = new StringBuilder(String.format("%-16s %-22s %-6s", op.opName(), op.getOwnName(), kernel.label));
        for (INDArray input : context.getInputArrays()) {
            line.append(" #").append(ids.computeIfAbsent(input, a -> ids.size())).append(java.util.Arrays.toString(input.shape()));
        }
        line.append(" ->");
        for (INDArray output : context.getOutputArrays()) {
            line.append(" #").append(ids.computeIfAbsent(output, a -> ids.size())).append(java.util.Arrays.toString(output.shape()));
        }
        return line.append(" i").append(context.getIArguments()).toString();
    }
}
