package org.langid.jobs.cli;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import org.langid.jobs.prepare.PrepareConfig;
import org.langid.jobs.prepare.PreparedAlphabet;
import org.langid.jobs.prepare.PrepareJob;
import org.langid.jobs.prepare.PrepareSummary;
import org.langid.jobs.evaluate.Candidate;
import org.langid.jobs.evaluate.EvaluateJob;
import org.langid.jobs.evaluate.FastTextPeers;
import org.langid.jobs.evaluate.FastTextSettings;
import org.langid.jobs.evaluate.LinguaCandidate;
import org.langid.jobs.evaluate.ModelCandidate;
import org.langid.jobs.export.ArtefactExport;
import org.langid.jobs.train.SelfTeachers;
import org.langid.jobs.train.TrainJob;
import org.langid.model.artefact.ModelArtefact;
import org.langid.model.artefact.ModelRegistry;
import org.langid.model.predict.LanguageDetector;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import org.langid.model.config.ConfigTree;
import org.langid.model.graph.ModelConfig;
import org.langid.model.train.LocalTrainer;
import org.langid.model.train.TrainConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The main job: corpus → windows → train → model artefact in a registry → evaluation report.
 * With no arguments it runs on the committed sample corpus.
 */
@Command(name = "pipeline", mixinStandardHelpOptions = true,
        description = "Run the whole pipeline. Defaults: the committed many-language sample's training sources "
                + "(data/sample/many/libreoffice, firefox and lo-ui) and its out-of-genre check sets (udhr; openttd, wesnoth, "
                + "freeciv and gcompris as games), the conf/pipeline.yaml profile (conf/many.yaml's languages and alphabet, "
                + "sized for the sample), embedded Spark (local[*]) with the Spark trainer, output under work/pipeline.")
public final class PipelineCommand implements Callable<Integer> {

    /** The committed sample's training sources and check sets, under data/sample/many/. */
    static final String SAMPLE = "data/sample/many/";
    static final List<String> SAMPLE_TRAINING = List.of("libreoffice", "firefox", "lo-ui");
    static final Map<String, List<String>> SAMPLE_CHECKS = checks(List.of("udhr=udhr", "games=openttd", "games=wesnoth",
            "games=freeciv", "games=gcompris"), SAMPLE);

    @Option(names = {"-i", "--input"}, split = ",", paramLabel = "PATH",
            description = "Corpus input(s). Default: the training sources of the committed sample, data/sample/many/libreoffice, "
                    + "firefox and lo-ui of the installation.")
    List<String> inputs;

    @Option(names = "--check", paramLabel = "NAME=PATH",
            description = "An out-of-genre check set: corpus input(s) prepared as the training corpus is and scored as the test "
                    + "split is, into <work-dir>/checks/NAME and <work-dir>/report-NAME (repeatable; a NAME given again gains "
                    + "an input); --check none: no check sets. Default without --input: the committed sample's, "
                    + "udhr=data/sample/many/udhr and games=data/sample/many/openttd, wesnoth, freeciv and gcompris; "
                    + "with --input: none.")
    List<String> checkOptions;

    @Option(names = "--max-windows", paramLabel = "N", defaultValue = "100000",
            description = "Score a seeded random sample of at most N windows of the test split and of each check set (0: all); "
                    + "every sentence is scored, and word pairs and single words cut from them. Default: ${DEFAULT-VALUE}.")
    int maxWindows;

    @Option(names = {"-w", "--work-dir"}, paramLabel = "DIR",
            description = "Where stage outputs go (replaced on each run). Default: work/pipeline of the installation.")
    String workDir;

    @Option(names = "--peer", split = ",", paramLabel = "NAME",
            description = "Also train and score fastText on the same prepared training windows: fasttext (tuned settings) and/or "
                    + "fasttext-baseline (see langid evaluate --help); Lingua is always scored. Without a fasttext binary the "
                    + "pipeline says so and goes on.")
    List<String> peers = new java.util.ArrayList<>();

    @Option(names = "--trainer", defaultValue = "spark",
            description = "spark (parameter averaging on Spark workers: on local[*] one per core) or local (one machine, no Spark). "
                    + "Default: ${DEFAULT-VALUE}.")
    String trainer;

    @Mixin
    WorkerOptions workers;

    @Mixin
    ProfileOptions profile;

    @Mixin
    SparkOptions sparkOptions;

