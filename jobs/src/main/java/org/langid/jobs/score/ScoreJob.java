package org.langid.jobs.score;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.when;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.FileInputFormat;
import org.apache.hadoop.mapred.FileSplit;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.TextInputFormat;
import org.apache.spark.api.java.JavaHadoopRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.langid.model.io.HadoopFiles;
import org.langid.model.predict.LanguageDetector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Tuple2;

/**
 * {@code langid score}: detects the language of every row of a text column with
 * {@link LanguageDetectorTransformer} and writes the rows back with their results.
 *
 * <p>Output layout under the output directory:
 * <pre>
 *   rows/part-*.parquet   every input row, in input order within each file, with its columns and
 *                         language, probability, top_languages, reason (data-schemas/score-rows.parquet.txt)
 *   summary.json          rows read, scored and rejected by reason, rows per language (data-schemas/score-summary.schema.json)
 * </pre>
 * The counts in the summary come from reading the written rows back, so they are exact even
 * when Spark retried tasks; the job fails if they do not add up to the rows read.
 */
public final class ScoreJob {

    private static final Logger LOG = LoggerFactory.getLogger(ScoreJob.class);

    /** Plain text input: one row a line, its text in this column. */
    public static final String TEXT_COLUMN = "text";
    /** Plain text input: the file each line comes from (a directory of files is one input). */
    public static final String FILE_COLUMN = "file";
    /** Spark's column for JSON lines it cannot parse (PERMISSIVE mode). */
    static final String CORRUPT_RECORD = "_corrupt_record";
    public static final String ROWS = "rows";
    public static final String SUMMARY = "summary.json";

    /**
     * What to score and where to write it. {@code format} null: from the file names;
     * {@code prefix} goes before the added columns' names (for inputs that already have a {@code language} column).
     */
    public record Request(String input, InputFormat format, String column, String output, String prefix, boolean overwrite) {
    }

    private ScoreJob() {
    }

    /** Scores the input, writes the rows and summary.json, and returns the summary. */
    public static ScoreSummary run(SparkSession spark, LanguageDetectorTransformer transformer, Request request) {
        Configuration conf = spark.sparkContext().hadoopConfiguration();
        InputFormat format = request.format() != null ? request.format() : InputFormat.infer(request.input(), conf);
        if (format == InputFormat.TEXT && !TEXT_COLUMN.equals(request.column())) {
            throw new IllegalArgumentException("plain text input has one column, '" + TEXT_COLUMN + "' (one row a line); drop --column "
                    + request.column());
        }
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        jsc.setJobDescription("score: read " + request.input());
        Dataset<Row> input = read(spark, request.input(), format);
        List<String> inputColumns = Arrays.asList(input.columns());
        String resultColumn = unusedName(inputColumns, "langid_result");
        LanguageDetectorTransformer configured = transformer.copy(new org.apache.spark.ml.param.ParamMap())
                .setInputCol(request.column()).setOutputCol(resultColumn);
        // A registry resolved once: the model loaded here, the tasks' and the summary's are the same version.
        String modelLocation = configured.detectorKey(conf).artefactLocation();
        configured.setModelPath(modelLocation);
        configured.transformSchema(input.schema());   // a missing or non-text column fails here, before any work
        List<String> added = addedColumns(request.prefix());
        for (String name : added) {
            if (inputColumns.contains(name)) {
                throw new IllegalArgumentException("the input already has a column '" + name + "'; give --prefix (e.g. --prefix detected_) "
                        + "to name the added columns " + String.join(", ", added) + " differently");
            }
        }
        if (!request.overwrite() && HadoopFiles.exists(request.output(), conf)) {
            throw new IllegalArgumentException("output " + request.output() + " already exists; pass --overwrite to replace it");
        }
        LanguageDetector detector = configured.loadDetector(conf);
        // Only now, with the input and the model known to be good, is an old output replaced.
        prepareOutput(request.output(), request.overwrite(), conf);
        LOG.info("score: model {} ({}), {} input {}", detector.manifest().modelVersion(), String.join(",", detector.languages()),
                format.id(), request.input());
        long started = System.nanoTime();
        jsc.setJobDescription("score: count the input rows");
        long read = input.count();

        Column result = col(resultColumn);
        Column reason = result.getField(LanguageDetectorTransformer.REASON);
        Column language = result.getField(LanguageDetectorTransformer.LANGUAGE);
        Column probability = result.getField(LanguageDetectorTransformer.PROBABILITY);
        Column top = result.getField(LanguageDetectorTransformer.TOP_LANGUAGES);
        if (format == InputFormat.JSON && inputColumns.contains(CORRUPT_RECORD)) {
            Column malformed = col(CORRUPT_RECORD).isNotNull();
            reason = when(malformed, lit(RejectionReason.MALFORMED_RECORD.id())).otherwise(reason);
            language = when(malformed, lit(null).cast(DataTypes.StringType)).otherwise(language);
            probability = when(malformed, lit(null).cast(DataTypes.DoubleType)).otherwise(probability);
            top = when(malformed, lit(null).cast(LanguageDetectorTransformer.RESULT.apply(LanguageDetectorTransformer.TOP_LANGUAGES).dataType())).otherwise(top);
        }
        List<Column> columns = new ArrayList<>();
        inputColumns.forEach(name -> columns.add(col(quoted(name))));
        columns.add(language.as(added.get(0)));
        columns.add(probability.as(added.get(1)));
        columns.add(top.as(added.get(2)));
        columns.add(reason.as(added.get(3)));
        Dataset<Row> scored = configured.transform(input).select(columns.toArray(Column[]::new));

        String rows = request.output() + "/" + ROWS;
        jsc.setJobDescription("score: detect and write " + rows);
        try (ScoreProgress progress = ScoreProgress.start(spark, read)) {
            scored.write().parquet(rows);
        }
        jsc.setJobDescription("score: count the written rows");
        List<Row> counts = spark.read().parquet(rows).groupBy(col(quoted(added.get(3))), col(quoted(added.get(0)))).count().collectAsList();
        double seconds = (System.nanoTime() - started) / 1e9;
        ScoreSummary summary = ScoreSummary.build(request, format, detector, modelLocation, read, counts, seconds);
        summary.write(request.output() + "/" + SUMMARY, conf);
        return summary;
    }

