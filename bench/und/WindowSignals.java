import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.langid.serving.Detection;
import org.langid.serving.ServingModel;
import org.langid.serving.TextDetector;

/**
 * For bench/und/signals.sh: reads lines "LABEL<TAB>TEXT" on stdin and writes, per line, the
 * detector's answer and several measures of how sure it is, so that each can be tried as the
 * rule for und (text in none of the model's languages):
 *   label, answer, windows,
 *   combined  the answer's probability as the detector gives it (geometric mean of the windows, renormalised),
 *   mean      the arithmetic mean of the windows' probabilities of the answer,
 *   agree     the share of windows whose own most probable language is the answer,
 *   und_mean  the arithmetic mean of the windows' probabilities of und (0 without an und class).
 *   java -cp CLASSPATH WindowSignals MODEL < labelled.tsv > signals.tsv
 */
public final class WindowSignals {
    public static void main(String[] args) throws Exception {
        TextDetector.Options options = new TextDetector.Options(4, 256, 256, true);
        try (ServingModel model = ServingModel.load(Path.of(args[0]), options, 1)) {
            TextDetector detector = model.detector();
            List<String> languages = detector.languages();
            int classes = languages.size();
            int und = languages.indexOf("und");
            int window = new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(ServingModel.resolve(Path.of(args[0])).resolve(ServingModel.MANIFEST).toFile()).get("window").asInt();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            PrintStream out = new PrintStream(new java.io.BufferedOutputStream(System.out, 1 << 16), false, StandardCharsets.UTF_8);
            List<String[]> batch = new ArrayList<>();
            for (String line; (line = in.readLine()) != null; ) {
                String[] parts = line.split("\t", 2);
                batch.add(parts.length == 2 ? parts : new String[] {"?", parts[0]});
                if (batch.size() == 512) {
                    write(detector, batch, classes, und, languages, window, out);
                    batch.clear();
                }
            }
            write(detector, batch, classes, und, languages, window, out);
            out.flush();
        }
    }

    /** One batch: the detector's answers (detectAll) and every window's probabilities in one classify call. */
    private static void write(TextDetector detector, List<String[]> batch, int classes, int und, List<String> languages,
            int window, PrintStream out) {
        List<Detection> detections = detector.detectAll(batch.stream().map(item -> item[1]).toList());
        TextDetector.Plan[] plans = new TextDetector.Plan[batch.size()];
        int[] firstRow = new int[batch.size() + 1];
        for (int i = 0; i < batch.size(); i++) {
            plans[i] = detector.plan(batch.get(i)[1]);
            firstRow[i + 1] = firstRow[i] + plans[i].windows();
        }
        int[] symbols = new int[firstRow[batch.size()] * window];
        for (int i = 0; i < batch.size(); i++) {
            plans[i].writeSymbols(symbols, firstRow[i] * window, window);
        }
        float[] all = detector.classify(symbols, firstRow[batch.size()]);            // (rows, C)
        for (int i = 0; i < batch.size(); i++) {
            String[] item = batch.get(i);
            Detection detection = detections.get(i);
            int windows = plans[i].windows();
            if (windows == 0) {
                out.printf(Locale.ROOT, "%s\t%s\t0\t0\t0\t0\t0%n", item[0], detection.language());
                continue;
            }
            float[] p = java.util.Arrays.copyOfRange(all, firstRow[i] * classes, firstRow[i + 1] * classes);   // (windows, C)
            int answer = languages.indexOf(detection.language());
            double mean = 0;
            double undMean = 0;
            int agree = 0;
            for (int w = 0; w < windows; w++) {
                int best = 0;
                for (int c = 1; c < classes; c++) {
                    if (p[w * classes + c] > p[w * classes + best]) {
                        best = c;
                    }
                }
                if (best == answer) {
                    agree++;
                }
                mean += answer < 0 ? 0 : p[w * classes + answer];
                undMean += und < 0 ? 0 : p[w * classes + und];
            }
            out.printf(Locale.ROOT, "%s\t%s\t%d\t%.5f\t%.5f\t%.5f\t%.5f%n", item[0], detection.language(), windows,
                    detection.confidence(), mean / windows, (double) agree / windows, undMean / windows);
        }
    }

}
