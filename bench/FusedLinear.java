import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.DynamicCustomOp;
import org.nd4j.linalg.factory.Nd4j;

/**
 * One linear layer with its bias, forward and backward, three ways in libnd4j (bench/PROFILE.md,
 * "Levers measured"): what the graph runs (matmul, bias_add and their backward ops), the fused
 * xw_plus_b with its own xw_plus_b_bp (oneDNN's inner product in the -onednn build), and xw_plus_b
 * with the backward SameDiff M2.1 would build for it (XwPlusB.doDiff: a column sum and two matmuls).
 * Prints ms per forward + backward and the largest difference between the ways' results.
 *   java -cp "$(cat jobs/target/launcher-classpath.txt):$(cat jobs/target/launcher-provided-classpath.txt)" \
 *       bench/FusedLinear.java ROWS IN OUT        e.g. 4096 64 128 (batch 256 × 16 positions, the FFN's first)
 */
public class FusedLinear {
    static void exec(String name, INDArray[] in, INDArray[] out, int... iargs) {
        DynamicCustomOp.DynamicCustomOpsBuilder op = DynamicCustomOp.builder(name).addInputs(in).addOutputs(out);
        if (iargs.length > 0) {
            op.addIntegerArguments(iargs);
        }
        Nd4j.exec(op.build());
    }

    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]), in = Integer.parseInt(args[1]), out = Integer.parseInt(args[2]);
        int iterations = 200;
        Nd4j.getRandom().setSeed(1);
        INDArray x = Nd4j.rand(DataType.FLOAT, n, in), w = Nd4j.rand(DataType.FLOAT, in, out), b = Nd4j.rand(DataType.FLOAT, out);
        INDArray g = Nd4j.rand(DataType.FLOAT, n, out);                       // the loss's gradient at the output
        INDArray y = Nd4j.create(DataType.FLOAT, n, out), z = Nd4j.create(DataType.FLOAT, n, out), gy = Nd4j.create(DataType.FLOAT, n, out);
        INDArray[] separate = {Nd4j.create(DataType.FLOAT, n, in), Nd4j.create(DataType.FLOAT, in, out), Nd4j.create(DataType.FLOAT, out)};
        INDArray[] fused = {Nd4j.create(DataType.FLOAT, n, in), Nd4j.create(DataType.FLOAT, in, out), Nd4j.create(DataType.FLOAT, out)};
        INDArray[] composed = {Nd4j.create(DataType.FLOAT, n, in), Nd4j.create(DataType.FLOAT, in, out), Nd4j.create(DataType.FLOAT, out)};
        for (int repeat = 0; repeat < 3; repeat++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < iterations; i++) {
                exec("matmul", new INDArray[]{x, w}, new INDArray[]{y});
                exec("biasadd", new INDArray[]{y, b}, new INDArray[]{z});
                exec("biasadd_bp", new INDArray[]{y, b, g}, new INDArray[]{gy, separate[2]});
                exec("matmul_bp", new INDArray[]{x, w, gy}, new INDArray[]{separate[0], separate[1]});
            }
            long t1 = System.nanoTime();
            for (int i = 0; i < iterations; i++) {
                exec("xw_plus_b", new INDArray[]{x, w, b}, new INDArray[]{z});
                exec("xw_plus_b_bp", new INDArray[]{x, w, b, g}, fused);
            }
            long t2 = System.nanoTime();
            for (int i = 0; i < iterations; i++) {
                exec("xw_plus_b", new INDArray[]{x, w, b}, new INDArray[]{z});
                exec("reduce_sum", new INDArray[]{g}, new INDArray[]{composed[2]}, 0);
                exec("matmul", new INDArray[]{g, w}, new INDArray[]{composed[0]}, 0, 1, 0);
                exec("matmul", new INDArray[]{x, g}, new INDArray[]{composed[1]}, 1, 0, 0);
            }
            long t3 = System.nanoTime();
            System.out.printf("rows %d, %d -> %d: matmul + bias_add %.3f ms, xw_plus_b + xw_plus_b_bp %.3f ms, xw_plus_b + SameDiff's composed backward %.3f ms%n",
                    n, in, out, (t1 - t0) / 1e6 / iterations, (t2 - t1) / 1e6 / iterations, (t3 - t2) / 1e6 / iterations);
        }
        for (int k = 0; k < 3; k++) {
            System.out.printf("largest difference from matmul + bias_add, gradient %d: fused %s, composed %s%n", k,
                    separate[k].sub(fused[k]).amaxNumber(), separate[k].sub(composed[k]).amaxNumber());
        }
    }
}
