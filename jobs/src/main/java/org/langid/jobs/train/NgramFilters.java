package org.langid.jobs.train;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.langid.model.graph.ModelConfig;
import org.langid.model.graph.NgramFilter;
import org.langid.model.io.HadoopFiles;
import org.langid.text.Vocabulary;

/**
 * Builds the {@link NgramFilter} of a prepared dataset's training windows with Spark (each
 * partition fills a bitmap, the bitmaps are OR-ed together), and reads and writes it beside the
 * training state as {@value #FILE}: the bitmap's bytes, nothing else.
 */
public final class NgramFilters {

    /** The filter's file in the output directory of {@code langid train}. */
    public static final String FILE = "ngram-filter.bin";

    private NgramFilters() {
    }

    /** The filter of the windows of {@code prepared}'s training split in the model's languages, of {@code model.ngram_filter_bits}. */
    public static NgramFilter build(SparkSession spark, String prepared, ModelConfig model) {
        String path = prepared + "/windows/split=train";
        int bits = model.ngramFilterBits;
        int window = model.window;
        int maxOrder = model.ngramMaxOrder;
        Set<String> languages = new HashSet<>(model.languages);
        JavaRDD<Row> rows = spark.read().parquet(path).select("language", "window").javaRDD();
        JavaRDD<NgramFilter> partial = rows.mapPartitions(partition -> {
            NgramFilter filter = NgramFilter.empty(bits);
            int[] symbols = new int[window];
            while (partition.hasNext()) {
                Row row = partition.next();
                if (!languages.contains(row.getString(0))) {
                    continue;   // as the trainers: a window of a language the model does not predict is not trained on
                }
                byte[] encoded = Vocabulary.encode(row.getString(1));
                if (encoded.length != window) {
                    throw new IllegalArgumentException(path + " holds windows of " + encoded.length + " characters; the model reads " + window);
                }
                for (int i = 0; i < window; i++) {
                    symbols[i] = encoded[i];
                }
                filter.addAll(symbols, 1, window, maxOrder);
            }
            return List.of(filter).iterator();
        });
        return partial.treeReduce((a, b) -> {
            a.addAll(b);
            return a;
        });
    }

    /** What a summary or manifest says about {@code filter}. */
    public static ObjectNode describe(NgramFilter filter) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("bits", filter.size());
        node.put("bits_set", filter.bitsSet());
        node.put("estimated_ngrams", filter.estimatedNgrams());
        node.put("false_positive_rate", filter.falsePositiveRate());
        return node;
    }

    public static void write(NgramFilter filter, String directory, Configuration hadoop) {
        Path file = new Path(directory, FILE);
        try {
            FileSystem fs = HadoopFiles.fileSystem(file, hadoop);
            try (OutputStream out = fs.create(file, true)) {
                out.write(filter.bytes());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the n-gram filter to " + file + ": " + e.getMessage(), e);
        }
    }

    /** The filter {@code langid train} wrote into {@code directory}; it must have {@code bits} bits. */
    public static NgramFilter read(String directory, int bits, Configuration hadoop) {
        String file = directory + "/" + FILE;
        if (!HadoopFiles.exists(file, hadoop)) {
            throw new IllegalArgumentException(directory + " has no " + FILE + " though its model has ngram_filter_bits " + bits
                    + " (trained before the filter existed?); langid export --add-ngram-filter adds one to an exported model");
        }
        byte[] bytes;
        try (InputStream in = HadoopFiles.open(file, hadoop)) {
            bytes = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        if ((long) bytes.length * 8 != bits) {
            throw new IllegalArgumentException(file + " holds " + (long) bytes.length * 8 + " bits; the model has ngram_filter_bits " + bits);
        }
        return NgramFilter.of(bytes);
    }
}