    /** The four columns the job adds, in order: language, probability, top_languages, reason. */
    static List<String> addedColumns(String prefix) {
        String p = prefix == null ? "" : prefix;
        return List.of(p + LanguageDetectorTransformer.LANGUAGE, p + LanguageDetectorTransformer.PROBABILITY,
                p + LanguageDetectorTransformer.TOP_LANGUAGES, p + LanguageDetectorTransformer.REASON);
    }

    static Dataset<Row> read(SparkSession spark, String input, InputFormat format) {
        if (!HadoopFiles.exists(input, spark.sparkContext().hadoopConfiguration())) {
            throw new IllegalArgumentException("input " + input + " does not exist");
        }
        return switch (format) {
            case PARQUET -> spark.read().parquet(input);
            // Every field read as written (no type inference): a text column stays text.
            case CSV -> spark.read().option("header", "true").option("mode", "PERMISSIVE").csv(input);
            case TSV -> spark.read().option("header", "true").option("sep", "\t").option("mode", "PERMISSIVE").csv(input);
            case JSON -> spark.read().option("mode", "PERMISSIVE").json(input);
            case TEXT -> readText(spark, input);
        };
    }

    /**
     * One row a line, with the file it comes from. Read as bytes and decoded here, not by Spark's text source, which passes
     * invalid UTF-8 through into the Parquet it writes; bytes that are not UTF-8 become U+FFFD,
     * which marks the row undecodable.
     */
    private static Dataset<Row> readText(SparkSession spark, String input) {
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        // Subdirectories too (partitions such as split=train/): without this Hadoop refuses a directory that holds one.
        JobConf job = new JobConf(spark.sparkContext().hadoopConfiguration());
        FileInputFormat.setInputPaths(job, input);
        job.setBoolean(FileInputFormat.INPUT_DIR_RECURSIVE, true);
        JavaHadoopRDD<LongWritable, Text> files = (JavaHadoopRDD<LongWritable, Text>) jsc.hadoopRDD(job, TextInputFormat.class,
                LongWritable.class, Text.class);
        JavaRDD<Row> lines = files.mapPartitionsWithInputSplit(
                (split, partition) -> decodeLines(((FileSplit) split).getPath().toString(), partition), true);
        return spark.createDataFrame(lines, new StructType()
                .add(TEXT_COLUMN, DataTypes.StringType, false)
                .add(FILE_COLUMN, DataTypes.StringType, false));
    }

    private static Iterator<Row> decodeLines(String file, Iterator<Tuple2<LongWritable, Text>> lines) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE);
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return lines.hasNext();
            }

            @Override
            public Row next() {
                Tuple2<LongWritable, Text> line = lines.next();
                Text bytes = line._2();
                String text;
                try {
                    text = decoder.decode(ByteBuffer.wrap(bytes.getBytes(), 0, bytes.getLength())).toString();
                } catch (CharacterCodingException e) {
                    throw new IllegalStateException("a replacing decoder cannot fail", e);
                }
                if (line._1().get() == 0 && text.startsWith("\uFEFF")) {
                    text = text.substring(1);   // a byte-order mark starts the file, not the text
                }
                return RowFactory.create(text, file);
            }
        };
    }

    private static void prepareOutput(String output, boolean overwrite, Configuration conf) {
        Path path = new Path(output);
        try {
            FileSystem fs = HadoopFiles.fileSystem(path, conf);
            if (fs.exists(path)) {
                if (!overwrite) {
                    throw new IllegalArgumentException("output " + output + " already exists; pass --overwrite to replace it");
                }
                if (!fs.delete(path, true)) {
                    throw new UncheckedIOException(new IOException("cannot delete the old output " + output));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare output " + output + ": " + e.getMessage(), e);
        }
    }

    private static String unusedName(List<String> taken, String base) {
        String name = base;
        for (int i = 2; taken.contains(name); i++) {
            name = base + "_" + i;
        }
        return name;
    }

    /** A column name as col() takes it literally (dots and other characters in CSV headers included). */
    static String quoted(String name) {
        return "`" + name.replace("`", "``") + "`";
    }
}
