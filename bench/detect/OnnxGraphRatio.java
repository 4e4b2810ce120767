import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtSession;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.langid.serving.OnnxWindowClassifier;
import org.langid.serving.TextDetector;
import org.langid.text.Alphabet;

/**
 * Several ONNX graphs of one model over the same windows in one JVM, batch by batch in rotating
 * order, each on one ONNX Runtime thread set up by OnnxWindowClassifier.sessionOptions: machine noise
 * falls on every graph alike, so the time ratios wander by a few percent from round to round where
 * whole processes alternated wander by a third (docs/RESULTS.md, "Detection speed"). Prints each round's
 * seconds per graph and their ratios to the first, then how far each graph's probabilities are
 * from the first's (largest difference, windows labelled differently).
 *   bench/detect/onnx-graphs.sh PREPARED A.onnx B.onnx [C.onnx ...]   (builds the windows file, runs this)
 *   java -cp "$(cat serving/target/quick-predict-classpath.txt):serving/target/classes" \
 *       bench/detect/OnnxGraphRatio.java WINDOWS.tsv BATCH ROUNDS A.onnx B.onnx ...
 * WINDOWS.tsv: language TAB window per line, as `langid bench windows` writes it.
 */
public class OnnxGraphRatio {
    private static final int T = 16;

    public static void main(String[] args) throws Exception {
        if (args.length < 5) {
            System.err.println("usage: OnnxGraphRatio WINDOWS.tsv BATCH ROUNDS A.onnx B.onnx [more.onnx ...]");
            System.exit(2);
        }
        List<String> lines = Files.readAllLines(Path.of(args[0]));
        int batch = Integer.parseInt(args[1]);
        int rounds = Integer.parseInt(args[2]);
        int n = lines.size();
        int[] symbols = new int[n * T];                                                          // (n, T)
        for (int i = 0; i < n; i++) {
            String window = lines.get(i).substring(lines.get(i).indexOf('\t') + 1);
            for (int j = 0; j < T; j++) {
                symbols[i * T + j] = j < window.length() ? Alphabet.SEED.indexOf(window.charAt(j)) : Alphabet.SEED.pad();
            }
        }
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        int graphs = args.length - 3;
        OrtSession[] sessions = new OrtSession[graphs];
        for (int g = 0; g < graphs; g++) {
            try (OrtSession.SessionOptions options = OnnxWindowClassifier.sessionOptions(1)) {
                sessions[g] = env.createSession(Files.readAllBytes(Path.of(args[3 + g])), options);
            }
        }
        String input = sessions[0].getInputNames().iterator().next();
        float[][] probabilities = new float[graphs][];
        for (int round = 0; round < rounds; round++) {
            long[] nanos = new long[graphs];
            int b = 0;
            for (int start = 0; start < n; start += batch, b++) {
                int rows = Math.min(batch, n - start);
                for (int q = 0; q < graphs; q++) {
                    int g = (b + q) % graphs;                                                    // each graph first in turn
                    try (OnnxTensor windows = OnnxTensor.createTensor(env, IntBuffer.wrap(symbols, start * T, rows * T).slice(),
                            new long[] {rows, T})) {
                        long began = System.nanoTime();
                        try (OrtSession.Result result = sessions[g].run(Map.of(input, windows))) {
                            nanos[g] += System.nanoTime() - began;
                            if (round == 0) {
                                FloatBuffer out = ((OnnxTensor) result.get(0)).getFloatBuffer();     // (rows, C)
                                if (probabilities[g] == null) {
                                    probabilities[g] = new float[n * out.remaining() / rows];
                                }
                                out.get(probabilities[g], start * (out.remaining() / rows), out.remaining());
                            }
                        }
                    }
                }
            }
            StringBuilder line = new StringBuilder(String.format("round %d (s):", round));
            for (int g = 0; g < graphs; g++) {
                line.append(String.format(" %.3f", nanos[g] / 1e9));
            }
            for (int g = 1; g < graphs; g++) {
                line.append(String.format(" | graph %d / graph 0: %.3f", g, (double) nanos[g] / nanos[0]));
            }
            System.out.println(line);
        }
        int classes = probabilities[0].length / n;
        for (int g = 1; g < graphs; g++) {
            double largest = 0;
            int relabelled = 0;
            for (int i = 0; i < n; i++) {
                int a = 0;
                int c = 0;
                for (int k = 0; k < classes; k++) {
                    largest = Math.max(largest, Math.abs(probabilities[g][i * classes + k] - probabilities[0][i * classes + k]));
                    a = probabilities[0][i * classes + k] > probabilities[0][i * classes + a] ? k : a;
                    c = probabilities[g][i * classes + k] > probabilities[g][i * classes + c] ? k : c;
                }
                relabelled += a == c ? 0 : 1;
            }
            System.out.printf("graph %d against graph 0: largest probability difference %.3g, %d of %d windows labelled differently%n",
                    g, largest, relabelled, n);
        }
    }
}
