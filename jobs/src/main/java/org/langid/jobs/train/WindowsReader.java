package org.langid.jobs.train;

import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.langid.model.text.Vocabulary;
import org.langid.model.train.LabelledWindows;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one split of {@code prepare}'s Parquet windows into the compact in-memory form the
 * trainers use, streaming rows to the driver (never all of them as objects at once).
 */
public final class WindowsReader {

    private static final Logger LOG = LoggerFactory.getLogger(WindowsReader.class);

    private WindowsReader() {
    }

    /** Windows of {@code split} under {@code prepared}/windows whose language the model predicts. */
    public static LabelledWindows read(SparkSession spark, String prepared, String split, List<String> languages, int windowLength) {
        String path = prepared + "/windows/split=" + split;
        var rows = spark.read().parquet(path).select("language", "window");
        long count = rows.count();
        if (count > Integer.MAX_VALUE / windowLength) {
            throw new IllegalArgumentException(path + " has " + count + " windows, more than one JVM array holds; cap them with prepare.max_windows_per_language");
        }
        Map<String, Integer> labelOf = new HashMap<>();
        for (int i = 0; i < languages.size(); i++) {
            labelOf.put(languages.get(i), i);
        }
        byte[] symbols = new byte[(int) count * windowLength];
        int[] labels = new int[(int) count];
        Map<String, Long> skipped = new TreeMap<>();
        int n = 0;
        for (Iterator<Row> it = rows.toLocalIterator(); it.hasNext(); ) {
            Row row = it.next();
            Integer label = labelOf.get(row.getString(0));
            String window = row.getString(1);
            if (label == null) {
                skipped.merge(row.getString(0), 1L, Long::sum);
                continue;
            }
            if (window.length() != windowLength) {
                throw new IllegalArgumentException(path + " holds windows of " + window.length() + " characters; the model reads "
                        + windowLength + " (prepare.window.length and model.window must agree)");
            }
            System.arraycopy(Vocabulary.encode(window), 0, symbols, n * windowLength, windowLength);
            labels[n++] = label;
        }
        if (!skipped.isEmpty()) {
            LOG.warn("{}: skipped windows of languages the model does not predict: {}", path, skipped);
        }
        return new LabelledWindows(java.util.Arrays.copyOf(symbols, n * windowLength), java.util.Arrays.copyOf(labels, n),
                windowLength, languages);
    }
}
