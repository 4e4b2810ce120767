package org.langid.jobs.train;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.langid.text.Alphabet;
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

    /**
     * Windows of {@code split} under {@code prepared}/windows whose language the model predicts,
     * as indices of the model's {@code alphabet}.
     */
    public static LabelledWindows read(SparkSession spark, String prepared, String split, List<String> languages, int windowLength,
                                       Alphabet alphabet) {
        return readPath(spark, prepared + "/windows/split=" + split, languages, windowLength, alphabet);
    }

    /** Windows in the Parquet file or directory {@code path} (data-schemas/windows.parquet.txt). */
    public static LabelledWindows readPath(SparkSession spark, String path, List<String> languages, int windowLength, Alphabet alphabet) {
        return read(spark.read().parquet(path).select("language", "window"), path, languages, windowLength, alphabet, false).windows();
    }

    /** Windows and, for each, the id of the sentence prepare cut it from (its row's {@code sentence_id}); null ids if unknown. */
    public record WithSentences(LabelledWindows windows, long[] sentenceIds) {
    }

    /**
     * As {@link #readPath}, with each window's sentence id, or null ids when the Parquet has no
     * {@code sentence_id} column (windows written by something other than prepare).
     */
    public static WithSentences readPathWithSentences(SparkSession spark, String path, List<String> languages, int windowLength,
                                                      Alphabet alphabet) {
        Dataset<Row> all = spark.read().parquet(path);
        boolean hasIds = Arrays.asList(all.columns()).contains("sentence_id");
        Dataset<Row> rows = hasIds ? all.select("language", "window", "sentence_id") : all.select("language", "window");
        return read(rows, path, languages, windowLength, alphabet, hasIds);
    }

    private static WithSentences read(Dataset<Row> rows, String path, List<String> languages, int windowLength, Alphabet alphabet,
                                      boolean withIds) {
        long count = rows.count();
        if (count > Integer.MAX_VALUE / windowLength) {
            throw new IllegalArgumentException(path + " has " + count + " windows, more than one JVM array holds; cap them with prepare.max_windows_per_language");
        }
        Map<String, Long> skipped = new TreeMap<>();
        Iterator<Row> source = rows.toLocalIterator();
        long[] ids = withIds ? new long[(int) count] : null;
        int[] kept = {0};
        Iterator<Row> recording = !withIds ? source : new Iterator<>() {
            // encode keeps exactly the rows of the model's languages, in order: their ids are taken as they pass.
            private final java.util.Set<String> predicted = new java.util.HashSet<>(languages);

            @Override
            public boolean hasNext() {
                return source.hasNext();
            }

            @Override
            public Row next() {
                Row row = source.next();
                if (predicted.contains(row.getString(0))) {
                    ids[kept[0]++] = row.getLong(2);
                }
                return row;
            }
        };
        // Sized from the count: the full corpus's 13.3M training windows are ~270 MB here, and a
        // growing buffer's doubling and final copy took ~2.5x that, more than spark-submit's 1g driver.
        LabelledWindows windows = encode(recording, languages, windowLength, alphabet, path, skipped, (int) count);
        if (!skipped.isEmpty()) {
            LOG.warn("{}: skipped windows of languages the model does not predict: {}", path, skipped);
        }
        return new WithSentences(windows, withIds ? Arrays.copyOf(ids, kept[0]) : null);
    }

    /**
     * (language, window) rows as compact windows labelled by their index in {@code languages};
     * rows of other languages are left out and counted in {@code skipped}. Used on the driver
     * ({@link #read}) and on the executors ({@link Shards}).
     */
    static LabelledWindows encode(Iterator<Row> rows, List<String> languages, int windowLength, Alphabet alphabet, String source,
                                  Map<String, Long> skipped) {
        return encode(rows, languages, windowLength, alphabet, source, skipped, 1024);
    }

    /** As above, with room for {@code expected} windows from the start (it grows if more come). */
    static LabelledWindows encode(Iterator<Row> rows, List<String> languages, int windowLength, Alphabet alphabet, String source,
                                  Map<String, Long> skipped, int expected) {
        Map<String, Integer> labelOf = new HashMap<>();
        for (int i = 0; i < languages.size(); i++) {
            labelOf.put(languages.get(i), i);
        }
        char[] symbols = new char[Math.max(expected, 1) * windowLength];
        int[] labels = new int[Math.max(expected, 1)];
        int size = 0;
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
            if (size == labels.length) {
                int grown = (int) Math.min(Integer.MAX_VALUE / windowLength, labels.length + (long) labels.length / 2 + 1);
                symbols = Arrays.copyOf(symbols, grown * windowLength);
                labels = Arrays.copyOf(labels, grown);
            }
            char[] encoded;
            try {
                encoded = alphabet.encode(window);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(source + " holds windows in another alphabet than the model's (" + alphabet
                        + "): " + e.getMessage() + "; prepare with the model's prepare.alphabet");
            }
            System.arraycopy(encoded, 0, symbols, size * windowLength, windowLength);
            labels[size++] = label;
        }
        if (size < labels.length) {
            symbols = Arrays.copyOf(symbols, size * windowLength);
            labels = Arrays.copyOf(labels, size);
        }
        return new LabelledWindows(symbols, labels, windowLength, languages);
    }
}
