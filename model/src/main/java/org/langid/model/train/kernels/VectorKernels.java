package org.langid.model.train.kernels;

import java.util.Arrays;
import java.util.List;
import org.nd4j.autodiff.functions.DifferentialFunction;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.OpContext;

/**
 * Native calls of a recorded training step that run on the JDK's vector API instead of libnd4j,
 * where libnd4j M2.1 is slow for this model's shapes (bench/EXPERIMENTS.md, "Training speed: the step"): the attention's batched
 * matrix products, forward ({@code matmul}) and backward ({@code matmul_bp}), and the permutes
 * that split and join its heads. For rank > 2 libnd4j runs its own scalar loop (oneDNN takes only
 * rank ≤ 2), ~5 GFLOP/s on (B, 4, 16, 16) blocks. The rewrites of a recorded step
 * ({@code trace.passes.Rewrites}) swap a call for one of these when the arrays allow (float,
 * dense, C order, the shapes these take); any other call stays native. The fusions of layer norms,
 * head layouts and attention cores build on these and run where they do.
 *
 * <p>Needs the {@code jdk.incubator.vector} module ({@code --add-modules jdk.incubator.vector},
 * in the parent pom's JVM flags); without it every call stays native. The products match libnd4j's to float rounding, not bit for bit: the
 * sums run in another order. The permutes are exact copies.
 */
public final class VectorKernels {

    private VectorKernels() {
    }

    /**
     * Float, C order with default strides, not a view, no offset: the buffer holds exactly the
     * arrays' values in order, so a replacement may read and write it as plain floats.
     */
    public static boolean denseFloats(INDArray... arrays) {
        for (INDArray array : arrays) {
            if (array.dataType() != DataType.FLOAT || array.ordering() != 'c' || array.isView() || array.offset() != 0
                    || array.data().length() != array.length() || !org.nd4j.linalg.api.shape.Shape.hasDefaultStridesForShape(array)) {
                return false;
            }
        }
        return true;
    }

    /** Fewest float lanes worth it: measured with 16 (AVX-512) and 8 (AVX2); narrower CPUs stay native. */
    private static final int MIN_LANES = 8;

    /**
     * Whether these run in this JVM: the vector module is there and, unless {@code anyWidth}, the
     * CPU's vectors hold at least {@link #MIN_LANES} floats.
     */
    public static boolean available(boolean anyWidth) {
        return ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent() && (anyWidth || VectorMath.lanes() >= MIN_LANES);
    }

    /** Float arrays shared by the products of one plan (which runs on one thread): a block of each operand. */
    public static final class Scratch {
        private float[][] blocks = new float[3][0];

        public Scratch() {
        }

        float[][] get(long length) {
            if (blocks[0].length < length) {
                blocks = new float[][] {new float[(int) length], new float[(int) length], new float[(int) length]};
            }
            return blocks;
        }
    }