    /** NAME=PATH assignments as check sets in order, a repeated NAME gaining inputs; PATHs relative to {@code under}. */
    static Map<String, List<String>> checks(List<String> assignments, String under) {
        Map<String, List<String>> checks = new java.util.LinkedHashMap<>();
        for (String assignment : assignments) {
            int eq = assignment.indexOf('=');
            if (eq <= 0 || eq == assignment.length() - 1) {
                throw new IllegalArgumentException("--check takes NAME=PATH (or none), got " + assignment);
            }
            String name = assignment.substring(0, eq).trim();
            if (!name.matches("[A-Za-z0-9_-]+")) {
                throw new IllegalArgumentException("a check set's name is letters, digits, - and _, got " + name);
            }
            checks.computeIfAbsent(name, k -> new java.util.ArrayList<>()).add(under + assignment.substring(eq + 1).trim());
        }
        return checks;
    }

    /** How the model is distilled, for the train stage's line; empty when it is not. */
    static String distilled(TrainConfig train) {
        TrainConfig.Distillation d = train.distillation;
        if (!d.enabled()) {
            return "";
        }
        String from = d.teachers.isEmpty()
                ? (d.selfTeachers == 1 ? "1 teacher" : d.selfTeachers + " teachers")
                        + (d.selfTeacherModel.isEmpty() ? " of its own configuration" : " of its configuration with " + inYamlFlowStyle(d.selfTeacherModel))
                        + " trained first"
                : d.teachers.size() + " teacher(s)";
        return String.format(", distilled from %s (weight %s, temperature %s)", from, d.weight, d.temperature);
    }

    /** A setting's value as a profile would write it inline: {@code {d_model: 64, ffn: 128}}. */
    static String inYamlFlowStyle(Object value) {
        if (value instanceof Map<?, ?> map) {
            return map.entrySet().stream().map(e -> e.getKey() + ": " + inYamlFlowStyle(e.getValue()))
                    .collect(java.util.stream.Collectors.joining(", ", "{", "}"));
        }
        return String.valueOf(value);
    }

