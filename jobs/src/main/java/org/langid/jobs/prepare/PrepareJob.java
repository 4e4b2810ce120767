package org.langid.jobs.prepare;

import static org.apache.spark.sql.functions.bit_xor;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.least;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.min;
import static org.apache.spark.sql.functions.row_number;
import static org.apache.spark.sql.functions.xxhash64;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.storage.StorageLevel;
import org.langid.jobs.prepare.RecordScreening.Kind;
import org.langid.jobs.prepare.RecordScreening.Outcome;
import org.langid.model.data.SentenceSplitter;
import org.langid.model.text.LanguageCodes;
import org.langid.model.text.Windows;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Tuple2;

/**
 * {@code langid prepare}: corpus → normalised, deduplicated sentences split by sentence →
 * labelled character windows (Parquet), with every rejected record quarantined and counted.
 *
 * <p>Output layout under the output directory:
 * <pre>
 *   windows/split=train|validation|test/part-*.parquet    (data-schemas/windows.parquet.txt)
 *   sentences/split=train|validation|test/part-*.parquet  (data-schemas/sentences.parquet.txt)
 *   quarantine/part-*.json                                (data-schemas/quarantine-record.schema.json)
 *   summary.json                                          (data-schemas/prepare-summary.schema.json)
 * </pre>
 * Same input and config give the same rows in the same order in the same files.
 */
public final class PrepareJob {

    private static final Logger LOG = LoggerFactory.getLogger(PrepareJob.class);

    static final StructType SENTENCE_SCHEMA = new StructType()
            .add("split", DataTypes.StringType, false)
            .add("language", DataTypes.StringType, false)
            .add("sentence_id", DataTypes.LongType, false)
            .add("sentence", DataTypes.StringType, false);

    static final StructType WINDOW_SCHEMA = new StructType()
            .add("split", DataTypes.StringType, false)
            .add("language", DataTypes.StringType, false)
            .add("sentence_id", DataTypes.LongType, false)
            .add("offset", DataTypes.IntegerType, false)
            .add("window", DataTypes.StringType, false);

    static final StructType QUARANTINE_SCHEMA = new StructType()
            .add("reason", DataTypes.StringType, false)
            .add("detail", DataTypes.StringType, true)
            .add("language", DataTypes.StringType, true)
            .add("source", DataTypes.StringType, false)
            .add("position", DataTypes.LongType, false)
            .add("text", DataTypes.StringType, true);

    private final SparkSession spark;
    private final PrepareConfig config;

    public PrepareJob(SparkSession spark, PrepareConfig config) {
        this.spark = spark;
        this.config = config;
    }

    /** Runs the job; returns the summary it also wrote to {@code output/summary.json}. */
    public PrepareSummary run(List<String> inputs, String output, boolean overwrite) {
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        prepareOutput(output, overwrite, jsc.hadoopConfiguration());
        CorpusFiles corpus = CorpusFiles.list(inputs, config.format, jsc.hadoopConfiguration());
        LOG.info("prepare: {} {} file(s), {} ignored", corpus.files().size(), corpus.format().id(), corpus.ignored().size());

        Set<String> selected = new LinkedHashSet<>();
        config.languages.forEach(l -> selected.add(LanguageCodes.canonical(l)));
        RecordScreening screening = new RecordScreening(selected, config.minSentenceLength(), config.maxSentenceChars);
        JavaRDD<Outcome> outcomes = CorpusReader.read(jsc, corpus).map(screening::screen)
                .persist(StorageLevel.MEMORY_AND_DISK());
        try {
            jsc.setJobDescription("prepare: read and screen the corpus");
            Map<String, Long> outcomeCounts = outcomes
                    .map(o -> o.kind() + "\t" + (o.reason() == null ? "" : o.reason().id()) + "\t" + (o.language() == null ? "" : o.language()))
                    .countByValue();

            jsc.setJobDescription("prepare: write quarantine");
            writeQuarantine(outcomes, output + "/quarantine");

            Dataset<Row> sentences = splitSentences(outcomes).persist(StorageLevel.MEMORY_AND_DISK());
            try {
                jsc.setJobDescription("prepare: write sentences");
                sentences.repartition(config.outputPartitions, col("language"), col("sentence_id"))
                        .sortWithinPartitions("split", "language", "sentence_id")
                        .write().partitionBy("split").parquet(output + "/sentences");

                jsc.setJobDescription("prepare: count sentences");
                List<Row> sentenceStats = sentences.groupBy("language", "split")
                        .agg(count(lit(1)).as("n"), bit_xor(col("sentence_id")).as("x"),
                                bit_xor(xxhash64(col("sentence_id"))).as("y"))
                        .collectAsList();

                jsc.setJobDescription("prepare: cut and write windows");
                Dataset<Row> windows = capped(cutWindows(sentences));
                windows.repartition(config.outputPartitions, col("language"), col("sentence_id"))
                        .sortWithinPartitions("split", "language", "sentence_id", "offset")
                        .write().partitionBy("split").parquet(output + "/windows");
                List<Row> windowCounts = spark.read().parquet(output + "/windows")
                        .groupBy("language", "split").count().collectAsList();
                List<Row> availableWindows = config.maxWindowsPerLanguage > 0 || config.balance
                        ? cutWindows(sentences).groupBy("language", "split").count().collectAsList()
                        : windowCounts;

                PrepareSummary summary = PrepareSummary.build(corpus, config, outcomeCounts, sentenceStats,
                        windowCounts, availableWindows);
                summary.write(output + "/summary.json", jsc.hadoopConfiguration());
                return summary;
            } finally {
                sentences.unpersist();
            }
        } finally {
            outcomes.unpersist();
        }
    }