    /**
     * What replaces the native call of {@code op} on {@code context}'s arrays, or null if it stays
     * native (another op, or arrays or arguments these products do not take).
     */
    public static Runnable replacing(DifferentialFunction op, OpContext context, Scratch scratch) {
        String name = op.opName();
        List<INDArray> in = context.getInputArrays();
        List<INDArray> out = context.getOutputArrays();
        if ("permute".equals(name)) {
            return in.size() == 1 && out.size() == 1 && dense(in.get(0), out.get(0))
                    ? RowPermutation.of(in.get(0), out.get(0), context.getIArguments()) : null;
        }
        if (!"matmul".equals(name) && !"matmul_bp".equals(name)) {
            return null;
        }
        List<Long> flags = context.getIArguments();
        boolean transposeX = flags.size() > 0 && flags.get(0) != 0;
        boolean transposeY = flags.size() > 1 && flags.get(1) != 0;
        boolean transposeZ = flags.size() > 2 && flags.get(2) != 0;
        List<Double> scalars = context.getTArguments();
        boolean plain = scalars.isEmpty() || (scalars.get(0) == 1.0 && (scalars.size() < 2 || scalars.get(1) == 0.0));
        if (transposeZ || !plain) {
            return null;
        }
        if ("matmul".equals(name)) {
            if (in.size() != 2 || out.size() != 1 || !dense(in.get(0), in.get(1), out.get(0))) {
                return null;
            }
            Product z = Product.of(in.get(0), transposeX, in.get(1), transposeY, out.get(0));
            return z == null ? null : new BatchedProducts(scratch, z);
        }
        if (in.size() != 3 || out.size() != 2 || !dense(in.get(0), in.get(1), in.get(2), out.get(0), out.get(1))) {
            return null;
        }
        // libnd4j's matmul_bp: dX = op(dZ, Y) and dY = op(X, dZ), transposed as its flags say.
        INDArray x = in.get(0);
        INDArray y = in.get(1);
        INDArray dz = in.get(2);
        Product dx = transposeX ? Product.of(y, transposeY, dz, true, out.get(0))
                : Product.of(dz, false, y, !transposeY, out.get(0));
        Product dy = transposeY ? Product.of(dz, true, x, transposeX, out.get(1))
                : Product.of(x, !transposeX, dz, false, out.get(1));
        if (dx == null || dy == null) {
            return null;
        }
        return new BatchedProducts(scratch, dx, dy);
    }

    /**
     * The products of one replaced call, in order. {@code HeadLayouts} may point an operand at
     * another array laid out (B, T, H, C) instead of (B, H, T, C): the products then read or write
     * through that layout, and the permute and copy that made or unmade it are dropped.
     */
    public static final class BatchedProducts implements Runnable {
        private final Scratch scratch;
        private final Product[] products;

        BatchedProducts(Scratch scratch, Product... products) {
            this.scratch = scratch;
            this.products = products;
        }

        @Override
        public void run() {
            for (Product product : products) {
                product.run(scratch);
            }
        }

        /** Reads {@code original} (B, H, T, C) from {@code source} holding it as (B, T, H, C). */
        public void readThroughHeads(INDArray original, INDArray source) {
            for (int i = 0; i < products.length; i++) {
                Product p = products[i];
                products[i] = new Product(p.a.array == original ? Operand.headsSecond(source, original) : p.a, p.transposeA,
                        p.b.array == original ? Operand.headsSecond(source, original) : p.b, p.transposeB, p.z, p.batch, p.m, p.k, p.n);
            }
        }

        /** Writes what went to {@code original} (B, H, T, C) into {@code target} as (B, T, H, C). */
        public void writeThroughHeads(INDArray original, INDArray target) {
            for (int i = 0; i < products.length; i++) {
                Product p = products[i];
                if (p.z.array == original) {
                    products[i] = new Product(p.a, p.transposeA, p.b, p.transposeB, Operand.headsSecond(target, original), p.batch, p.m, p.k, p.n);
                }
            }
        }

        /** The products, in order ({@code AttentionFusion} takes their operands, which {@code HeadLayouts} may have redirected). */
        public List<Product> products() {
            return List.of(products);
        }

