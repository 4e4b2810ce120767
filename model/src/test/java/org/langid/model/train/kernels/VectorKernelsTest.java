package org.langid.model.train.kernels;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.nd4j.autodiff.functions.DifferentialFunction;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.CustomOp;
import org.nd4j.linalg.api.ops.DynamicCustomOp;
import org.nd4j.linalg.api.ops.OpContext;
import org.nd4j.linalg.api.ops.impl.reduce.Mmul;
import org.nd4j.linalg.api.ops.impl.reduce.MmulBp;
import org.nd4j.linalg.factory.Nd4j;

/** The vector API's batched products compute what libnd4j's matmul and matmul_bp compute. */
class VectorKernelsTest {

    @Test
    void theVectorModuleIsThereInTests() {
        assertTrue(ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent(),
                "the JVM runs with --add-modules=jdk.incubator.vector (parent pom)");
    }

    /** (m, k, n): the attention's square blocks, and odd sizes (a partial vector, rows not a multiple of 4). */
    @ParameterizedTest
    @CsvSource({"16, 16, 16, false, false", "16, 16, 16, false, true", "16, 16, 16, true, false", "16, 16, 16, true, true",
            "6, 4, 6, false, true", "6, 6, 4, false, false", "7, 5, 19, true, false", "3, 9, 2, true, true"})
    void forwardAndBackwardMatchLibnd4j(int m, int k, int n, boolean transposeX, boolean transposeY) {
        Nd4j.getRandom().setSeed(11);
        long[] lead = {3, 2};
        INDArray x = Nd4j.randn(DataType.FLOAT, shape(lead, transposeX ? k : m, transposeX ? m : k));
        INDArray y = Nd4j.randn(DataType.FLOAT, shape(lead, transposeY ? n : k, transposeY ? k : n));
        INDArray dz = Nd4j.randn(DataType.FLOAT, shape(lead, m, n));
        long[] flags = {transposeX ? 1 : 0, transposeY ? 1 : 0, 0};

        INDArray nativeZ = Nd4j.create(DataType.FLOAT, shape(lead, m, n));
        INDArray ourZ = Nd4j.create(DataType.FLOAT, shape(lead, m, n));
        run(new Mmul(), new INDArray[] {x, y}, new INDArray[] {nativeZ}, flags, false);
        run(new Mmul(), new INDArray[] {x, y}, new INDArray[] {ourZ}, flags, true);
        assertClose(nativeZ, ourZ);

        INDArray[] nativeGradients = {Nd4j.create(DataType.FLOAT, x.shape()), Nd4j.create(DataType.FLOAT, y.shape())};
        INDArray[] ourGradients = {Nd4j.create(DataType.FLOAT, x.shape()), Nd4j.create(DataType.FLOAT, y.shape())};
        run(new MmulBp(), new INDArray[] {x, y, dz}, nativeGradients, flags, false);
        run(new MmulBp(), new INDArray[] {x, y, dz}, ourGradients, flags, true);
        assertClose(nativeGradients[0], ourGradients[0]);
        assertClose(nativeGradients[1], ourGradients[1]);
    }

    /** Permutations keeping the last dimension: the attention's head split and join, others, rows shorter and longer than a vector. */
    @ParameterizedTest
    @CsvSource({"3;16;4;16, 0;2;1;3", "3;4;16;16, 0;2;1;3", "2;3;5;19, 2;0;1;3", "4;7;5, 1;0;2", "2;3;4;2;3, 3;1;0;2;4"})
    void permutesMatchLibnd4j(String shape, String permutation) {
        long[] dims = java.util.Arrays.stream(shape.split(";")).mapToLong(Long::parseLong).toArray();
        long[] order = java.util.Arrays.stream(permutation.split(";")).mapToLong(Long::parseLong).toArray();
        Nd4j.getRandom().setSeed(5);
        INDArray x = Nd4j.randn(DataType.FLOAT, dims);
        int[] axes = java.util.Arrays.stream(order).mapToInt(a -> (int) a).toArray();
        INDArray expected = x.permute(axes).dup('c');
        INDArray ours = Nd4j.create(DataType.FLOAT, expected.shape());
        DynamicCustomOp permute = DynamicCustomOp.builder("permute").addInputs(x).addOutputs(Nd4j.create(DataType.FLOAT, expected.shape()))
                .addIntegerArguments(axes).build();
        Nd4j.exec(permute);
        assertClose(expected, permute.outputArguments().get(0));   // libnd4j's op is the permutation asked for
        Runnable copy = replacing(permute, new INDArray[] {x}, new INDArray[] {ours}, order);
        assertNotNull(copy);
        copy.run();
        assertTrue(expected.equals(ours), "an exact copy");
    }

