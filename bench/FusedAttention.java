import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.DynamicCustomOp;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The attention's core, forward and backward, two ways (bench/PROFILE.md, "Levers measured"):
 * the calls a training step runs today, one pass over the (B, H, T, T) or (B, H, T, hs) arrays
 * each (libnd4j's matmul, the scale, softmax, matmul; matmul_bp, softmax_bp, the scale,
 * matmul_bp), against one fused pass per (window, head) block on the JDK's vector API, which
 * keeps the scores and their gradients in registers and L1 and writes only P, O, dQ, dK, dV.
 * Prints ms per forward + backward and the largest difference between the two.
 *   OMP_NUM_THREADS=1 java --add-modules jdk.incubator.vector \
 *       -cp "$(cat jobs/target/launcher-classpath.txt):$(cat jobs/target/launcher-provided-classpath.txt)" \
 *       bench/FusedAttention.java [BATCH]        default 1024 windows (the profile's model: 4 heads of 16, 16 positions)
 * Needs 16 float lanes (AVX-512): a block's row is one vector.
 */
public class FusedAttention {
    static final VectorSpecies<Float> S = FloatVector.SPECIES_512;
    static final ByteOrder NATIVE = ByteOrder.nativeOrder();
    static final int T = 16;

    /** One libnd4j op by name (FusedLinear.java's twin: a single-file program cannot import another). */
    static void exec(String name, INDArray[] in, INDArray[] out, int... iargs) {
        DynamicCustomOp.DynamicCustomOpsBuilder op = DynamicCustomOp.builder(name).addInputs(in).addOutputs(out);
        if (iargs.length > 0) {
            op.addIntegerArguments(iargs);
        }
        Nd4j.exec(op.build());
    }

    public static void main(String[] args) {
        if (FloatVector.SPECIES_PREFERRED.length() < 16) {
            System.out.println("FusedAttention: needs 16 float lanes (AVX-512); this CPU has " + FloatVector.SPECIES_PREFERRED.length());
            return;
        }
        int batch = args.length > 0 ? Integer.parseInt(args[0]) : 1024;
        int heads = 4;
        float scale = 0.25f;                                           // 1/sqrt(16)
        Nd4j.getRandom().setSeed(1);
        INDArray q = Nd4j.rand(DataType.FLOAT, batch, heads, T, T).subi(0.5), k = Nd4j.rand(DataType.FLOAT, batch, heads, T, T).subi(0.5);
        INDArray v = Nd4j.rand(DataType.FLOAT, batch, heads, T, T).subi(0.5), dO = Nd4j.rand(DataType.FLOAT, batch, heads, T, T).subi(0.5);
        long[] shape = {batch, heads, T, T};
        INDArray s = Nd4j.create(DataType.FLOAT, shape), p = Nd4j.create(DataType.FLOAT, shape), o = Nd4j.create(DataType.FLOAT, shape);
        INDArray dP = Nd4j.create(DataType.FLOAT, shape), dV = Nd4j.create(DataType.FLOAT, shape), dS = Nd4j.create(DataType.FLOAT, shape);
        INDArray dQ = Nd4j.create(DataType.FLOAT, shape), dK = Nd4j.create(DataType.FLOAT, shape);
        INDArray fP = Nd4j.create(DataType.FLOAT, shape), fO = Nd4j.create(DataType.FLOAT, shape);
        INDArray fdQ = Nd4j.create(DataType.FLOAT, shape), fdK = Nd4j.create(DataType.FLOAT, shape), fdV = Nd4j.create(DataType.FLOAT, shape);

        Runnable separate = () -> {
            exec("matmul", new INDArray[] {q, k}, new INDArray[] {s}, 0, 1);          // S = Q Kᵀ
            s.muli(scale);
            exec("softmax", new INDArray[] {s}, new INDArray[] {p}, -1);
            exec("matmul", new INDArray[] {p, v}, new INDArray[] {o});                 // O = P V
            exec("matmul_bp", new INDArray[] {p, v, dO}, new INDArray[] {dP, dV});
            exec("softmax_bp", new INDArray[] {s, dP}, new INDArray[] {dS}, -1);
            dS.muli(scale);
            exec("matmul_bp", new INDArray[] {q, k, dS}, new INDArray[] {dQ, dK}, 0, 1);
        };
        float[][] scratch = new float[8][T * T];
        Runnable fused = () -> {
            forward(q.data().asNio(), k.data().asNio(), v.data().asNio(), fP.data().asNio(), fO.data().asNio(), batch * heads, scale, scratch);
            backward(q.data().asNio(), k.data().asNio(), v.data().asNio(), fP.data().asNio(), dO.data().asNio(),
                    fdQ.data().asNio(), fdK.data().asNio(), fdV.data().asNio(), batch * heads, scale, scratch);
        };
        separate.run();
        fused.run();
        double worst = 0;
        for (INDArray[] pair : new INDArray[][] {{p, fP}, {o, fO}, {dQ, fdQ}, {dK, fdK}, {dV, fdV}}) {
            worst = Math.max(worst, pair[0].sub(pair[1]).amaxNumber().doubleValue());
        }
        int iterations = 200;
        for (int round = 0; round < 3; round++) {
            double a = time(separate, iterations), b = time(fused, iterations);
            System.out.printf(java.util.Locale.ROOT, "batch %d, %d heads of %d: separate calls %.2f ms, fused %.2f ms (%.1fx) per forward + backward%n",
                    batch, heads, T, a, b, a / b);
        }
        System.out.printf(java.util.Locale.ROOT, "largest difference (P, O, dQ, dK, dV): %.2e%n", worst);
    }

    static double time(Runnable r, int iterations) {
        for (int i = 0; i < iterations / 4; i++) {
            r.run();
        }
        long start = System.nanoTime();
        for (int i = 0; i < iterations; i++) {
            r.run();
        }
        return (System.nanoTime() - start) / 1e6 / iterations;
    }

    static FloatVector row(ByteBuffer b, int block, int r) {
        return FloatVector.fromByteBuffer(S, b, (block * T * T + r * T) * Float.BYTES, NATIVE);
    }

    static void put(FloatVector x, ByteBuffer b, int block, int r) {
        x.intoByteBuffer(b, (block * T * T + r * T) * Float.BYTES, NATIVE);
    }

    static void load(ByteBuffer b, int block, float[] to) {
        for (int r = 0; r < T; r++) {
            row(b, block, r).intoArray(to, r * T);
        }
    }

    static void transpose(float[] from, float[] to) {
        for (int r = 0; r < T; r++) {
            for (int c = 0; c < T; c++) {
                to[c * T + r] = from[r * T + c];
            }
        }
    }

    /** P = softmax(scale · Q Kᵀ), O = P V, one (T, T) block at a time. */
    static void forward(ByteBuffer q, ByteBuffer k, ByteBuffer v, ByteBuffer p, ByteBuffer o, int blocks, float scale, float[][] scratch) {
        float[] qa = scratch[0], kt = scratch[1], ka = scratch[2], pa = scratch[3];
        for (int b = 0; b < blocks; b++) {
            load(q, b, qa);
            load(k, b, ka);
            transpose(ka, kt);
            for (int i = 0; i < T; i++) {
                FloatVector acc = FloatVector.zero(S);
                for (int c = 0; c < T; c++) {
                    acc = FloatVector.fromArray(S, kt, c * T).fma(FloatVector.broadcast(S, qa[i * T + c]), acc);
                }
                acc = acc.mul(scale);
                FloatVector e = acc.sub(acc.reduceLanes(VectorOperators.MAX)).lanewise(VectorOperators.EXP);
                FloatVector pi = e.div(e.reduceLanes(VectorOperators.ADD));
                pi.intoArray(pa, i * T);
                put(pi, p, b, i);
            }
            product(pa, false, v, b, o);
        }
    }

    /** Block b of {@code out} = op(a) · block b of {@code right}, where op(a)[i][j] is a[i·T + j], or a[j·T + i] if transposed. */
    static void product(float[] a, boolean transposed, ByteBuffer right, int b, ByteBuffer out) {
        for (int i = 0; i < T; i++) {
            FloatVector acc = FloatVector.zero(S);
            for (int j = 0; j < T; j++) {
                acc = row(right, b, j).fma(FloatVector.broadcast(S, a[transposed ? j * T + i : i * T + j]), acc);
            }
            put(acc, out, b, i);
        }
    }

    /** dV = Pᵀ dO, dP = dO Vᵀ, dS = scale · P ∘ (dP − rowsum(dP ∘ P)), dQ = dS K, dK = dSᵀ Q. */
    static void backward(ByteBuffer q, ByteBuffer k, ByteBuffer v, ByteBuffer p, ByteBuffer dO, ByteBuffer dQ, ByteBuffer dK, ByteBuffer dV,
                         int blocks, float scale, float[][] scratch) {
        float[] pa = scratch[3], va = scratch[4], vt = scratch[5], doa = scratch[6], ds = scratch[7];
        for (int b = 0; b < blocks; b++) {
            load(p, b, pa);
            load(dO, b, doa);
            load(v, b, va);
            transpose(va, vt);
            product(pa, true, dO, b, dV);
            for (int i = 0; i < T; i++) {
                FloatVector dp = FloatVector.zero(S);
                for (int c = 0; c < T; c++) {
                    dp = FloatVector.fromArray(S, vt, c * T).fma(FloatVector.broadcast(S, doa[i * T + c]), dp);
                }
                FloatVector pi = FloatVector.fromArray(S, pa, i * T);
                pi.mul(dp.sub(dp.mul(pi).reduceLanes(VectorOperators.ADD))).mul(scale).intoArray(ds, i * T);
            }
            product(ds, false, k, b, dQ);
            product(ds, true, q, b, dK);
        }
    }
}
