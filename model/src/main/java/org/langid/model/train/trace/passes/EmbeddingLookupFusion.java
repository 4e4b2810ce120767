package org.langid.model.train.trace.passes;

import static org.langid.model.train.trace.passes.StepDataflow.same;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.langid.model.train.kernels.VectorKernels;
import org.langid.model.train.trace.Call;
import org.langid.model.train.trace.passes.StepDataflow.Value;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Finds the character embedding of a recorded step ({@code LanguageIdGraph}: one-hot symbols times
 * the (V, d) embedding, because SameDiff M2.1 cannot train through {@code gather}) and runs it as a
 * lookup: forward, each position's row of the table; backward, each position's gradient added to
 * its symbol's row. The composed form writes a (B·T, V) one-hot array, copies it, multiplies it,
 * and backward also computes the one-hot's gradient, (B·T, V), that nothing reads.
 *
 * <p>Forward the rows are the product's values (a one-hot row picks one row of the table; every other
 * term is a zero), a signed zero aside. Backward each row of the table's gradient is its positions'
 * gradients summed in position order in double precision, then rounded: the product's sum in
 * another order, so equal to float rounding. An index outside 0 … V−1 (none in training: the
 * padding symbol has its own row) selects no row, as one-hot does. A lookup is only fused when its
 * calls are exactly that form, the one-hot array and its copy are read by nothing else, and the
 * symbols are intact where the passes read them.
 *
 * <p>Pattern: the embedding in {@code LanguageIdGraph.define} (marked there).
 */
final class EmbeddingLookupFusion {

    private EmbeddingLookupFusion() {
    }

    private record Match(BitSet calls, int forwardAt, int backwardAt, INDArray symbols, INDArray table, INDArray y, INDArray dy,
                         INDArray dTable) {
    }

    /** {@code calls} with each lookup it can fuse replaced by its two passes; the calls fused away go to {@code retired}. */
    static List<Call> fuse(List<Call> calls, java.util.Collection<INDArray> results, List<Call> retired) {
        StepDataflow flow = new StepDataflow(calls, results);
        BitSet taken = new BitSet();
        List<Match> matches = flow.matches("onehot", i -> match(flow, i), Match::calls, taken);
        if (matches.isEmpty()) {
            return calls;
        }
        Map<Integer, Runnable> fused = new HashMap<>();
        for (Match m : matches) {
            int positions = (int) m.symbols.length();
            int rows = (int) m.table.size(0);
            int d = (int) m.table.size(1);
            double[] sums = new double[rows * d];   // per plan, which runs on one thread
            fused.put(m.forwardAt, () -> lookup(ints(m.symbols), floats(m.table), floats(m.y), positions, rows, d));
            fused.put(m.backwardAt, () -> lookupGradient(ints(m.symbols), floats(m.dy), floats(m.dTable), positions, rows, d, sums));
        }
        return StepDataflow.rewritten(calls, fused, taken, retired);
    }

    /** y[p, :] = table[symbols[p], :] for each of {@code positions} positions; zeros for a symbol outside 0 … rows−1. */
    static void lookup(IntBuffer symbols, FloatBuffer table, FloatBuffer y, int positions, int rows, int d) {
        float[] row = new float[d];
        float[] zeros = new float[d];
        for (int p = 0; p < positions; p++) {
            int s = symbols.get(p);
            if (s >= 0 && s < rows) {
                table.get(s * d, row, 0, d);
                y.put(p * d, row, 0, d);
            } else {
                y.put(p * d, zeros, 0, d);
            }
        }
    }

    /** dTable[s, :] = Σ over the positions p with symbols[p] = s of dy[p, :], summed in p's order in {@code sums}, then rounded. */
    static void lookupGradient(IntBuffer symbols, FloatBuffer dy, FloatBuffer dTable, int positions, int rows, int d, double[] sums) {
        Arrays.fill(sums, 0.0);
        float[] row = new float[d];
        for (int p = 0; p < positions; p++) {
            int s = symbols.get(p);
            if (s >= 0 && s < rows) {
                dy.get(p * d, row, 0, d);
                int at = s * d;
                for (int j = 0; j < d; j++) {
                    sums[at + j] += row[j];
                }
            }
        }
        for (int i = 0; i < rows * d; i++) {
            dTable.put(i, (float) sums[i]);
        }
    }