    @Test
    void otherCallsStayNative() {
        INDArray cube = Nd4j.randn(DataType.FLOAT, 2, 3, 4);
        assertNull(replacing(DynamicCustomOp.builder("permute").build(), new INDArray[] {cube}, new INDArray[] {Nd4j.create(DataType.FLOAT, 2, 4, 3)},
                new long[] {0, 2, 1}), "a permutation that moves the last dimension");
        INDArray matrix = Nd4j.randn(DataType.FLOAT, 4, 4);
        INDArray batched = Nd4j.randn(DataType.FLOAT, 2, 4, 4);
        assertNull(replacing(new Mmul(), new INDArray[] {matrix, matrix}, new INDArray[] {matrix.ulike()}, new long[] {0, 0, 0}),
                "rank 2 runs on oneDNN already");
        assertNull(replacing(new Mmul(), new INDArray[] {batched.castTo(DataType.DOUBLE), batched.castTo(DataType.DOUBLE)},
                new INDArray[] {batched.castTo(DataType.DOUBLE).ulike()}, new long[] {0, 0, 0}), "doubles");
        assertNull(replacing(new Mmul(), new INDArray[] {batched, batched}, new INDArray[] {batched.ulike()}, new long[] {0, 0, 1}),
                "a transposed result");
        assertNull(replacing(new Mmul(), new INDArray[] {batched.permute(0, 2, 1), batched}, new INDArray[] {batched.ulike()},
                new long[] {0, 0, 0}), "a view");
        assertNotNull(replacing(new Mmul(), new INDArray[] {batched, batched}, new INDArray[] {batched.ulike()}, new long[] {0, 0, 0}));
    }

    private static Runnable replacing(DifferentialFunction op, INDArray[] in, INDArray[] out, long[] flags) {
        return VectorKernels.replacing(op, context(in, out, flags, op instanceof Mmul), new VectorKernels.Scratch());
    }

    private static void run(DifferentialFunction op, INDArray[] in, INDArray[] out, long[] flags, boolean ours) {
        OpContext context = context(in, out, flags, op instanceof Mmul);
        if (ours) {
            Runnable product = VectorKernels.replacing(op, context, new VectorKernels.Scratch());
            assertNotNull(product, op.opName() + " with flags " + java.util.Arrays.toString(flags) + " is replaced");
            product.run();
        } else {
            Nd4j.getExecutioner().exec((CustomOp) op, context);
        }
    }

    /** The context SameDiff builds for these ops: flags (transpose x, y, z); matmul also alpha 1, beta 0. */
    private static OpContext context(INDArray[] in, INDArray[] out, long[] flags, boolean forward) {
        OpContext context = Nd4j.getExecutioner().buildContext();
        context.setInputArrays(in);
        context.setOutputArrays(out);
        context.setIArguments(flags);
        if (forward) {
            context.setTArguments(1.0, 0.0);
        }
        return context;
    }

    private static long[] shape(long[] lead, long rows, long columns) {
        long[] shape = java.util.Arrays.copyOf(lead, lead.length + 2);
        shape[lead.length] = rows;
        shape[lead.length + 1] = columns;
        return shape;
    }

    private static void assertClose(INDArray expected, INDArray actual) {
        float[] e = expected.dup('c').data().asFloat();
        float[] a = actual.dup('c').data().asFloat();
        for (int i = 0; i < e.length; i++) {
            assertTrue(Math.abs(e[i] - a[i]) <= 1e-5f * Math.max(1f, Math.abs(e[i])),
                    "element " + i + ": libnd4j " + e[i] + ", ours " + a[i]);
        }
    }
}
