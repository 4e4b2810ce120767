package org.langid.jobs.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import org.langid.jobs.evaluate.Candidate;
import org.langid.jobs.evaluate.EvaluateJob;
import org.langid.jobs.evaluate.FastTextCandidate;
import org.langid.jobs.evaluate.FastTextPeers;
import org.langid.jobs.evaluate.FastTextSettings;
import org.langid.jobs.evaluate.LanguageSubset;
import org.langid.jobs.evaluate.LinguaCandidate;
import org.langid.jobs.evaluate.ModelCandidate;
import org.langid.model.predict.LanguageDetector;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "evaluate", mixinStandardHelpOptions = true,
        description = "Score a model on held-out data: accuracy, per-language precision/recall/F1 and confusion matrices, for "
                + "single windows (as prepare cut them), whole sentences, and word pairs and single words cut from those sentences "
                + "(lower case, no punctuation or digits), with the calibration error of each detector that gives a probability; "
                + "with --peer the same for Lingua 1.2.2 and for fastText (trained on the same prepared training windows) side by side; "
                + "with --languages all of them restricted to a subset of the model's languages, as a deployment that expects only those. "
                + "Writes report.json (data-schemas/evaluation-report.schema.json) and report.html.")
public final class EvaluateCommand implements Callable<Integer> {

    static final String LINGUA = "lingua";
    static final String FASTTEXT = "fasttext";
    static final String FASTTEXT_BASELINE = "fasttext-baseline";
    static final List<String> PEERS = List.of(LINGUA, FASTTEXT, FASTTEXT_BASELINE);

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

    @Option(names = "--languages", split = ",", paramLabel = "LANG",
            description = "Evaluate a deployment restricted to these of the model's languages (at least two, e.g. en,de,fr), as predict, "
                    + "serve and score --languages run it: only items of these languages are scored, and every detector answers from "
                    + "them alone (the model and fastText with their probabilities renormalised over them; a model's und class stays "
                    + "in, as in predict). Default: all of the model's languages.")
    List<String> languages;

    @Option(names = "--lingua", description = "Also score Lingua 1.2.2 (restricted to the model's languages, or --languages, high accuracy) "
            + "on the same data; the same as --peer lingua.")
    boolean lingua;

    @Option(names = "--peer", split = ",", paramLabel = "NAME",
            description = "Also score a peer on the same data (repeatable, or comma-separated): lingua; fasttext (Debian's fastText 0.9.2 "
                    + "trained on the prepared training windows with the best settings found, docs/RESULTS.md); fasttext-baseline "
                    + "(the same with the settings a new user would try: " + FastTextSettings.BASELINE_ARGUMENTS + "). "
                    + "Without a fasttext binary the evaluation says so and goes on without it.")
    List<String> peers = new ArrayList<>();

    @Option(names = "--peer-training", paramLabel = "DIR",
            description = "Output directory of langid prepare whose train split fastText learns from. Default: --input.")
    String peerTraining;

    @Option(names = "--fasttext", paramLabel = "PATH", description = "The fasttext binary. Default: fasttext on the PATH (apt-get install fasttext).")
    String fastTextBinary;

    @Option(names = "--fasttext-set", paramLabel = "KEY=VALUE",
            description = "Change one training argument of --peer fasttext (repeatable), e.g. --fasttext-set dim=64 --fasttext-set epoch=10 "
                    + "for -dim 64 -epoch 10; text=words (spaces separate fastText's words) or text=joined (spaces written as _, a window is "
                    + "one word). Default: the tuned settings, " + FastTextSettings.TUNED_ARGUMENTS + " with text=joined.")
    List<String> fastTextChanges = new ArrayList<>();

    @Option(names = "--fasttext-cache", paramLabel = "DIR",
            description = "Where trained fastText models are kept, by training text, arguments and binary. Default: ~/.cache/langid/fasttext.")
    Path fastTextCache;

    @Option(names = "--max-windows", paramLabel = "N", defaultValue = "0",
            description = "Score a seeded random sample of at most N windows (0: all). Default: ${DEFAULT-VALUE}.")
    int maxWindows;

