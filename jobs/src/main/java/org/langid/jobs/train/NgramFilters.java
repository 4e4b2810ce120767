package org.langid.jobs.train;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.SparkSession;
import org.langid.model.graph.ModelConfig;
import org.langid.model.graph.NgramFilter;
import org.langid.model.io.HadoopFiles;
import org.langid.model.train.LabelledWindows;

/**
 * The {@link NgramFilter} of a model's training windows, built from the compact windows the
 * trainers already hold (the local trainer's, or the Spark trainer's cached shards, each shard
 * filling a bitmap and the bitmaps OR-ed together); and its file beside the training state,
 * {@value #FILE}: the bitmap's bytes, nothing else.
 */
public final class NgramFilters {

    /** The filter's file in the output directory of {@code langid train}. */
    public static final String FILE = "ngram-filter.bin";
    /** Windows widened to int symbols at a time. */
    private static final int CHUNK = 4096;

    private NgramFilters() {
    }

    /** The filter of {@code windows}, of {@code model.ngram_filter_bits}. */
    public static NgramFilter of(LabelledWindows windows, ModelConfig model) {
        NgramFilter filter = NgramFilter.empty(model.ngramFilterBits);
        int t = windows.windowLength();
        char[] symbols = windows.symbols();
        int[] chunk = new int[CHUNK * t];
        for (int from = 0; from < windows.size(); from += CHUNK) {
            int rows = Math.min(CHUNK, windows.size() - from);
            for (int i = 0; i < rows * t; i++) {
                chunk[i] = symbols[from * t + i];
            }
            filter.addAll(model.alphabet, chunk, rows, t, model.ngramMaxOrder);
        }
        return filter;
    }

    /** The filter of every shard's windows. */
    public static NgramFilter of(JavaRDD<WorkerShard> shards, ModelConfig model) {
        return shards.map(shard -> of(shard.windows(model.languages), model)).treeReduce((a, b) -> {
            a.addAll(b);
            return a;
        });
    }

    /**
     * The filter of {@code prepared}'s training windows in the model's languages (for a model
     * trained before train wrote the filter), read as the Spark trainer reads them.
     */
    public static NgramFilter build(SparkSession spark, String prepared, ModelConfig model) {
        JavaRDD<WorkerShard> shards = Shards.of(spark, prepared, spark.sparkContext().defaultParallelism(), model.languages, model.window, model.alphabet);
        try {
            return of(shards, model);
        } finally {
            shards.unpersist();
        }
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