    /** The lookup whose one-hot is call {@code oneHot}, or null if anything differs from reshape(onehot(S), (B·T, V)) · E. */
    private static Match match(StepDataflow f, int oneHot) {
        var context = f.calls.get(oneHot).context();
        List<Long> ints = context.getIArguments();
        List<Double> reals = context.getTArguments();
        Value symbols = f.in(oneHot, 0);
        INDArray oneHots = f.out(oneHot, 0).array();
        if (context.getInputArrays().size() != 1 || ints.size() < 2 || !(ints.get(0) == -1 || ints.get(0) == oneHots.rank() - 1)
                || (reals.size() > 0 && reals.get(0) != 1.0) || (reals.size() > 1 && reals.get(1) != 0.0)
                || symbols.array().dataType() != DataType.INT || !denseInts(symbols.array())) {
            return null;
        }
        long depth = ints.get(1);
        int reshape = f.reader(f.out(oneHot, 0), "reshape", 0);
        if (reshape < 0) {
            return null;
        }
        Value flat = f.out(reshape, 0);
        int product = f.reader(flat, "matmul", 0);
        int gradient = f.reader(flat, "matmul_bp", 0);
        if (product < 0 || gradient < product || !plain(f, product) || !plain(f, gradient)) {
            return null;
        }
        Value table = f.in(product, 1);
        if (!same(f.in(gradient, 1), table) || table.array().rank() != 2 || table.array().size(0) != depth) {
            return null;
        }
        BitSet calls = new BitSet();
        calls.set(oneHot);
        calls.set(reshape);
        calls.set(product);
        calls.set(gradient);
        Value y = f.out(product, 0);
        Value dy = f.in(gradient, 2);
        Value dTable = f.out(gradient, 1);
        // The one-hot, its copy and its gradient are read by the fused calls alone.
        if (!f.readWithin(calls, List.of(y, dTable))) {
            return null;
        }
        long positions = symbols.array().length();
        long d = table.array().size(1);
        BitSet skipped = (BitSet) calls.clone();
        skipped.clear(product);
        if (!f.untouched(symbols.array(), symbols.call(), gradient, skipped)
                || !VectorKernels.denseFloats(table.array(), y.array(), dy.array(), dTable.array())
                || !Arrays.equals(y.array().shape(), new long[] {positions, d}) || !Arrays.equals(dy.array().shape(), y.array().shape())
                || !Arrays.equals(dTable.array().shape(), table.array().shape()) || flat.array().size(0) != positions) {
            return null;
        }
        return new Match(calls, product, gradient, symbols.array(), table.array(), y.array(), dy.array(), dTable.array());
    }

    /** A product without transposes or scaling (matmul's integer arguments all 0, no real ones but α = 1). */
    private static boolean plain(StepDataflow f, int call) {
        var context = f.calls.get(call).context();
        List<Double> reals = context.getTArguments();
        return context.getIArguments().stream().allMatch(a -> a == 0) && (reals.isEmpty() || (reals.get(0) == 1.0 && (reals.size() < 2 || reals.get(1) == 0.0)));
    }

    /** C order, default strides, no offset, a buffer of exactly its values (the fed symbols are a view by that definition). */
    private static boolean denseInts(INDArray array) {
        return array.ordering() == 'c' && array.offset() == 0 && array.data().length() == array.length()
                && org.nd4j.linalg.api.shape.Shape.hasDefaultStridesForShape(array);
    }

    private static IntBuffer ints(INDArray array) {
        return array.data().asNio().order(ByteOrder.nativeOrder()).asIntBuffer();
    }

    private static FloatBuffer floats(INDArray array) {
        ByteBuffer bytes = array.data().asNio();
        return bytes.order(ByteOrder.nativeOrder()).asFloatBuffer();
    }
}
