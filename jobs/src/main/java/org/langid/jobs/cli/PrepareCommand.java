package org.langid.jobs.cli;

import java.util.List;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import org.langid.jobs.prepare.PrepareConfig;
import org.langid.jobs.prepare.PrepareJob;
import org.langid.jobs.prepare.PrepareSummary;
import org.langid.model.config.ConfigException;
import org.langid.model.config.ConfigTree;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "prepare", mixinStandardHelpOptions = true,
        description = "Normalise a sentence corpus, split it by sentence into train/validation/test, and cut labelled character windows (Parquet). Bad records go to quarantine/, counted by reason. Input formats: seed JSON {\"en\": [...]}, TSV id<TAB>lang<TAB>text, or a directory of <lang>.txt[.gz] files; any local path or Hadoop URI (hdfs://, s3a://).")
public final class PrepareCommand implements Callable<Integer> {

    @Option(names = {"-i", "--input"}, required = true, split = ",", paramLabel = "PATH",
            description = "Corpus file(s) or directory(ies); repeatable or comma-separated.")
    List<String> inputs;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "DIR", description = "Output directory.")
    String output;

    @Option(names = "--overwrite", description = "Replace the output directory if it exists.")
    boolean overwrite;

    @Option(names = {"-l", "--languages"}, split = ",", paramLabel = "CODE",
            description = "Keep only these languages (overrides prepare.languages), e.g. en,de,fr.")
    List<String> languages;

    @Option(names = "--format", paramLabel = "FORMAT", description = "auto (default), json, tsv or txt.")
    String format;

    @Mixin
    ProfileOptions profile;

    @Mixin
    SparkOptions sparkOptions;

    @Override
    public Integer call() {
        // Settings first: a bad profile fails in a second, before Spark starts.
        PrepareConfig config = settings(profile.load(new Configuration()), languages, format);
        SparkSession spark = sparkOptions.start("langid prepare");
        try {
            long started = System.nanoTime();
            PrepareSummary summary = new PrepareJob(spark, config).run(inputs, output, overwrite);
            double seconds = (System.nanoTime() - started) / 1e9;
            SummaryTable.print(summary, System.out);
            System.out.println("output: " + output);
            long windows = summary.totalWindows();
            System.out.printf("prepared %d windows in %.1f s (Spark start-up excluded)%n", windows, seconds);
            System.out.printf("windows/s: %.0f%n", windows / seconds);
            return 0;
        } finally {
            SparkShutdown.stop(spark);
        }
    }

    /** The prepare section of a profile, with the command line's overrides applied and checked. */
    static PrepareConfig settings(ConfigTree profile, List<String> languages, String format) {
        PrepareConfig config = profile.section("prepare", PrepareConfig.class);
        if (languages != null) {
            config.languages = languages;
        }
        if (format != null) {
            config.format = format;
        }
        var problems = config.problems();
        if (!problems.isEmpty()) {
            throw new ConfigException(String.join("; ", problems));
        }
        return config;
    }
}
