package org.langid.jobs.retrain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.langid.jobs.evaluate.EvaluateJob;
import org.langid.jobs.evaluate.ModelCandidate;
import org.langid.jobs.export.ArtefactExport;
import org.langid.jobs.prepare.PrepareConfig;
import org.langid.jobs.prepare.PrepareJob;
import org.langid.jobs.prepare.PreparedAlphabet;
import org.langid.jobs.train.SelfTeachers;
import org.langid.jobs.train.TrainJob;
import org.langid.model.artefact.Manifest;
import org.langid.model.artefact.ModelArtefact;
import org.langid.model.artefact.ModelRegistry;
import org.langid.model.config.ConfigTree;
import org.langid.model.graph.ModelConfig;
import org.langid.model.io.HadoopFiles;
import org.langid.model.predict.LanguageDetector;
import org.langid.model.schema.JsonSchemas;
import org.langid.model.train.TrainConfig;
import org.langid.model.train.TrainingState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code langid retrain}: when a corpus root has dated snapshots the registry's current model
 * was not trained on, prepare all snapshots together, train a candidate (warm-started from the
 * current model when its languages and shape are unchanged, else from scratch), evaluate
 * candidate and current on the same test windows, and publish the candidate only if the
 * {@link PromotionGate} lets it through. Every decision is a JSON record in
 * {@code <registry>/decisions/} (data-schemas/retrain-decision.schema.json). One run at a time
 * per registry ({@link RetrainLock}).
 */
public final class RetrainJob {

    public static final String DECISIONS = "decisions";
    public static final String SCHEMA_FILE = "retrain-decision.schema.json";
    private static final Logger LOG = LoggerFactory.getLogger(RetrainJob.class);
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final DateTimeFormatter RECORD_TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    /** What a run needs besides the Spark session. */
    public record Settings(String corpusRoot, String registry, String workDir, PrepareConfig prepare, ModelConfig model,
                           TrainConfig train, String trainer, int workers, double margin, String evaluationData,
                           int evaluationWindows) {
    }

    /** What a run did: nothing (and why), or a decision record. */
    public record Outcome(boolean trained, String message, JsonNode decision) {
    }

    private RetrainJob() {
    }

    public static Outcome run(SparkSession spark, Settings settings) {
        Configuration conf = spark.sparkContext().hadoopConfiguration();
        try (RetrainLock lock = RetrainLock.acquire(settings.registry(), conf)) {
            return runLocked(spark, settings, conf);
        }
    }

