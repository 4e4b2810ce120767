package org.langid.jobs.prepare;

import static org.apache.spark.sql.functions.bit_xor;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.explode;
import static org.apache.spark.sql.functions.floor;
import static org.apache.spark.sql.functions.length;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.min;
import static org.apache.spark.sql.functions.row_number;
import static org.apache.spark.sql.functions.sequence;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.xxhash64;

import java.io.IOException;
import java.io.UncheckedIOException;
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
import org.langid.model.data.Split;
import org.langid.text.Alphabet;
import org.langid.text.LanguageCodes;
import org.langid.text.Windows;
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
 *   alphabet.json                                         (data-schemas/alphabet.schema.json; prepare.alphabet: scripts)
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
        Set<String> others = new LinkedHashSet<>();
        config.otherLanguages.forEach(l -> others.add(LanguageCodes.canonical(l)));
        RecordScreening screening = new RecordScreening(selected, others, config.minSentenceLength(), config.maxSentenceChars,
                config.alphabet);
        JavaRDD<Outcome> outcomes = CorpusReader.read(jsc, corpus).map(screening::screen)
                .persist(StorageLevel.MEMORY_AND_DISK());
        try {
            jsc.setJobDescription("prepare: read and screen the corpus");
            Map<String, Long> outcomeCounts = outcomes
                    .map(o -> o.kind() + "\t" + (o.reason() == null ? "" : o.reason().id()) + "\t" + (o.language() == null ? "" : o.language()))
                    .countByValue();

            jsc.setJobDescription("prepare: write quarantine");
            writeQuarantine(outcomes, output + "/quarantine");

            // Sentences are partitioned and sorted once; windows are cut from them in place, so
            // they come out in (language, sentence_id, offset) order without shuffling or sorting
            // the (60 times larger) window rows.
            Dataset<Row> sentences = splitSentences(outcomes)
                    .repartition(config.outputPartitions, col("language"), col("sentence_id"))
                    .sortWithinPartitions("language", "sentence_id")
                    .persist(StorageLevel.MEMORY_AND_DISK());
            try {
                for (Split split : Split.values()) {
                    Dataset<Row> part = sentences.filter(col("split").equalTo(split.id())).drop("split");
                    jsc.setJobDescription("prepare: write " + split.id() + " sentences");
                    part.write().parquet(output + "/sentences/split=" + split.id());
                    jsc.setJobDescription("prepare: cut and write " + split.id() + " windows");
                    capped(cutWindows(part)).write().parquet(output + "/windows/split=" + split.id());
                }

                if (PrepareConfig.SCRIPTS_ALPHABET.equals(config.alphabet)) {
                    jsc.setJobDescription("prepare: derive the alphabet from the training sentences");
                    Alphabet alphabet = deriveAlphabet(sentences.filter(col("split").equalTo(Split.TRAIN.id())));
                    PreparedAlphabet.write(alphabet, output, jsc.hadoopConfiguration());
                    LOG.info("prepare: alphabet of {}", alphabet);
                }

                jsc.setJobDescription("prepare: count sentences and windows");
                List<Row> sentenceStats = sentences.groupBy("language", "split")
                        .agg(count(lit(1)).as("n"), bit_xor(col("sentence_id")).as("x"),
                                bit_xor(xxhash64(col("sentence_id"))).as("y"))
                        .collectAsList();
                List<Row> windowCounts = spark.read().parquet(output + "/windows")
                        .groupBy("language", "split").count().collectAsList();
                List<Row> availableWindows = config.maxWindowsPerLanguage > 0 || config.balance
                        ? windowCountsBeforeCap(sentences)
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

    /** The {@code scripts} alphabet of the training sentences: their characters counted per language ({@link Alphabet#derive}). */
    private Alphabet deriveAlphabet(Dataset<Row> training) {
        Map<String, Map<Character, Long>> counts = training.select("language", "sentence").toJavaRDD()
                .mapPartitions(rows -> {
                    Map<String, Map<Character, Long>> partial = new java.util.HashMap<>();
                    rows.forEachRemaining(row -> {
                        Map<Character, Long> language = partial.computeIfAbsent(row.getString(0), l -> new java.util.HashMap<>());
                        String sentence = row.getString(1);
                        for (int i = 0; i < sentence.length(); i++) {
                            language.merge(sentence.charAt(i), 1L, Long::sum);
                        }
                    });
                    return List.of(partial).iterator();
                })
                .reduce((a, b) -> {
                    b.forEach((language, chars) -> chars.forEach((c, n) ->
                            a.computeIfAbsent(language, l -> new java.util.HashMap<>()).merge(c, n, Long::sum)));
                    return a;
                });
        return Alphabet.derive(counts, config.alphabetCoverage, config.alphabetMinCount);
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

    /**
     * Windows as Catalyst expressions (code-generated, no per-row Java objects): offsets
     * 0, stride, ... up to length(sentence) − window, exactly {@link Windows#startOffsets}.
     * Sentences shorter than a window were quarantined, so every sequence is non-empty.
     */
    private Dataset<Row> cutWindows(Dataset<Row> sentences) {
        int length = config.window.length;
        return sentences
                .withColumn("offset", explode(sequence(lit(0), length(col("sentence")).minus(length), lit(config.window.stride))))
                .withColumn("window", col("sentence").substr(col("offset").plus(1), lit(length)))
                .select("language", "sentence_id", "offset", "window");
    }

    /** Windows per (language, split) that cutting gives before any cap, computed from sentence lengths. */
    private List<Row> windowCountsBeforeCap(Dataset<Row> sentences) {
        int length = config.window.length;
        int stride = config.window.stride;
        return sentences.groupBy("language", "split")
                .agg(sum(
                        floor(length(col("sentence")).minus(length).divide(stride)).plus(1)).as("count"))
                .collectAsList();
    }

    /**
     * Applies max_windows_per_language and balance to the windows of one split: within each
     * language the windows are ranked by a seeded hash (a fixed random order, independent of
     * partitioning) and the first cap are kept, then put back in (language, sentence, offset) order.
     */
    private Dataset<Row> capped(Dataset<Row> windows) {
        if (config.maxWindowsPerLanguage <= 0 && !config.balance) {
            return windows;
        }
        Dataset<Row> counts = windows.groupBy("language").count();
        long cap = config.maxWindowsPerLanguage > 0 ? config.maxWindowsPerLanguage : Long.MAX_VALUE;
        if (config.balance) {
            List<Row> smallest = counts.agg(min("count")).collectAsList();
            if (!smallest.isEmpty() && !smallest.get(0).isNullAt(0)) {
                cap = Math.min(cap, smallest.get(0).getLong(0));
            }
        }
        return windows
                .withColumn("rank", row_number().over(Window.partitionBy("language")
                        .orderBy(xxhash64(lit(config.split.seed), col("sentence_id"), col("offset")), col("sentence_id"), col("offset"))))
                .filter(col("rank").leq(cap))
                .drop("rank")
                .repartition(config.outputPartitions, col("language"), col("sentence_id"))
                .sortWithinPartitions("language", "sentence_id", "offset");
    }
}
