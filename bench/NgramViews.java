import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;
import org.langid.model.artefact.ModelArtefact;
import org.langid.model.graph.BulkArrays;
import org.langid.model.graph.CharacterNgrams;
import org.langid.model.graph.LanguageIdGraph;
import org.langid.model.graph.ModelConfig;
import org.langid.model.graph.NgramFilter;
import org.langid.model.graph.ParameterLayout;
import org.langid.text.CaseFolding;
import org.langid.text.Vocabulary;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Test-time n-gram dropout (bench/NGRAMS.md, "Dropped views averaged at inference"): each window
 * scored by the artefact's SameDiff graph with all its n-grams (as detection scores it), and by k
 * views whose n-grams each drop with probability RATE, as in training (model.ngram_dropout).
 * Prints the accuracy of the full view, of the mean of the first v dropped views, and of the full
 * view averaged with that mean (half each), for v = 1..k.
 *   bench/ngram-views.sh MODEL PREPARED [SPLIT...]   (writes the windows file, runs this)
 *   java -cp JOBS_CLASSPATH bench/NgramViews.java ARTEFACT_DIR WINDOWS.tsv EVERY RATE K
 * WINDOWS.tsv: language TAB window per line, as `langid bench windows` writes it; EVERY n scores
 * every n-th line.
 */
public class NgramViews {
    private static final int BATCH = 4096;

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: NgramViews ARTEFACT_DIR WINDOWS.tsv EVERY RATE K");
            System.exit(2);
        }
        ModelArtefact artefact = ModelArtefact.load(args[0], new Configuration());
        int every = Integer.parseInt(args[2]);
        double rate = Double.parseDouble(args[3]);
        int k = Integer.parseInt(args[4]);
        ModelConfig config = artefact.manifest().modelConfig();
        if (!config.ngrams()) {
            System.err.println("NgramViews: the model at " + args[0] + " has no n-gram embedding, so no n-grams to drop");
            System.exit(1);
        }
        List<String> languages = artefact.manifest().languages();
        SameDiff sd = artefact.newGraph();
        NgramFilter filter = LanguageIdGraph.filter(config, sd);
        INDArray table = sd.getArrForVarName(LanguageIdGraph.NGRAM_TABLE);
        int t = config.window;
        int c = languages.size();

        List<int[]> windows = new ArrayList<>();
        List<Integer> labels = new ArrayList<>();
        List<String> lines = Files.readAllLines(Path.of(args[1]));
        for (int i = 0; i < lines.size(); i += every) {
            String[] fields = lines.get(i).split("\t", 2);
            int[] symbols = new int[t];
            for (int j = 0; j < t; j++) {
                symbols[j] = j < fields[1].length() ? Vocabulary.indexOf(fields[1].charAt(j)) : ParameterLayout.PAD;
            }
            int label = languages.indexOf(fields[0]);
            if (label < 0) {
                System.err.println("NgramViews: line " + (i + 1) + " is labelled " + fields[0] + ", which the model does not know " + languages);
                System.exit(1);
            }
            windows.add(symbols);
            labels.add(label);
        }
        int n = labels.size();
        long[] correct = new long[2 * k + 1];   // [0] full; [v] mean of v dropped views; [k + v] full and that mean, half each
        SplittableRandom random = new SplittableRandom(42);
        for (int from = 0; from < n; from += BATCH) {
            int rows = Math.min(BATCH, n - from);
            int[] symbols = new int[rows * t];                                                          // (B, T)
            for (int r = 0; r < rows; r++) {
                System.arraycopy(windows.get(from + r), 0, symbols, r * t, t);
            }
            CaseFolding.foldCapitalWindows(symbols, t);   // detection's rule for text in capitals
            int[] ids = CharacterNgrams.buckets(symbols, rows, t, config.ngramMaxOrder, (int) table.size(0), filter);
            float[] full = probabilities(sd, config, table, symbols, ids.clone(), rows);                // (B, C)
            float[] viewSum = new float[rows * c];
            tally(correct, 0, full, null, 0, labels, from, rows, c);
            for (int v = 1; v <= k; v++) {
                int[] dropped = ids.clone();
                CharacterNgrams.dropNgrams(dropped, rate, random);
                float[] view = probabilities(sd, config, table, symbols, dropped, rows);
                for (int i = 0; i < viewSum.length; i++) {
                    viewSum[i] += view[i];
                }
                tally(correct, v, viewSum, null, 0, labels, from, rows, c);
                tally(correct, k + v, viewSum, full, v, labels, from, rows, c);
            }
        }
        StringBuilder out = new StringBuilder(String.format("%d windows, rate %.2f: full %.2f%%", n, rate, 100.0 * correct[0] / n));
        for (int v = 1; v <= k; v++) {
            out.append(String.format("; %d views %.2f%%, with full %.2f%%", v, 100.0 * correct[v] / n, 100.0 * correct[k + v] / n));
        }
        System.out.println(out);
    }

    /** Counts the rows whose largest (sum + fullWeight · full) is their label. */
    private static void tally(long[] correct, int slot, float[] sum, float[] full, int fullWeight,
                              List<Integer> labels, int from, int rows, int c) {
        for (int r = 0; r < rows; r++) {
            int best = 0;
            double bestValue = Double.NEGATIVE_INFINITY;
            for (int j = 0; j < c; j++) {
                double value = sum[r * c + j] + (full == null ? 0 : fullWeight * full[r * c + j]);
                if (value > bestValue) {
                    bestValue = value;
                    best = j;
                }
            }
            if (best == labels.get(from + r)) {
                correct[slot]++;
            }
        }
    }

    /** The graph's probabilities for (rows, T) symbols whose n-grams are {@code ids} (renumbered in place). */
    private static float[] probabilities(SameDiff sd, ModelConfig config, INDArray table, int[] symbols, int[] ids, int rows) {
        int t = config.window;
        double[] summed = CharacterNgrams.lookup(ids, rows * t, config.ngramMaxOrder - 1, table).summed();   // (B·T, e)
        Map<String, INDArray> feed = new HashMap<>();
        feed.put(LanguageIdGraph.WINDOWS, Nd4j.createFromArray(symbols).reshape(rows, t));
        feed.put(LanguageIdGraph.NGRAMS, BulkArrays.of(summed, table.dataType()).reshape((long) rows * t, config.ngramWidth()));
        return sd.output(feed, LanguageIdGraph.PROBABILITIES).get(LanguageIdGraph.PROBABILITIES).data().asFloat();
    }
}