    private static Outcome runLocked(SparkSession spark, Settings s, Configuration conf) {
        ModelRegistry registry = new ModelRegistry(s.registry(), conf);
        List<String> snapshots = CorpusSnapshots.names(s.corpusRoot(), conf);
        if (snapshots.isEmpty()) {
            throw new IllegalArgumentException("corpus root " + s.corpusRoot() + " has no snapshot folders named like 2026-11-21");
        }
        Optional<String> currentVersion = registry.currentVersion();
        ModelArtefact current = currentVersion.map(v -> ModelArtefact.load(registry.versionLocation(v), conf)).orElse(null);
        List<String> trainedOn = current == null ? List.of() : snapshotsOf(current.manifest());
        List<String> newSnapshots = snapshots.stream().filter(n -> !trainedOn.contains(n)).toList();
        String servingText = currentVersion.map(v -> "model " + v).orElse("no model yet");
        if (newSnapshots.isEmpty()) {
            return new Outcome(false, "nothing to do: " + servingText + " was trained on every snapshot (" + String.join(", ", snapshots) + ")", null);
        }
        Optional<JsonNode> earlier = decisionFor(s.registry(), conf, currentVersion.orElse(null), snapshots);
        if (earlier.isPresent()) {
            return new Outcome(false, "nothing to do: these snapshots were already judged against " + servingText + " ("
                    + earlier.get().path("decision").asText() + ", " + earlier.get().path("time").asText() + ")", null);
        }
        LOG.info("new snapshots {}; serving {}", newSnapshots, servingText);

        String prepared = s.workDir() + "/prepared";
        List<String> inputs = snapshots.stream().map(n -> s.corpusRoot() + "/" + n).toList();
        new PrepareJob(spark, s.prepare()).run(inputs, prepared, true);

        // Warm start needs the same languages (output rows) and the same shape (parameter layout).
        ModelConfig model = PreparedAlphabet.applyTo(s.model(), prepared, spark.sparkContext().hadoopConfiguration());
        if (current != null && !current.manifest().alphabet().isSeed() && !model.alphabet.isSeed()) {
            // Prepared windows keep every character, so the current model's symbols read the new
            // snapshots too (new characters as their scripts' fallbacks): a warm start stays possible.
            model = model.withAlphabet(current.manifest().alphabet());
        }
        TrainingState start = null;
        String startReason;
        if (current == null) {
            startReason = "no current model: trained from scratch";
        } else if (!current.manifest().languages().equals(model.languages)) {
            startReason = "language set changed from " + current.manifest().languages() + " to " + model.languages + ": trained from scratch";
        } else if (!shape(current.manifest().modelConfig()).equals(shape(model))) {
            startReason = "model shape differs from the current model's: trained from scratch";
        } else {
            start = TrainingState.start(current.parameters());
            startReason = "warm start from " + current.manifest().modelVersion();
        }
        LOG.info(startReason);
        // The recipe is the profile's: a warm start takes the current model's parameters, not how it was trained.
        TrainConfig train = SelfTeachers.resolve(spark, prepared, s.workDir() + "/teachers", model, s.train(),
                new SelfTeachers.Trainer("spark".equals(s.trainer()), s.workers()), false, System.out);
        String trained = s.workDir() + "/model";
        if ("spark".equals(s.trainer())) {
            TrainJob.runSpark(spark, prepared, trained, model, train, s.workers(), start, -1);
        } else if (start != null) {
            TrainJob.runLocal(spark, prepared, trained, model, train, start);
        } else {
            TrainJob.runLocal(spark, prepared, trained, model, train);
        }

        ObjectNode provenance = JSON.createObjectNode();
        snapshots.forEach(provenance.putArray("snapshots")::add);
        provenance.put("corpus_root", s.corpusRoot());
        if (start != null) {
            provenance.put("warm_start_from", current.manifest().modelVersion());
        }
        ModelArtefact candidate = ArtefactExport.fromTrainingOutput(trained, conf, Instant.now(), provenance);
        String candidateLocation = s.workDir() + "/candidate-" + candidate.manifest().modelVersion();
        candidate.writeTo(candidateLocation, conf);

        // A fixed evaluation set (the same windows run after run) when given; otherwise the test split of all snapshots.
        EvaluateJob.Data evaluation = s.evaluationData() != null
                ? new EvaluateJob.Data(s.evaluationData(), null, s.evaluationData(), null, s.evaluationWindows(), 0)
                : new EvaluateJob.Data(prepared + "/windows/split=test", null, prepared, "test", s.evaluationWindows(), 0);
        Scores candidateScores = score(spark, candidate, candidateLocation, evaluation);
        Scores currentScores = current == null ? null
                : score(spark, current, registry.versionLocation(current.manifest().modelVersion()), evaluation);

        ObjectNode record = JSON.createObjectNode();
        record.put("format_version", 1);
        Instant now = Instant.now();
        record.put("time", now.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString());
        ObjectNode snapshotNode = record.putObject("snapshots");
        snapshots.forEach(snapshotNode.putArray("all")::add);
        newSnapshots.forEach(snapshotNode.putArray("new")::add);
        record.put("margin", s.margin());
        record.put("evaluation_data", evaluation.windowsPath());
        record.put("evaluation_windows", candidateScores.windows());
        record.set("candidate", candidateScores.toJson(candidate.manifest().modelVersion(), candidateLocation).put("start", startReason));
        if (currentScores == null) {
            record.putNull("current");
        } else {
            record.set("current", currentScores.toJson(current.manifest().modelVersion(),
                    registry.versionLocation(current.manifest().modelVersion())));
        }
        PromotionGate.Verdict verdict = currentScores == null
                ? new PromotionGate.Verdict(true, List.of())
                : new PromotionGate(s.margin()).judge(candidateScores.overallOn(currentScores.byLanguage().keySet()),
                        candidateScores.byLanguage(), currentScores.overall(), currentScores.byLanguage());
        record.put("decision", verdict.promote() ? "promoted" : "rejected");
        ArrayNode reasons = record.putArray("reasons");
        verdict.reasons().forEach(reasons::add);
        if (verdict.promote()) {
            reasons.add(currentScores == null ? "first model of the registry" : "not worse than the current model by more than the margin, overall or in any language");
        }
        JsonSchemas.requireValid(SCHEMA_FILE, record, "the retraining decision");
        // The record first: if publishing fails, the registry still says what was decided.
        writeRecord(s.registry(), conf, RECORD_TIME.format(now) + "-" + candidate.manifest().modelVersion() + ".json", record);
        if (verdict.promote()) {
            registry.publish(candidate);
        }
        String message = (verdict.promote() ? "published " : "kept " + servingText + "; rejected ") + candidate.manifest().modelVersion()
                + (verdict.promote() ? "" : ": " + String.join("; ", verdict.reasons()));
        return new Outcome(true, message, record);
    }

