/**
 * y = 0.999·y + x over two float arrays for 10 s, printing GFLOP/s: a loop whose speed is set by
 * where its working set lives (cache or main memory). bench/training/scaling.sh runs it alone and two at
 * once, to tell whether two cores share a memory bottleneck.
 *   java bench/training/MemoryScaling.java FLOATS_PER_ARRAY
 */
public class MemoryScaling {
    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        float[] x = new float[n];
        float[] y = new float[n];
        for (int i = 0; i < n; i++) {
            x[i] = i * 1e-6f;
            y[i] = 1f;
        }
        long start = System.nanoTime();
        long flops = 0;
        int passes = Math.max(1, 4_000_000 / n);
        while (System.nanoTime() - start < 10_000_000_000L) {
            for (int p = 0; p < passes; p++) {
                for (int i = 0; i < n; i++) {
                    y[i] = y[i] * 0.999f + x[i];
                }
                flops += 2L * n;
            }
        }
        System.out.printf("%.2f%n", flops / ((System.nanoTime() - start) / 1e9) / 1e9);
    }
}