        public boolean writes(INDArray array) {
            for (Product p : products) {
                if (p.z.array == array) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * An operand's blocks in {@code array}: block p starts at (p / heads)·outer + (p % heads)·head
     * floats, rows rowStride apart ({@link VectorMath.Blocks}).
     */
    public record Operand(INDArray array, int heads, int outer, int head, int rowStride) {

        /** A dense (…, R, C) array. */
        public static Operand dense(INDArray array) {
            int rank = array.rank();
            int rows = (int) array.size(rank - 2);
            int columns = (int) array.size(rank - 1);
            return new Operand(array, 1, rows * columns, 0, columns);
        }

        /** The (B, H, T, C) blocks of {@code shapeOf} read from or written to {@code array}, which holds them as (B, T, H, C). */
        static Operand headsSecond(INDArray array, INDArray shapeOf) {
            int heads = (int) shapeOf.size(1);
            int length = (int) shapeOf.size(2);
            int columns = (int) shapeOf.size(3);
            return new Operand(array, heads, length * heads * columns, columns, heads * columns);
        }

        public VectorMath.Blocks blocks() {
            return new VectorMath.Blocks(array.data().asNio(), heads, outer, head, rowStride);
        }
    }

    /** {@link #denseFloats}, of rank 3 or more (the batched arrays these take). */
    private static boolean dense(INDArray... arrays) {
        return denseFloats(arrays) && java.util.Arrays.stream(arrays).allMatch(array -> array.rank() >= 3);
    }

    /**
     * A permutation that keeps the last dimension in place (the attention's (B, T, H, hs) ⇄
     * (B, H, T, hs)): a copy of whole rows, each from where the permutation says. libnd4j's
     * permute copies element by element (0.9 ms against 0.2 for (1024, 16, 4, 16)).
     */
    private record RowPermutation(INDArray x, INDArray z, int[] sourceRows, int rowLength) implements Runnable {

        static RowPermutation of(INDArray x, INDArray z, List<Long> permutation) {
            int rank = x.rank();
            if (permutation.size() != rank || permutation.get(rank - 1) != rank - 1 || z.rank() != rank
                    || z.length() > Integer.MAX_VALUE / Float.BYTES) {
                return null;
            }
            for (int axis = 0; axis < rank; axis++) {
                long from = permutation.get(axis);
                if (from < 0 || from >= rank || z.size(axis) != x.size((int) from)) {
                    return null;
                }
            }
            int rowLength = (int) z.size(rank - 1);
            int[] sourceRows = new int[Math.toIntExact(z.length() / rowLength)];
            long[] index = new long[rank - 1];   // Z's row being filled, counted in C order
            for (int row = 0; row < sourceRows.length; row++) {
                long start = 0;
                for (int axis = 0; axis < rank - 1; axis++) {
                    start += index[axis] * x.stride(permutation.get(axis).intValue());
                }
                sourceRows[row] = (int) start;
                for (int axis = rank - 2; axis >= 0 && ++index[axis] == z.size(axis); axis--) {
                    index[axis] = 0;
                }
            }
            return new RowPermutation(x, z, sourceRows, rowLength);
        }

        @Override
        public void run() {
            VectorMath.copyRows(x.data().asNio(), sourceRows, rowLength, z.data().asNio());
        }
    }

    /** Z = op(A) · op(B) over the leading dimensions, which all three share. */
    public record Product(Operand a, boolean transposeA, Operand b, boolean transposeB, Operand z, int batch, int m, int k, int n) {

        static Product of(INDArray a, boolean transposeA, INDArray b, boolean transposeB, INDArray z) {
            int rank = z.rank();
            if (a.rank() != rank || b.rank() != rank) {
                return null;
            }
            long[] leading = Arrays.copyOf(z.shape(), rank - 2);
            if (!Arrays.equals(leading, Arrays.copyOf(a.shape(), rank - 2)) || !Arrays.equals(leading, Arrays.copyOf(b.shape(), rank - 2))) {
                return null;
            }
            long m = z.size(rank - 2);
            long n = z.size(rank - 1);
            long k = transposeA ? a.size(rank - 2) : a.size(rank - 1);
            long am = transposeA ? a.size(rank - 1) : a.size(rank - 2);
            long bk = transposeB ? b.size(rank - 1) : b.size(rank - 2);
            long bn = transposeB ? b.size(rank - 2) : b.size(rank - 1);
            if (am != m || bk != k || bn != n || Math.max(Math.max(a.length(), b.length()), z.length()) > Integer.MAX_VALUE / Float.BYTES) {
                return null;
            }
            long batch = z.length() / (m * n);
            return new Product(Operand.dense(a), transposeA, Operand.dense(b), transposeB, Operand.dense(z), Math.toIntExact(batch),
                    (int) m, (int) k, (int) n);
        }

        void run(Scratch scratch) {
            VectorMath.multiply(a.blocks(), transposeA, b.blocks(), transposeB, z.blocks(), batch, m, k, n,
                    scratch.get((long) Math.max(m, k) * Math.max(k, n)));
        }
    }
}
