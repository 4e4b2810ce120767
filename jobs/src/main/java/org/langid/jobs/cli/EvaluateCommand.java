package org.langid.jobs.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import org.langid.jobs.evaluate.Candidate;
import org.langid.jobs.evaluate.EvaluateJob;
import org.langid.jobs.evaluate.LinguaCandidate;
import org.langid.jobs.evaluate.ModelCandidate;
import org.langid.model.predict.LanguageDetector;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "evaluate", mixinStandardHelpOptions = true,
        description = "Score a model on held-out data: accuracy, per-language precision/recall/F1 and confusion matrices, for "
                + "single windows (as prepare cut them) and whole sentences; with --lingua the same for Lingua 1.2.2 side by side. "
                + "Writes report.json (data-schemas/evaluation-report.schema.json) and report.html.")
public final class EvaluateCommand implements Callable<Integer> {

    @Mixin
    DetectorOptions detectorOptions;

    @Option(names = {"-i", "--input"}, paramLabel = "DIR", description = "Output directory of langid prepare (with --split).")
    String prepared;

    @Option(names = "--split", defaultValue = "test", description = "Split of --input. Default: ${DEFAULT-VALUE}.")
    String split;

    @Option(names = "--windows", paramLabel = "PARQUET", description = "Windows to score instead of --input's (data-schemas/windows.parquet.txt).")
    String windows;

    @Option(names = "--sentences", paramLabel = "PARQUET", description = "Sentences to score instead of --input's (data-schemas/sentences.parquet.txt).")
    String sentences;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "DIR", description = "Where to write report.json and report.html.")
    String output;

    @Option(names = "--lingua", description = "Also score Lingua 1.2.2 (restricted to the model's languages, high accuracy) on the same data.")
    boolean lingua;

    @Option(names = "--max-windows", paramLabel = "N", defaultValue = "0",
            description = "Score a seeded random sample of at most N windows (0: all). Default: ${DEFAULT-VALUE}.")
    int maxWindows;

    @Option(names = "--max-sentences", paramLabel = "N", defaultValue = "0",
            description = "Score a seeded random sample of at most N sentences (0: all). Default: ${DEFAULT-VALUE}.")
    int maxSentences;

    @Option(names = "--threads", paramLabel = "N", description = "Detection threads for each detector. Default: the machine's cores.")
    Integer threads;

    @Mixin
    SparkOptions sparkOptions;

    @Override
    public Integer call() {
        EvaluateJob.Data data;
        if (prepared != null) {
            if (windows != null || sentences != null) {
                throw new IllegalArgumentException("give --input (a prepare output) or --windows/--sentences, not both");
            }
            data = EvaluateJob.Data.ofPrepared(prepared, split, maxWindows, maxSentences);
        } else if (windows != null || sentences != null) {
            data = new EvaluateJob.Data(windows, sentences, windows != null ? windows : sentences, null, maxWindows, maxSentences);
        } else {
            throw new IllegalArgumentException("nothing to evaluate on: give --input DIR (a prepare output) or --windows/--sentences");
        }
        int n = threads != null ? threads : Runtime.getRuntime().availableProcessors();
        LanguageDetector detector = detectorOptions.load(new Configuration());
        List<Candidate> candidates = new ArrayList<>();
        candidates.add(new ModelCandidate(detector, n));
        if (lingua) {
            candidates.add(new LinguaCandidate(detector.languages(), n));
        }
        SparkSession spark = sparkOptions.start("langid evaluate");
        try {
            var report = EvaluateJob.run(spark, detector, detectorOptions.artefactLocation, data, candidates);
            EvaluateJob.write(report, output, spark.sparkContext().hadoopConfiguration());
            EvaluateJob.printSummary(report, System.out);
            System.out.println("report: " + output + "/report.html (and report.json)");
        } finally {
            spark.stop();
        }
        return 0;
    }
}
