package org.langid.model.onnx;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.langid.model.artefact.ModelArtefact;
import org.langid.model.artefact.ModelRegistry;
import org.langid.model.data.Split;
import org.langid.model.graph.ModelConfig;
import org.langid.model.train.LabelledWindows;
import org.langid.model.train.SampleCorpus;
import org.langid.serving.OnnxWindowClassifier;

class Int8SchemeExperiment {
    @Test
    void run() throws Exception {
        Configuration conf = new Configuration();
        ModelArtefact release = ModelArtefact.load(ModelRegistry.resolve(Path.of("..", "models").toString(), conf), conf);
        ModelConfig config = release.manifest().modelConfig();
        LabelledWindows test = SampleCorpus.load(config.languages, config.window, 1).get(Split.TEST);
        int[] symbols = OnnxParityTest.withPaddedWindows(test.symbols(), config.window);
        int rows = symbols.length / config.window;
        int c = config.classes();
        String v = release.manifest().modelVersion();
        String[] schemes = System.getProperty("schemes", "float,s8,s7,u8").split(",");
        OnnxWindowClassifier[] cl = new OnnxWindowClassifier[schemes.length];
        for (int i = 0; i < schemes.length; i++) {
            byte[] bytes;
            if (schemes[i].equals("float")) {
                bytes = OnnxGraphWriter.write(config, release.parameters(), v, OnnxGraphWriter.Precision.FLOAT, release.ngramFilter());
            } else {
                OnnxGraphWriter.weightScheme = schemes[i];
                bytes = OnnxGraphWriter.write(config, release.parameters(), v, OnnxGraphWriter.Precision.INT8, release.ngramFilter());
            }
            Files.write(Path.of("/tmp/int8exp/" + schemes[i] + ".onnx"), bytes);
            cl[i] = new OnnxWindowClassifier(bytes, v, config.window, c, 1);
        }
        int batch = Integer.getInteger("batch", 256);
        int roundsN = Integer.getInteger("rounds", 4);
        float[][] out = new float[schemes.length][rows * c];
        for (int round = 0; round < roundsN; round++) {
            long[] nanos = new long[schemes.length];
            for (int from = 0; from < rows; from += batch) {
                int n = Math.min(batch, rows - from);
                int[] slice = java.util.Arrays.copyOfRange(symbols, from * config.window, (from + n) * config.window);
                for (int k = 0; k < schemes.length; k++) {
                    int g = (k + from / batch) % schemes.length;
                    long t0 = System.nanoTime();
                    float[] p = cl[g].probabilities(slice, n);
                    nanos[g] += System.nanoTime() - t0;
                    System.arraycopy(p, 0, out[g], from * c, p.length);
                }
            }
            StringBuilder sb = new StringBuilder("round " + round + ":");
            for (int g = 0; g < schemes.length; g++) {
                sb.append(String.format(" %s %.2f s (%.3f)", schemes[g], nanos[g] / 1e9, (double) nanos[g] / nanos[0]));
            }
            System.out.println(sb);
        }
        int[] labels = test.labels();
        float[] sd = OnnxParityTest.sameDiffProbabilities(release.newGraph(), config, symbols, rows);
        for (int g = 0; g < schemes.length; g++) {
            int same = 0;
            for (int r = 0; r < rows; r++) same += argmax(sd, r * c, c) == argmax(out[g], r * c, c) ? 1 : 0;
            System.out.printf("%s: same as SameDiff on %d of %d (%.3f%%)%n", schemes[g], same, rows, 100.0 * same / rows);
        }
        for (int g = 0; g < schemes.length; g++) {
            int same = 0, right = 0;
            double maxd = 0;
            for (int r = 0; r < rows; r++) {
                int a = argmax(out[0], r * c, c), b = argmax(out[g], r * c, c);
                same += a == b ? 1 : 0;
                if (r < labels.length) right += b == labels[r] ? 1 : 0;
                for (int j = 0; j < c; j++) maxd = Math.max(maxd, Math.abs(out[0][r * c + j] - out[g][r * c + j]));
            }
            System.out.printf("%s: same as float on %d of %d (%.3f%%), accuracy %.3f%%, largest |dp| %.4f%n", schemes[g], same, rows,
                    100.0 * same / rows, 100.0 * right / labels.length, maxd);
        }
    }

    private static int argmax(float[] v, int from, int n) {
        int best = 0;
        for (int i = 1; i < n; i++) if (v[from + i] > v[from + best]) best = i;
        return best;
    }
}
