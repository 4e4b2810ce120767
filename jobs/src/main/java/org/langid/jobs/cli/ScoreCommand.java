package org.langid.jobs.cli;

import java.io.PrintStream;
import java.util.Map;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.spark.sql.SparkSession;
import org.langid.jobs.score.InputFormat;
import org.langid.jobs.score.LanguageDetectorTransformer;
import org.langid.jobs.score.RejectionReason;
import org.langid.jobs.score.ScoreJob;
import org.langid.jobs.score.ScoreSummary;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "score", mixinStandardHelpOptions = true,
        description = "Detect the language of every row of a text column on Spark, and write the rows back as Parquet "
                + "(OUTPUT/rows) with their columns plus language, probability, top_languages and reason. Rows that cannot be "
                + "scored (null, empty, no known characters, not UTF-8, malformed JSON) keep a null language and a reason; none "
                + "is dropped. Counts go to OUTPUT/summary.json (data-schemas/score-summary.schema.json). Inputs: Parquet, CSV or "
                + "TSV with a header, JSON lines, or plain text (one row a line: columns text and file); any local path or Hadoop URI.")
public final class ScoreCommand implements Callable<Integer> {

    @Mixin
    DetectorOptions detectorOptions;

    @Option(names = {"-i", "--input"}, required = true, paramLabel = "PATH", description = "A file, a directory of files, or a directory of Spark partitions (key=value/).")
    String input;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "DIR", description = "Output directory.")
    String output;

    @Option(names = "--column", defaultValue = ScoreJob.TEXT_COLUMN, paramLabel = "NAME",
            description = "The column of text to score (Parquet, CSV, TSV, JSON). Default: ${DEFAULT-VALUE}.")
    String column;

    @Option(names = "--format", paramLabel = "FORMAT",
            description = "parquet, csv, tsv, json or text. Default: told from the file names (.parquet, .csv, .tsv, .json/.jsonl, .txt; "
                    + "compressed too, e.g. .txt.gz).")
    String format;

    @Option(names = "--top-k", defaultValue = "3", paramLabel = "K",
            description = "How many of the most probable languages top_languages lists. Default: ${DEFAULT-VALUE}.")
    int topK;

    @Option(names = "--prefix", defaultValue = "", paramLabel = "PREFIX",
            description = "Put this before the added columns' names, for inputs that already have a language column.")
    String prefix;

    @Option(names = "--rows-per-batch", defaultValue = "512", paramLabel = "N",
            description = "Texts per detector call within a task. Default: ${DEFAULT-VALUE}.")
    int rowsPerBatch;

    @Option(names = "--languages", split = ",", paramLabel = "LANG",
            description = "Answer from these of the model's languages only (e.g. en,de), their probabilities renormalised over them. "
                    + "Default: all of them.")
    List<String> languages;

    @Option(names = "--overwrite", description = "Replace the output directory if it exists.")
    boolean overwrite;

    @Mixin
    SparkOptions sparkOptions;

    @Override
    public Integer call() {
        InputFormat inputFormat = format == null ? null : InputFormat.named(format);
        if (topK < 1 || rowsPerBatch < 1) {
            throw new IllegalArgumentException("--top-k and --rows-per-batch must each be at least 1");
        }
        LanguageDetectorTransformer transformer = new LanguageDetectorTransformer()
                .setModelPath(detectorOptions.model)
                .setTopK(topK)
                .setRowsPerBatch(rowsPerBatch)
                .setStride(detectorOptions.stride)
                .setMaxWindowsPerText(detectorOptions.maxWindowsPerText)
                .setWindowBatch(detectorOptions.batch)
                .setFoldCapitals(detectorOptions.foldCapitals)
                .setLanguages(languages == null ? new String[0] : languages.toArray(String[]::new));
        SparkSession spark = sparkOptions.start("langid score");
        try {
            ScoreSummary summary = ScoreJob.run(spark, transformer,
                    new ScoreJob.Request(input, inputFormat, column, output, prefix, overwrite));
            print(summary, output, System.out);
            return 0;
        } finally {
            SparkShutdown.stop(spark);
        }
    }

    static void print(ScoreSummary summary, String output, PrintStream out) {
        var json = summary.json();
        out.println("model " + json.at("/model/version").asText() + " from " + json.at("/model/path").asText());
        out.printf("%-10s %10s%n", "language", "rows");
        for (Map.Entry<String, Long> language : summary.languages().entrySet()) {
            out.printf("%-10s %10d%n", language.getKey(), language.getValue());
        }
        out.printf("rows read %d: %d scored, %d rejected%n", summary.read(), summary.scored(), summary.rejected());
        StringBuilder reasons = new StringBuilder();
        for (RejectionReason reason : RejectionReason.values()) {
            if (summary.rejected(reason) > 0) {
                reasons.append(reasons.length() == 0 ? "" : ", ").append(reason.id()).append(' ').append(summary.rejected(reason));
            }
        }
        if (reasons.length() > 0) {
            out.println("rejected by reason: " + reasons);
        }
        out.println("output: " + output + "/" + ScoreJob.ROWS + " (Parquet), " + output + "/" + ScoreJob.SUMMARY);
        out.printf("scored %d rows in %.1f s (Spark start-up and model load excluded)%n", summary.read(), summary.seconds());
        out.printf("rows/s: %.0f%n", summary.read() / Math.max(summary.seconds(), 1e-9));
    }
}
