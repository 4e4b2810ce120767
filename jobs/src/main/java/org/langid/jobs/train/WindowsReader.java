package org.langid.jobs.train;

import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.langid.text.Vocabulary;
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
        return readPath(spark, prepared + "/windows/split=" + split, languages, windowLength);
    }

    /** Windows in the Parquet file or directory {@code path} (data-schemas/windows.parquet.txt). */
    public static LabelledWindows readPath(SparkSession spark, String path, List<String> languages, int windowLength) {
        var rows = spark.read().parquet(path).select("language", "window");
        long count = rows.count();
        if (count > Integer.MAX_VALUE / windowLength) {
            throw new IllegalArgumentException(path + " has " + count + " windows, more than one JVM array holds; cap them with prepare.max_windows_per_language");
        }
        Map<String, Long> skipped = new TreeMap<>();
        LabelledWindows windows = encode(rows.toLocalIterator(), languages, windowLength, path, skipped);
        if (!skipped.isEmpty()) {
            LOG.warn("{}: skipped windows of languages the model does not predict: {}", path, skipped);
        }
        return windows;
    }

    /**
     * (language, window) rows as compact windows labelled by their index in {@code languages};
     * rows of other languages are left out and counted in {@code skipped}. Used on the driver
     * ({@link #read}) and on the executors ({@link Shards}).
     */
    static LabelledWindows encode(Iterator<Row> rows, List<String> languages, int windowLength, String source,
                                  Map<String, Long> skipped) {
        Map<String, Integer> labelOf = new HashMap<>();
        for (int i = 0; i < languages.size(); i++) {
            labelOf.put(languages.get(i), i);
        }
        java.io.ByteArrayOutputStream symbols = new java.io.ByteArrayOutputStream();
        java.util.stream.IntStream.Builder labels = java.util.stream.IntStream.builder();
        while (rows.hasNext()) {
            Row row = rows.next();
            Integer label = labelOf.get(row.getString(0));
            if (label == null) {
                skipped.merge(row.getString(0), 1L, Long::sum);
                continue;
            }
            String window = row.getString(1);
            if (window.length() != windowLength) {
                throw new IllegalArgumentException(source + " holds windows of " + window.length() + " characters; the model reads "
                        + windowLength + " (prepare.window.length and model.window must agree)");
            }
            symbols.writeBytes(Vocabulary.encode(window));
            labels.add(label);
        }
        return new LabelledWindows(symbols.toByteArray(), labels.build().toArray(), windowLength, languages);
    }
}