    /** Per-language accuracy (recall) and support on the evaluation windows. */
    private record Scores(double overall, long windows, Map<String, Double> byLanguage, Map<String, Long> support) {

        /** Accuracy over the windows of {@code languages} only: compares models that do not know the same languages. */
        double overallOn(java.util.Set<String> languages) {
            double correct = 0;
            long total = 0;
            for (String language : languages) {
                if (byLanguage.containsKey(language)) {
                    correct += byLanguage.get(language) * support.get(language);
                    total += support.get(language);
                }
            }
            return total == 0 ? 0 : correct / total;
        }

        ObjectNode toJson(String version, String location) {
            ObjectNode node = JSON.createObjectNode();
            node.put("version", version);
            node.put("location", location);
            node.put("accuracy", overall);
            ObjectNode perLanguage = node.putObject("per_language");
            byLanguage.forEach(perLanguage::put);
            return node;
        }
    }

    private static Scores score(SparkSession spark, ModelArtefact artefact, String location, EvaluateJob.Data data) {
        LanguageDetector detector = new LanguageDetector(artefact, LanguageDetector.Options.defaults());
        int threads = Runtime.getRuntime().availableProcessors();
        JsonNode windows = EvaluateJob.run(spark, detector, location, data, List.of(new ModelCandidate(detector, threads)))
                .at("/detectors/0/windows");
        Map<String, Double> byLanguage = new LinkedHashMap<>();
        Map<String, Long> support = new LinkedHashMap<>();
        windows.path("per_language").forEach(entry -> {
            byLanguage.put(entry.path("language").asText(), entry.path("recall").asDouble());
            support.put(entry.path("language").asText(), entry.path("support").asLong());
        });
        return new Scores(windows.path("accuracy").asDouble(), windows.path("count").asLong(), byLanguage, support);
    }

    private static List<String> snapshotsOf(Manifest manifest) {
        List<String> names = new ArrayList<>();
        manifest.training().path("snapshots").forEach(n -> names.add(n.asText()));
        return names;
    }

    /** The model's shape without its languages: what decides whether parameters carry over. */
    private static JsonNode shape(ModelConfig config) {
        ObjectNode json = ((ObjectNode) ConfigTree.toJson(config)).deepCopy();
        json.remove("languages");
        json.remove("ngram_filter_bits");   // made from the training data, not a parameter
        return json;
    }

    /** An earlier decision on exactly these snapshots against exactly this current model, if any. */
    private static Optional<JsonNode> decisionFor(String registry, Configuration conf, String currentVersion, List<String> snapshots) {
        for (JsonNode record : decisions(registry, conf)) {
            String judgedAgainst = record.path("current").isNull() ? null : record.path("current").path("version").asText();
            List<String> judgedSnapshots = new ArrayList<>();
            record.path("snapshots").path("all").forEach(n -> judgedSnapshots.add(n.asText()));
            if (java.util.Objects.equals(judgedAgainst, currentVersion) && judgedSnapshots.equals(snapshots)) {
                return Optional.of(record);
            }
        }
        return Optional.empty();
    }

    /** Every decision record of the registry, oldest first. */
    public static List<JsonNode> decisions(String registry, Configuration conf) {
        Path dir = new Path(registry, DECISIONS);
        List<JsonNode> records = new ArrayList<>();
        try {
            FileSystem fs = HadoopFiles.fileSystem(dir, conf);
            if (!fs.exists(dir)) {
                return records;
            }
            List<Path> files = new ArrayList<>();
            for (FileStatus status : fs.listStatus(dir)) {
                if (status.getPath().getName().endsWith(".json") && !status.getPath().getName().startsWith(".")) {
                    files.add(status.getPath());
                }
            }
            files.sort(null);
            for (Path file : files) {
                records.add(JSON.readTree(HadoopFiles.readString(file.toString(), conf)));
            }
            return records;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the decisions in " + dir + ": " + e.getMessage(), e);
        }
    }

    private static void writeRecord(String registry, Configuration conf, String name, ObjectNode record) {
        HadoopFiles.writeJsonAtomically(registry + "/" + DECISIONS + "/" + name, record, JSON, conf);
    }
}