    private static void prepareOutput(String output, boolean overwrite, Configuration conf) {
        Path path = new Path(output);
        try {
            FileSystem fs = path.getFileSystem(conf);
            if (fs.exists(path)) {
                if (!overwrite) {
                    throw new PrepareException("output " + output + " already exists; pass --overwrite to replace it");
                }
                if (!fs.delete(path, true)) {
                    throw new PrepareException("cannot delete the old output " + output);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare output " + output + ": " + e.getMessage(), e);
        }
    }

    private void writeQuarantine(JavaRDD<Outcome> outcomes, String path) {
        JavaRDD<Row> rows = outcomes.filter(o -> o.kind() == Kind.QUARANTINED)
                .map(o -> RowFactory.create(o.reason().id(), o.detail(), o.language(), o.source(), o.position(), o.text()));
        spark.createDataFrame(rows, QUARANTINE_SCHEMA)
                .repartition(1)
                .sortWithinPartitions("source", "position")
                .write().json(path);
    }

    /** Distinct (language, sentence) pairs with their stable id and split. */
    private Dataset<Row> splitSentences(JavaRDD<Outcome> outcomes) {
        SentenceSplitter splitter = new SentenceSplitter(config.split.train, config.split.validation, config.split.seed);
        JavaRDD<Row> rows = outcomes.filter(o -> o.kind() == Kind.SENTENCE)
                .map(o -> new Tuple2<>(o.language(), o.text()))
                .distinct()
                .map(pair -> {
                    long id = SentenceSplitter.sentenceId(pair._1(), pair._2());
                    return RowFactory.create(splitter.splitOf(id).id(), pair._1(), id, pair._2());
                });
        return spark.createDataFrame(rows, SENTENCE_SCHEMA);
    }

    private Dataset<Row> cutWindows(Dataset<Row> sentences) {
        int length = config.window.length;
        int stride = config.window.stride;
        JavaRDD<Row> rows = sentences.javaRDD().flatMap(sentence -> {
            String text = sentence.getString(3);
            int[] offsets = Windows.startOffsets(text.length(), length, stride);
            List<Row> windows = new ArrayList<>(offsets.length);
            for (int offset : offsets) {
                windows.add(RowFactory.create(sentence.getString(0), sentence.getString(1), sentence.getLong(2), offset,
                        text.substring(offset, offset + length)));
            }
            return windows.iterator();
        });
        return spark.createDataFrame(rows, WINDOW_SCHEMA);
    }

    /**
     * Applies max_windows_per_language and balance: within each (split, language) the windows
     * are ranked by a seeded hash (a fixed random order, independent of partitioning) and the
     * first cap are kept.
     */
    private Dataset<Row> capped(Dataset<Row> windows) {
        if (config.maxWindowsPerLanguage <= 0 && !config.balance) {
            return windows;
        }
        Dataset<Row> ranked = windows
                .withColumn("rank", row_number().over(Window.partitionBy("split", "language")
                        .orderBy(xxhash64(lit(config.split.seed), col("sentence_id"), col("offset")), col("sentence_id"), col("offset"))));
        Dataset<Row> counts = windows.groupBy("split", "language").count();
        Dataset<Row> caps = counts;
        if (config.balance) {
            caps = counts.join(counts.groupBy("split").agg(min("count").as("smallest")), "split")
                    .withColumn("count", col("smallest")).drop("smallest");
        }
        if (config.maxWindowsPerLanguage > 0) {
            caps = caps.withColumn("count", least(col("count"), lit(config.maxWindowsPerLanguage)));
        }
        return ranked.join(caps.withColumnRenamed("count", "cap"),
                        scala.collection.JavaConverters.asScalaBuffer(List.of("split", "language")).toSeq())
                .filter(col("rank").leq(col("cap")))
                .select("split", "language", "sentence_id", "offset", "window");
    }
}
