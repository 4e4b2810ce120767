package org.langid.model.train.kernels;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.nd4j.autodiff.functions.DifferentialFunction;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.DynamicCustomOp;
import org.nd4j.linalg.api.ops.OpContext;
import org.nd4j.linalg.api.ops.impl.reduce.floating.Mean;
import org.nd4j.linalg.factory.Nd4j;

/** The sums and broadcasts run as products with constant vectors compute what libnd4j's ops compute. */
class NativeShortcutsTest {

    // (N, d): rows of the attention's width, and odd sizes
    private static final long[][] SHAPES = {{96, 16}, {37, 5}, {2, 3}};

    @Test
    void biasGradientIsTheCopyAndTheColumnSum() {
        for (long[] shape : SHAPES) {
            INDArray x = random(shape);
            INDArray bias = random(shape[1]);
            INDArray dz = random(shape);
            INDArray[] expected = {x.ulike(), bias.ulike()};
            INDArray[] ours = {x.ulike(), bias.ulike()};
            DynamicCustomOp op = DynamicCustomOp.builder("biasadd_bp").addInputs(x, bias, dz).addOutputs(expected)
                    .addBooleanArguments(true).build();   // as SameDiff records it: channels last for rank 2
            Nd4j.exec(op);
            run(op, new INDArray[] {x, bias, dz}, ours, new long[0]);
            assertClose(expected[0], ours[0]);
            assertClose(expected[1], ours[1]);
        }
    }

    @Test
    void rowMeanAndItsGradient() {
        for (long[] shape : SHAPES) {
            INDArray x = random(shape);
            INDArray mean = Nd4j.create(DataType.FLOAT, shape[0], 1);
            run(new Mean(), new INDArray[] {x}, new INDArray[] {mean}, new long[0]);
            assertClose(x.mean(true, 1), mean);

            INDArray dy = random(shape[0], 1);
            INDArray expected = x.ulike();
            DynamicCustomOp op = DynamicCustomOp.builder("reduce_mean_bp").addInputs(x, dy).addOutputs(expected)
                    .addIntegerArguments(1).addBooleanArguments(true).build();
            Nd4j.exec(op);
            INDArray ours = x.ulike();
            run(op, new INDArray[] {x, dy}, new INDArray[] {ours}, new long[] {1});
            assertClose(expected, ours);
        }
    }

    @Test
    void rowSubtractGradient() {
        for (long[] shape : SHAPES) {
            INDArray x = random(shape);
            INDArray y = random(shape[0], 1);
            INDArray dz = random(shape);
            INDArray[] expected = {x.ulike(), y.ulike()};
            DynamicCustomOp op = DynamicCustomOp.builder("subtract_bp").addInputs(x, y, dz).addOutputs(expected).build();
            Nd4j.exec(op);
            INDArray[] ours = {x.ulike(), y.ulike()};
            run(op, new INDArray[] {x, y, dz}, ours, new long[0]);
            assertClose(expected[0], ours[0]);
            assertClose(expected[1], ours[1]);
        }
    }

    @Test
    void reshapesAreCopies() {
        INDArray x = random(4, 6, 2, 5);
        INDArray expected = Nd4j.create(DataType.FLOAT, 24, 10);
        DynamicCustomOp op = DynamicCustomOp.builder("reshape").addInputs(x).addOutputs(expected).addIntegerArguments(-99, -1, 10).build();
        Nd4j.exec(op);
        INDArray ours = Nd4j.create(DataType.FLOAT, 24, 10);
        run(op, new INDArray[] {x}, new INDArray[] {ours}, new long[] {-99, -1, 10});
        assertTrue(expected.equals(ours), "the same values in the same order");
        INDArray withShape = Nd4j.create(DataType.FLOAT, 8, 30);
        run(op, new INDArray[] {x, Nd4j.createFromArray(8L, 30L)}, new INDArray[] {withShape}, new long[] {-99});
        assertTrue(x.reshape(8, 30).equals(withShape));
        assertNull(replacing(op, new INDArray[] {x.permute(1, 0, 2, 3)}, new INDArray[] {ours}, new long[] {-99, -1, 10}), "a view");
    }

    @Test
    void otherShapesStayNative() {
        INDArray x = random(8, 4);
        assertNull(replacing(new Mean(), new INDArray[] {x}, new INDArray[] {Nd4j.create(DataType.FLOAT, 1, 4)}, new long[0]),
                "the mean of the columns");
        assertNull(replacing(new Mean(), new INDArray[] {x.castTo(DataType.DOUBLE)}, new INDArray[] {Nd4j.create(DataType.DOUBLE, 8, 1)},
                new long[0]), "doubles");
        DynamicCustomOp bp = DynamicCustomOp.builder("reduce_mean_bp").build();
        assertNull(replacing(bp, new INDArray[] {x, random(1, 4)}, new INDArray[] {x.ulike()}, new long[] {0}), "along dimension 0");
        INDArray image = random(2, 3, 4, 4);
        DynamicCustomOp bias = DynamicCustomOp.builder("biasadd_bp").build();
        assertNull(replacing(bias, new INDArray[] {image, random(3), image}, new INDArray[] {image.ulike(), random(3)}, new long[0]),
                "rank 4");
        DynamicCustomOp subtract = DynamicCustomOp.builder("subtract_bp").build();
        assertNull(replacing(subtract, new INDArray[] {x, random(1, 4), x}, new INDArray[] {x.ulike(), random(1, 4)}, new long[0]),
                "a row broadcast");
        assertNotNull(replacing(subtract, new INDArray[] {x, random(8, 1), x}, new INDArray[] {x.ulike(), random(8, 1)}, new long[0]));
    }

    private static Runnable replacing(DifferentialFunction op, INDArray[] in, INDArray[] out, long[] iArguments) {
        OpContext context = Nd4j.getExecutioner().buildContext();
        context.setInputArrays(in);
        context.setOutputArrays(out);
        context.setIArguments(iArguments);
        return NativeShortcuts.replacing(op, context);
    }

    private static void run(DifferentialFunction op, INDArray[] in, INDArray[] out, long[] iArguments) {
        Runnable replacement = replacing(op, in, out, iArguments);
        assertNotNull(replacement, op.opName() + " is replaced");
        replacement.run();
    }

    private static INDArray random(long... shape) {
        Nd4j.getRandom().setSeed(shape.length * 31L + shape[0]);
        return Nd4j.randn(DataType.FLOAT, shape);
    }

    private static void assertClose(INDArray expected, INDArray actual) {
        assertTrue(java.util.Arrays.equals(expected.shape(), actual.shape()), "shape");
        float[] e = expected.dup('c').data().asFloat();
        float[] a = actual.dup('c').data().asFloat();
        for (int i = 0; i < e.length; i++) {
            assertTrue(Math.abs(e[i] - a[i]) <= 1e-5f * Math.max(1f, Math.abs(e[i])),
                    "element " + i + ": libnd4j " + e[i] + ", ours " + a[i]);
        }
    }
}