    @Override
    public Integer call() {
        List<FastTextSettings> fastTexts = new java.util.ArrayList<>();
        for (String peer : peers) {
            switch (peer.trim().toLowerCase(java.util.Locale.ROOT)) {
                case EvaluateCommand.LINGUA -> { }
                case EvaluateCommand.FASTTEXT -> fastTexts.add(FastTextSettings.TUNED);
                case EvaluateCommand.FASTTEXT_BASELINE -> fastTexts.add(FastTextSettings.BASELINE);
                default -> throw new IllegalArgumentException("unknown peer " + peer + "; known: " + String.join(", ", EvaluateCommand.PEERS));
            }
        }
        TrainCommand.requireTrainer(trainer);
        workers.check(trainer);
        ConfigTree tree = profile.load(new Configuration(), ProfileOptions.PIPELINE_PROFILE);
        PrepareConfig config = PrepareCommand.settings(tree, null, null);
        ModelConfig model = tree.section("model", ModelConfig.class);
        TrainConfig train = tree.section("train", TrainConfig.class).validatedFor(model);
        List<String> corpus = inputs != null ? inputs
                : SAMPLE_TRAINING.stream().map(source -> Installation.path(SAMPLE + source)).toList();
        Map<String, List<String>> checkSets;
        if (checkOptions != null && checkOptions.size() == 1 && "none".equals(checkOptions.get(0).trim())) {
            checkSets = Map.of();
        } else if (checkOptions != null) {
            checkSets = checks(checkOptions, "");
        } else if (inputs == null) {
            checkSets = new java.util.LinkedHashMap<>();
            SAMPLE_CHECKS.forEach((name, paths) -> checkSets.put(name, paths.stream().map(Installation::path).toList()));
        } else {
            checkSets = Map.of();
        }
        if (maxWindows < 0) {
            throw new IllegalArgumentException("--max-windows must be 0 (all) or a positive number, got " + maxWindows);
        }
        String work = workDir != null ? workDir : Installation.path("work/pipeline");
        String prepared = work + "/prepared";
        String trained = work + "/model";
        String registry = work + "/registry";
        String reportDir = work + "/report";

        String published;
        SparkSession spark = sparkOptions.start("langid pipeline");
        try {
            long started = System.nanoTime();
            System.out.println("[1/4] prepare: " + String.join(", ", corpus) + " -> " + prepared);
            PrepareSummary summary = new PrepareJob(spark, config).run(corpus, prepared, true);
            SummaryTable.print(summary, System.out);
            for (Map.Entry<String, List<String>> check : checkSets.entrySet()) {
                String checkPrepared = work + "/checks/" + check.getKey();
                System.out.println("check set " + check.getKey() + ": " + String.join(", ", check.getValue()) + " -> " + checkPrepared);
                PrepareSummary checkSummary = new PrepareJob(spark, config).run(check.getValue(), checkPrepared, true);
                System.out.printf("  %,d windows, %,d sentences%n", checkSummary.totalWindows(),
                        checkSummary.json().path("records").path("sentences").asLong());
            }
            System.out.printf("prepare took %.1f s%n", (System.nanoTime() - started) / 1e9);

            started = System.nanoTime();
            System.out.println();
            int trainWorkers = workers.resolve(spark.sparkContext());
            String how = "spark".equals(trainer)
                    ? String.format("Spark trainer, %d workers on %s, batch %d each, averaging every %d steps", trainWorkers,
                            spark.sparkContext().master(), train.batchSize, train.averagingFrequency)
                    : "local trainer, batch " + train.batchSize;
            System.out.println("[2/4] train (" + how + "): " + model.describe().replace("model: ", "") + ", "
                    + train.epochs + " epoch(s)" + (train.maxSteps > 0 ? ", at most " + train.maxSteps + " steps" : "")
                    + distilled(train));
            model = PreparedAlphabet.applyTo(model, prepared, spark.sparkContext().hadoopConfiguration());
            train = SelfTeachers.resolve(spark, prepared, work + "/teachers", model, train,
                    new SelfTeachers.Trainer("spark".equals(trainer), trainWorkers), false, System.out);
            LocalTrainer.Result result = "spark".equals(trainer)
                    ? TrainJob.runSpark(spark, prepared, trained, model, train, trainWorkers, false)
                    : TrainJob.runLocal(spark, prepared, trained, model, train);
            for (LocalTrainer.EpochResult epoch : result.history()) {
                System.out.printf("epoch %d: %d steps, train loss %.4f, validation accuracy %.4f on %d windows, %.0f samples/s%n",
                        epoch.epoch(), epoch.step(), epoch.trainLoss(), epoch.validation().accuracy(), epoch.validation().windows(),
                        epoch.samplesPerSecond());
            }
            System.out.printf("train took %.1f s; state: %s/state.bin%n", (System.nanoTime() - started) / 1e9, trained);

            started = System.nanoTime();
            System.out.println();
            System.out.println("[3/4] export: " + trained + " -> registry " + registry);
            Configuration conf = spark.sparkContext().hadoopConfiguration();
            ModelArtefact artefact = ArtefactExport.fromTrainingOutput(trained, conf, Instant.now());
            published = new ModelRegistry(registry, conf).publish(artefact);
            System.out.printf("model %s published (export took %.1f s)%n", artefact.manifest().modelVersion(), (System.nanoTime() - started) / 1e9);

            started = System.nanoTime();
            System.out.println();
            System.out.println("[4/4] evaluate on the test split" + (maxWindows > 0 ? " (at most " + maxWindows + " windows)" : "")
                    + ", against Lingua 1.2.2" + (fastTexts.isEmpty() ? "" : " and fastText") + " (accuracy per language):");
            LanguageDetector detector = new LanguageDetector(ModelArtefact.load(published, conf), LanguageDetector.Options.defaults());
            int threads = Runtime.getRuntime().availableProcessors();
            List<Candidate> candidates = new java.util.ArrayList<>(
                    List.of(new ModelCandidate(detector, threads), new LinguaCandidate(detector.languages(), threads)));
            List<EvaluateJob.Unavailable> unavailable = new java.util.ArrayList<>();
            candidates.addAll(FastTextPeers.train(spark, detector, fastTexts, prepared, null, null, threads, unavailable));
            ObjectNode report = EvaluateJob.run(spark, detector, published, EvaluateJob.Data.ofPrepared(prepared, "test", maxWindows, 0),
                    candidates, unavailable);
            EvaluateJob.write(report, reportDir, conf);
            EvaluateJob.printSummary(report, System.out);
            for (String name : checkSets.keySet()) {
                String checkPrepared = work + "/checks/" + name;
                System.out.println();
                System.out.println("check set " + name + " (a genre never trained on; all its splits"
                        + (maxWindows > 0 ? ", at most " + maxWindows + " windows" : "") + "):");
                ObjectNode checkReport = EvaluateJob.run(spark, detector, published,
                        new EvaluateJob.Data(checkPrepared + "/windows", checkPrepared + "/sentences", checkPrepared, null, maxWindows, 0,
                                EvaluateJob.Data.DEFAULT_MAX_SHORT),
                        candidates, unavailable);
                EvaluateJob.write(checkReport, work + "/report-" + name, conf);
                EvaluateJob.printSummary(checkReport, System.out);
            }
            System.out.printf("evaluate took %.1f s%n", (System.nanoTime() - started) / 1e9);
        } finally {
            SparkShutdown.stop(spark);
        }
        System.out.println();
        System.out.println("model artefact: " + published);
        System.out.println("report:         " + reportDir + "/report.html");
        for (String name : checkSets.keySet()) {
            System.out.println("check report:   " + work + "/report-" + name + "/report.html");
        }
        System.out.println("try:            echo 'Wo ist der Bahnhof?' | ./langid predict --model " + registry);
        if (Logs.file() != null) {
            System.out.println("log:            " + Logs.file());
        }
        return 0;
    }
}