    @Option(names = "--max-sentences", paramLabel = "N", defaultValue = "0",
            description = "Score a seeded random sample of at most N sentences (0: all). Default: ${DEFAULT-VALUE}.")
    int maxSentences;

    @Option(names = "--max-short", paramLabel = "N", defaultValue = "" + EvaluateJob.Data.DEFAULT_MAX_SHORT,
            description = "Score a seeded random sample of at most N word pairs and N single words, cut from the sentences scored "
                    + "(at most one of each per sentence; 0: all). Default: ${DEFAULT-VALUE}.")
    int maxShort;

    @Option(names = "--threads", paramLabel = "N", description = "Detection threads for each detector. Default: the machine's cores.")
    Integer threads;

    @Mixin
    SparkOptions sparkOptions;

    @Override
    public Integer call() {
        if (maxShort < 0) {
            throw new IllegalArgumentException("--max-short must be 0 (all) or a positive number, got " + maxShort);
        }
        EvaluateJob.Data data;
        if (prepared != null) {
            if (windows != null || sentences != null) {
                throw new IllegalArgumentException("give --input (a prepare output) or --windows/--sentences, not both");
            }
            data = EvaluateJob.Data.ofPrepared(prepared, split, maxWindows, maxSentences, maxShort);
        } else if (windows != null || sentences != null) {
            data = new EvaluateJob.Data(windows, sentences, windows != null ? windows : sentences, null, maxWindows, maxSentences, maxShort);
        } else {
            throw new IllegalArgumentException("nothing to evaluate on: give --input DIR (a prepare output) or --windows/--sentences");
        }
        Set<String> peerNames = new LinkedHashSet<>();
        if (lingua) {
            peerNames.add(LINGUA);
        }
        for (String peer : peers) {
            String name = peer.trim().toLowerCase(Locale.ROOT);
            if (!PEERS.contains(name)) {
                throw new IllegalArgumentException("unknown peer " + peer + "; known: " + String.join(", ", PEERS));
            }
            peerNames.add(name);
        }
        List<FastTextSettings> fastTexts = new ArrayList<>();
        if (peerNames.contains(FASTTEXT)) {
            fastTexts.add(FastTextSettings.TUNED.with(fastTextChanges));
        } else if (!fastTextChanges.isEmpty()) {
            throw new IllegalArgumentException("--fasttext-set is for --peer fasttext");
        }
        if (peerNames.contains(FASTTEXT_BASELINE)) {
            fastTexts.add(FastTextSettings.BASELINE);
        }
        String fastTextTraining = peerTraining != null ? peerTraining : prepared;
        if (!fastTexts.isEmpty() && fastTextTraining == null) {
            throw new IllegalArgumentException("fastText learns from a prepare output's train split: give --peer-training DIR "
                    + "(with --windows/--sentences there is no --input to take it from)");
        }
        int n = threads != null ? threads : Runtime.getRuntime().availableProcessors();
        LanguageDetector detector = detectorOptions.load(new Configuration(), n);
        LanguageSubset subset = languages == null ? LanguageSubset.all(detector.languages()) : LanguageSubset.of(detector.languages(), languages);
        List<Candidate> candidates = new ArrayList<>();
        candidates.add(new ModelCandidate(detector, subset, n));
        if (peerNames.contains(LINGUA)) {
            candidates.add(new LinguaCandidate(subset, n));
        }
        List<EvaluateJob.Unavailable> unavailable = new ArrayList<>();
        SparkSession spark = sparkOptions.start("langid evaluate");
        try {
            for (FastTextCandidate fastText : FastTextPeers.train(spark, detector, fastTexts, fastTextTraining, fastTextBinary, fastTextCache, n,
                    unavailable)) {
                candidates.add(subset.restricted() ? fastText.restrictedTo(subset) : fastText);
            }
            var report = EvaluateJob.run(spark, detector, detectorOptions.artefactLocation, data, candidates, unavailable, subset);
            EvaluateJob.write(report, output, spark.sparkContext().hadoopConfiguration());
            EvaluateJob.printSummary(report, System.out);
            System.out.println("report: " + output + "/report.html (and report.json)");
        } finally {
            SparkShutdown.stop(spark);
        }
        return 0;
    }
}
