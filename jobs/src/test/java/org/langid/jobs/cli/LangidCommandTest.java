package org.langid.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.langid.text.Alphabet;

class LangidCommandTest {

    @TempDir
    Path temp;

    private record Result(int exitCode, String err) {
    }

    private static Result run(String... args) {
        StringWriter err = new StringWriter();
        int code = LangidCommand.execute(new PrintWriter(err, true), args);
        return new Result(code, err.toString());
    }

    /** Runs a command and returns what it printed on stdout (commands print results with System.out). */
    private static String runForOutput(String... args) {
        return org.langid.jobs.LangidRuns.output(args);
    }

    private static void assertOneLineError(Result result, String expectedFragment) {
        assertOneLineError(result, "prepare", expectedFragment);
    }

    private static void assertOneLineError(Result result, String command, String expectedFragment) {
        assertEquals(1, result.exitCode(), result.err());
        String[] lines = result.err().strip().split("\n");
        assertEquals(1, lines.length, "one line, no stack trace: " + result.err());
        assertTrue(lines[0].startsWith("langid " + command + ": error: "), lines[0]);
        assertTrue(lines[0].contains(expectedFragment), lines[0]);
    }

    /** What issue 14's benchmarks read: {@code bench train} ends with {@code samples/s: N}. */
    private static void assertLastLineIsTheRate(String out) {
        assertTrue(out.strip().lines().reduce((first, last) -> last).orElseThrow().matches("samples/s: [0-9]+"), out);
    }

    @Test
    void benchTrainRunsAsManySparkWorkersAsItIsGivenAndNoneWithoutSpark() {
        // On a cluster Spark's default parallelism is at least 2 even with one one-core executor.
        String out = runForOutput("bench", "train", "--trainer", "spark", "--master", "local[2]", "--workers", "1",
                "--batch", "8", "--seconds", "0.5", "--warmup-seconds", "0", "--set", "model.ngram_buckets=0");
        assertTrue(out.contains("workers: 1 ("), out);   // the master may be another test's session: local[2] or more
        assertLastLineIsTheRate(out);
        assertOneLineError(run("bench", "train", "--workers", "2"), "train", "--workers is for --trainer spark");
    }

    @Test
    void aWorkerCountOrResumeTheTrainerCannotUseIsOneLineBeforeAnythingRuns() {
        // Inputs that do not exist: the count must be refused before they are read or Spark starts.
        String in = temp.resolve("no-such-prepared").toString();
        String out = temp.resolve("no-such-output").toString();
        assertOneLineError(run("train", "--trainer", "spark", "--workers", "0", "-i", in, "-o", out), "train",
                "--workers must be at least 1, got 0");
        assertOneLineError(run("train", "--workers", "2", "-i", in, "-o", out), "train",
                "--workers is for --trainer spark; the local trainer is one worker");
        assertOneLineError(run("pipeline", "--trainer", "local", "--workers", "2", "-w", out), "pipeline",
                "--workers is for --trainer spark");
        assertOneLineError(run("retrain", "--trainer", "spark", "--workers", "-1", "--corpus", in, "--registry", out),
                "retrain", "--workers must be at least 1, got -1");
        assertOneLineError(run("bench", "rounds", "--workers", "0"), "rounds", "--workers must be at least 1, got 0");
        assertOneLineError(run("train", "--resume", "-i", in, "-o", out), "train",
                "--resume is for --trainer spark; the local trainer keeps no checkpoints");
        assertFalse(Files.exists(temp.resolve("no-such-output")), "nothing written");
    }

    @Test
    void aLibraryErrorIsOneLineEvenWhenItsMessageCarriesAStackTrace() {
        // As Spark reports a task that ran out of memory: the executor's stack trace inside the message.
        var failure = new org.apache.spark.SparkException("Job aborted due to stage failure: Task 0 in stage 4.0 failed 1 times, "
                + "most recent failure: java.lang.OutOfMemoryError: Java heap space\n\tat java.base/java.nio.HeapByteBuffer.<init>"
                + "(HeapByteBuffer.java:64)\n\nDriver stacktrace:", new OutOfMemoryError("Java heap space"));
        String line = LangidCommand.userMessage(failure);
        assertFalse(line.contains("\n"), line);
        assertTrue(line.startsWith("SparkException: Job aborted due to stage failure: Task 0 in stage 4.0 failed 1 times"), line);
        assertTrue(line.contains("(caused by OutOfMemoryError: Java heap space)"), line);
    }

    @Test
    void aMissingInputPathIsOneLineAndExitCodeOne() {
        assertOneLineError(run("prepare", "--master", "local[1]", "-i", temp.resolve("no-such-corpus").toString(),
                "-o", temp.resolve("out").toString()), "no-such-corpus does not exist");
    }

    @Test
    void anUnreadableOrInvalidConfigIsOneLineAndExitCodeOne() throws IOException {
        assertOneLineError(run("prepare", "-c", temp.resolve("missing.yaml").toString(), "-i", "x", "-o", "y"),
                "missing.yaml does not exist");
        Path broken = Files.writeString(temp.resolve("broken.yaml"), "prepare:\n  window: [16\n");
        assertOneLineError(run("prepare", "-c", broken.toString(), "-i", "x", "-o", "y"), "not valid YAML");
        Path typo = Files.writeString(temp.resolve("typo.yaml"), "prepare:\n  windw:\n    length: 16\n");
        assertOneLineError(run("prepare", "-c", typo.toString(), "-i", "x", "-o", "y"), "unknown key 'prepare.windw'");
        assertOneLineError(run("prepare", "--set", "prepare.window.stride=0", "-i", "x", "-o", "y"),
                "window.stride must be at least 1, got 0");
        assertOneLineError(run("prepare", "-l", "en,klingon", "-i", "x", "-o", "y"), "'klingon' is not a language code");
    }

    @Test
    void usageErrorsExitWithTwo() {
        Result result = run("prepare", "-i", "somewhere");
        assertEquals(2, result.exitCode());
        assertTrue(result.err().contains("Missing required option: '--output=DIR'"), result.err());
    }

    /** {@code sentences} English and as many Swedish sentences, prepared into temp/prepared. */
    private Path preparedEnglishAndSwedish(int sentences) throws IOException {
        return preparedEnglishAndSwedish(sentences, "");
    }

    /** As {@link #preparedEnglishAndSwedish(int)}, in directories whose names end in {@code suffix}. */
    private Path preparedEnglishAndSwedish(int sentences, String suffix) throws IOException {
        Path corpus = temp.resolve("corpus" + suffix);
        Files.createDirectories(corpus);
        List<String> english = new java.util.ArrayList<>();
        List<String> swedish = new java.util.ArrayList<>();
        for (int i = 0; i < sentences; i++) {
            english.add("This is English sentence number " + i + ", written for the training test.");
            swedish.add("Det här är svensk mening nummer " + i + ", skriven för träningstestet.");
        }
        Files.write(corpus.resolve("en.txt"), english);
        Files.write(corpus.resolve("sv.txt"), swedish);
        Path prepared = temp.resolve("prepared" + suffix);
        assertEquals(0, run("prepare", "--master", "local[2]", "-i", corpus.toString(), "-o", prepared.toString()).exitCode());
        return prepared;
    }

    @Test
    void selfTeachersAreTrainedOnOtherSeedsExportedAndListedAsTheStudentsTeachers() throws IOException {
        Path prepared = preparedEnglishAndSwedish(40);
        Path student = temp.resolve("student");
        String out = runForOutput("train", "--trainer", "spark", "--workers", "2", "--master", "local[2]", "-i", prepared.toString(),
                "-o", student.toString(), "--set", "model.languages=[en, sv]", "--set", "model.d_model=16", "--set", "model.heads=2",
                "--set", "model.ffn=32", "--set", "model.ngram_buckets=4096", "--set", "train.batch_size=16",
                "--set", "train.max_steps=10", "--set", "train.averaging_frequency=5", "--set", "train.seed=5",
                "--set", "train.distillation.weight=0.5", "--set", "train.distillation.temperature=2",
                "--set", "train.distillation.teachers=[]", "--set", "train.distillation.self_teachers=2");
        assertTrue(out.contains("teacher 1/2 (seed 6): training") && out.contains("teacher 2/2 (seed 7): training"), out);
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        var distillation = json.readTree(student.resolve("train-summary.json").toFile()).path("train").path("distillation");
        List<String> teachers = new java.util.ArrayList<>();
        distillation.path("teachers").forEach(t -> teachers.add(t.asText()));
        // Qualified (Hadoop's file:/… here), so that executors on other machines read the same files.
        assertEquals(List.of("file:" + student.resolve("teachers/1/registry"), "file:" + student.resolve("teachers/2/registry")),
                teachers);
        for (int i = 1; i <= 2; i++) {
            assertTrue(Files.exists(student.resolve("teachers/" + i + "/registry/current")), "teacher " + i + " published");
            var teacher = json.readTree(student.resolve("teachers/" + i + "/model/train-summary.json").toFile()).path("train");
            assertEquals(5 + i, teacher.path("seed").asInt());
            assertEquals(0.0, teacher.path("distillation").path("weight").asDouble(), "a teacher learns from labels only");
        }
        assertTrue(Files.size(student.resolve("state.bin")) > 0);
    }

    @Test
    void preparesTrainsExportsEvaluatesAndPredictsFromTheCommandLine() throws IOException {
        Path prepared = preparedEnglishAndSwedish(60);
        Path model = temp.resolve("model");
        Result trained = run("train", "--master", "local[2]", "-i", prepared.toString(), "-o", model.toString(),
                "--set", "model.languages=[en, sv]", "--set", "model.d_model=16", "--set", "model.heads=2", "--set", "model.layers=1",
                "--set", "model.ffn=32", "--set", "model.ngram_buckets=0", "--set", "train.batch_size=32",
                "--set", "train.max_steps=40");
        assertEquals(0, trained.exitCode(), trained.err());
        assertTrue(Files.size(model.resolve("state.bin")) > 0);
        var summary = new com.fasterxml.jackson.databind.ObjectMapper().readTree(model.resolve("train-summary.json").toFile());
        assertEquals(40, summary.path("epochs").get(0).path("step").asInt());
        double accuracy = summary.path("epochs").get(0).path("validation_accuracy").asDouble();
        // Two languages after 40 small steps: measured 0.89 (deterministic); chance is 0.5.
        assertTrue(accuracy > 0.75, "validation accuracy " + accuracy);
        assertFalse(Files.exists(model.resolve("ngram-filter.bin")), "no n-grams: no filter");

        Path averaged = temp.resolve("model-spark");
        Result spark = run("train", "--trainer", "spark", "--workers", "2", "--master", "local[2]", "-i", prepared.toString(),
                "-o", averaged.toString(), "--set", "model.languages=[en, sv]", "--set", "model.d_model=16", "--set", "model.heads=2",
                "--set", "model.layers=1", "--set", "model.ffn=32", "--set", "train.batch_size=16", "--set", "train.max_steps=40",
                "--set", "train.averaging_frequency=5", "--set", "model.ngram_buckets=1024", "--set", "model.ngram_filter_bits=65536");
        assertEquals(0, spark.exitCode(), spark.err());
        var sparkSummary = new com.fasterxml.jackson.databind.ObjectMapper().readTree(averaged.resolve("train-summary.json").toFile());
        assertEquals("spark", sparkSummary.path("trainer").asText());
        assertEquals(2, sparkSummary.path("workers").asInt());
        // The n-gram filter: the training windows' n-grams, written beside the state.
        assertEquals(filterOf(prepared, 65536, sparkSummary.path("model").path("ngram_max_order").asInt()),
                org.langid.model.graph.NgramFilter.of(Files.readAllBytes(averaged.resolve("ngram-filter.bin"))));
        assertTrue(sparkSummary.path("ngram_filter").path("estimated_ngrams").asLong() > 100, sparkSummary.path("ngram_filter").toString());
        // Resuming a run that has finished trains nothing and leaves its outputs alone.
        String summaryBefore = Files.readString(averaged.resolve("train-summary.json"));
        assertOneLineError(run("train", "--trainer", "spark", "--workers", "2", "--master", "local[2]", "-i", prepared.toString(),
                "-o", averaged.toString(), "--resume", "--set", "model.languages=[en, sv]", "--set", "model.d_model=16", "--set", "model.heads=2",
                "--set", "model.layers=1", "--set", "model.ffn=32", "--set", "train.batch_size=16", "--set", "train.max_steps=40",
                "--set", "train.averaging_frequency=5", "--set", "model.ngram_buckets=1024", "--set", "model.ngram_filter_bits=131072"),
                "train", "nothing to resume: the latest checkpoint (epoch 1, step 40) already ends this run's 40 steps");
        assertEquals(summaryBefore, Files.readString(averaged.resolve("train-summary.json")));
        // Same samples as the local run (2 workers x 40 steps x 16 = 40 x 32); measured 0.945 (deterministic).
        assertTrue(sparkSummary.path("epochs").get(0).path("validation_accuracy").asDouble() > 0.75, sparkSummary.toString());
        List<String> metrics = Files.readAllLines(averaged.resolve("metrics.jsonl"));
        assertEquals(8 + 1, metrics.size(), "40 steps in rounds of 5: 8 round lines and 1 epoch line");
        for (String line : metrics) {
            assertEquals(List.of(), org.langid.model.schema.JsonSchemas.problems("metrics-record.schema.json",
                    new com.fasterxml.jackson.databind.ObjectMapper().readTree(line)), line);
        }
        assertTrue(Files.isDirectory(averaged.resolve("checkpoints/epoch-0001")), "a checkpoint after the last epoch");

        // Text shorter than the 16 rounds a shard the benchmark wants (2 x 64 x 5 x 16 windows) is timed on the rounds it holds.
        String[] small = {"--set", "model.languages=[en, sv]", "--set", "model.d_model=16", "--set", "model.heads=2",
                "--set", "model.layers=1", "--set", "model.ffn=32", "--set", "model.ngram_buckets=1024", "--set", "train.averaging_frequency=5"};
        String benched = runForOutput(concat(new String[] {"bench", "train", "--trainer", "spark", "--master", "local[2]", "--workers", "2",
                "-i", prepared.toString(), "--batch", "64", "--seconds", "0.5", "--warmup-seconds", "0"}, small));
        assertLastLineIsTheRate(benched);
        assertOneLineError(run(concat(new String[] {"bench", "train", "--trainer", "spark", "--master", "local[2]", "--workers", "2",
                "-i", prepared.toString(), "--batch", "4096", "--seconds", "0.5"}, small)), "train", "need 40960 for one round");
        // The local trainer likewise: 5,083 windows hold 19 of the 64 batches of 256 its pool wants.
        String benchedLocally = runForOutput(concat(new String[] {"bench", "train", "--trainer", "local",
                "-i", prepared.toString(), "--batch", "256", "--seconds", "0.5", "--warmup-seconds", "0"}, small));
        assertLastLineIsTheRate(benchedLocally);
        assertOneLineError(run(concat(new String[] {"bench", "train", "--trainer", "local",
                "-i", prepared.toString(), "--batch", "8192", "--seconds", "0.5"}, small)), "train", "needs 8192 for one batch");

        exportsEvaluatesAndPredicts(prepared, model, accuracy);
        addsAnNgramFilterToAnExportedModel(prepared, averaged);
    }

    /**
     * export puts the trainer's filter into the artefact; --add-ngram-filter publishes the same
     * parameters again with the filter of their own training windows (here a larger one), and
     * only of those.
     */
    private void addsAnNgramFilterToAnExportedModel(Path prepared, Path trained) throws IOException {
        Path exported = temp.resolve("exported-with-filter");
        runForOutput("export", "-i", trained.toString(), "--to", exported.toString());
        var conf = new org.apache.hadoop.conf.Configuration();
        var before = org.langid.model.artefact.ModelArtefact.load(exported.toString(), conf);
        assertEquals(org.langid.model.graph.NgramFilter.of(Files.readAllBytes(trained.resolve("ngram-filter.bin"))), before.ngramFilter());
        assertTrue(before.manifest().training().path("ngram_filter").path("bits_set").asLong() > 0, before.manifest().training().toString());
        Path other = preparedEnglishAndSwedish(30, "-other");
        assertOneLineError(run("export", "--add-ngram-filter", exported.toString(), "--training-data", other.toString(),
                "--to", temp.resolve("wrong").toString()), "export", "the filter must be made of the model's own training windows");

        Path registry = temp.resolve("filtered-registry");
        String out = runForOutput("export", "--add-ngram-filter", exported.toString(), "--training-data", prepared.toString(),
                "--ngram-filter-bits", "1048576", "--registry", registry.toString(), "--master", "local[2]");
        assertTrue(out.contains("an unseen n-gram passes with"), out);
        var after = org.langid.model.artefact.ModelArtefact.load(org.langid.model.artefact.ModelRegistry.resolve(registry.toString(), conf), conf);
        assertNotEquals(before.manifest().modelVersion(), after.manifest().modelVersion(), "other predictions, another version");
        assertEquals(1048576, after.manifest().modelConfig().ngramFilterBits);
        assertEquals(before.manifest().modelVersion(), after.manifest().training().path("ngram_filter_added_to").asText());
        assertEquals(before.manifest().dataFingerprint(), after.manifest().dataFingerprint());
        assertEquals(filterOf(prepared, 1048576, after.manifest().modelConfig().ngramMaxOrder), after.ngramFilter());
    }

    /** The filter of {@code prepared}'s training windows, built here window by window: every n-gram they hold, nothing else. */
    private static org.langid.model.graph.NgramFilter filterOf(Path prepared, int bits, int maxOrder) {
        var training = org.langid.jobs.train.WindowsReader.read(org.langid.jobs.SparkTestSession.get(), prepared.toString(), "train",
                List.of("en", "sv"), 16, Alphabet.SEED);
        int[] symbols = new int[training.symbols().length];
        for (int i = 0; i < symbols.length; i++) {
            symbols[i] = training.symbols()[i];
        }
        var filter = org.langid.model.graph.NgramFilter.empty(bits);
        filter.addAll(Alphabet.SEED, symbols, training.size(), 16, maxOrder);
        return filter;
    }

    private void exportsEvaluatesAndPredicts(Path prepared, Path trained, double validationAccuracy) throws IOException {
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        Path registry = temp.resolve("registry");
        String exported = runForOutput("export", "-i", trained.toString(), "--registry", registry.toString());
        assertTrue(exported.contains("now current in " + registry), exported);
        var conf = new org.apache.hadoop.conf.Configuration();
        var artefact = org.langid.model.artefact.ModelArtefact.load(
                org.langid.model.artefact.ModelRegistry.resolve(registry.toString(), conf), conf);
        assertEquals(json.readTree(prepared.resolve("summary.json").toFile()).path("fingerprint").asText(),
                artefact.manifest().dataFingerprint(), "the artefact records what it was trained on");
        assertEquals(validationAccuracy, artefact.manifest().metrics().get("validation_accuracy"), 1e-12);
        assertTrue(artefact.metricsLog().orElseThrow().contains("\"kind\":\"epoch\""), "the training curve travels with the model");

        // A confidence floor, recorded at export, is what predict answers by: und below it, the probabilities still written.
        Path floored = temp.resolve("floored");
        runForOutput("export", "-i", trained.toString(), "--to", floored.toString(), "--confidence-floor", "0.999999");
        assertEquals(0.999999, json.readTree(floored.resolve("manifest.json").toFile()).path("confidence_floor").asDouble());
        Path floorLines = Files.writeString(temp.resolve("floor-lines.txt"), "This is English sentence number 7, written for the test.\n");
        for (String engine : List.of("onnx", "samediff")) {
            var answer = json.readTree(runForOutput("predict", "--model", floored.toString(), "--input", floorLines.toString(), "--format", "json",
                    "--engine", engine).strip());
            assertEquals("und", answer.path("language").asText(), engine + ": " + answer);
            assertEquals(2, answer.path("probabilities").size(), engine + ": " + answer);
        }
        assertOneLineError(run("export", "-i", trained.toString(), "--to", temp.resolve("bad-floor").toString(), "--confidence-floor", "1"),
                "export", "the confidence floor must be in [0, 1), got 1.0");

        Path reportDir = temp.resolve("report");
        String evaluated = runForOutput("evaluate", "--master", "local[2]", "--model", registry.toString(), "-i", prepared.toString(),
                "--lingua", "-o", reportDir.toString());
        assertTrue(evaluated.contains("lingua-1.2.2"), evaluated);
        var report = json.readTree(reportDir.resolve("report.json").toFile());
        assertEquals(List.of(), org.langid.model.schema.JsonSchemas.problems("evaluation-report.schema.json", report));
        var ours = report.path("detectors").get(0);
        var lingua = report.path("detectors").get(1);
        long testWindows = org.langid.jobs.SparkTestSession.get().read().parquet(prepared + "/windows/split=test").count();
        assertEquals(testWindows, ours.path("windows").path("count").asLong(), "every test window is scored");
        assertEquals(testWindows, lingua.path("windows").path("count").asLong(), "Lingua scores the same windows");
        assertTrue(ours.path("windows").path("accuracy").asDouble() > 0.75, ours.toString());
        assertEquals(List.of("en", "sv", "und"), json.convertValue(lingua.path("windows").path("predicted_labels"), List.class));
        assertTrue(ours.path("sentences").path("count").asLong() > 0, "sentences are scored too");
        // How far the model is ahead of each peer, with an interval over the test split's sentences.
        var lead = lingua.path("windows").path("model_lead");
        double difference = ours.path("windows").path("accuracy").asDouble() - lingua.path("windows").path("accuracy").asDouble();
        assertEquals(difference, lead.path("accuracy_difference").asDouble(), 1e-12, lead.toString());
        assertTrue(lead.path("interval_95").get(0).asDouble() <= difference && difference <= lead.path("interval_95").get(1).asDouble());
        assertTrue(lead.path("interval_95").get(0).asDouble() < lead.path("interval_95").get(1).asDouble(), "the sample's spread: " + lead);
        long testSentencesWithWindows = org.langid.jobs.SparkTestSession.get().read().parquet(prepared + "/windows/split=test")
                .select("language", "sentence_id").distinct().count();
        assertEquals(testSentencesWithWindows, lead.path("clusters").asLong(), "a sentence's windows are resampled together");
        assertEquals("sentence", lead.path("clustered_by").asText());
        assertEquals(ours.path("sentences").path("count").asLong(), lingua.path("sentences").path("model_lead").path("clusters").asLong());
        assertTrue(ours.path("windows").path("model_lead").isMissingNode(), "the model does not lead itself");
        assertTrue(evaluated.contains(String.format(java.util.Locale.ROOT, "langid - lingua-1.2.2: %+.2f points (95%% interval ",
                100 * difference)), evaluated);
        assertTrue(Files.readString(reportDir.resolve("report.html")).startsWith("<!DOCTYPE html>"));
        // This small model misreads some windows (about one in ten), and the report shows which.
        assertTrue(ours.path("windows").path("correct").asLong() < testWindows);
        var commonest = ours.path("windows").path("errors").get(0);
        assertTrue(commonest.path("examples").size() > 0, "misclassified windows are shown: " + commonest);
        assertTrue(evaluated.contains("commonest errors (langid): " + commonest.path("expected").asText() + " as "
                + commonest.path("predicted").asText() + " " + commonest.path("count").asLong()), evaluated);

        String longLine = "This is English sentence number 7, written for the training test. ".repeat(3000);
        Path input = Files.write(temp.resolve("lines.txt"), List.of("This is English sentence number 7, written for the training test.",
                "", "日本語のテキストです", longLine, "Det här är svensk mening nummer 7, skriven för träningstestet.", "ja"),
                java.nio.charset.StandardCharsets.UTF_8);
        List<String> lines = runForOutput("predict", "--model", registry.toString(), "--input", input.toString()).lines().toList();
        assertEquals(6, lines.size(), "one output line per input line");
        assertTrue(lines.get(0).startsWith("en\t"), lines.get(0));
        assertEquals("und\t0.0000\t", lines.get(1));
        assertEquals("und\t0.0000\t日本語のテキストです", lines.get(2));
        assertTrue(lines.get(3).startsWith("en\t") && lines.get(3).endsWith(longLine), "a long line keeps its whole text");
        assertTrue(lines.get(4).startsWith("sv\t"), lines.get(4));
        assertTrue(lines.get(5).matches("(en|sv)\t0\\.\\d{4}\tja"), "a 2-character line is one padded window: " + lines.get(5));

        // Several batches of lines, detected while the next is read and the last written: order and count kept.
        List<String> many = new java.util.ArrayList<>();
        for (int i = 0; i < 9_000; i++) {
            many.add(i % 3 == 0 ? "" : (i % 2 == 0 ? "This is English sentence number " : "Det här är svensk mening nummer ") + i);
        }
        Path manyInput = Files.write(temp.resolve("many.txt"), many, java.nio.charset.StandardCharsets.UTF_8);
        List<String> manyLines = runForOutput("predict", "--model", registry.toString(), "--input", manyInput.toString(),
                "--threads", "2").lines().toList();
        assertEquals(many.size(), manyLines.size(), "one output line per input line");
        for (int i = 0; i < many.size(); i++) {
            assertEquals(many.get(i), manyLines.get(i).split("\t", 3)[2], "line " + i + " in its place");
        }

        for (String line : runForOutput("predict", "--model", registry.toString(), "--input", input.toString(), "--format", "json").lines().toList()) {
            var detection = json.readTree(line);
            double sum = 0;
            for (var p : (Iterable<com.fasterxml.jackson.databind.JsonNode>) detection.path("probabilities")::elements) {
                sum += p.asDouble();
            }
            assertEquals(detection.path("windows").asInt() == 0 ? 0.0 : 1.0, sum, 1e-6, line);
        }

        Path page = temp.resolve("attention.html");
        String visualized = runForOutput("visualize", "--model", registry.toString(), "--text", "Det här är svensk mening nummer 7.",
                "-o", page.toString());
        assertTrue(visualized.contains(page.toString()), visualized);
        String html = Files.readString(page);
        assertTrue(html.startsWith("<!DOCTYPE html>") && html.contains("attention-data"), "a page with the attention weights");
        assertOneLineError(run("visualize", "--model", registry.toString(), "--text", "日本語", "-o", page.toString()), "visualize",
                "nothing to classify");

        Path graph = Path.of(org.langid.model.artefact.ModelRegistry.resolve(registry.toString(), conf), "graph.fb");
        byte[] bytes = Files.readAllBytes(graph);
        bytes[100] ^= 0x10;
        Files.write(graph, bytes);
        assertOneLineError(run("predict", "--model", registry.toString(), "--input", input.toString()), "predict",
                "graph.fb does not match its SHA-256");
    }

    @Test
    void preparesACorpusFromTheCommandLine() throws IOException {
        Path corpus = temp.resolve("corpus");
        Files.createDirectories(corpus);
        Files.write(corpus.resolve("en.txt"), List.of("This is a sentence in English, long enough.", "Another English sentence for the test."));
        Files.write(corpus.resolve("sv.txt"), List.of("Det här är en mening på svenska, tillräckligt lång."));
        Path out = temp.resolve("out");
        Result result = run("prepare", "--master", "local[2]", "-i", corpus.toString(), "-o", out.toString(),
                "--set", "prepare.window.stride=2", "--set", "prepare.languages=[]");
        assertEquals(0, result.exitCode(), result.err());
        String summary = Files.readString(out.resolve("summary.json"));
        assertTrue(summary.contains("\"stride\" : 2"), "the override reached the job");
        assertTrue(summary.contains("\"sv\""), "empty language list keeps every language");
    }

    private static String[] concat(String[] first, String[] second) {
        String[] both = java.util.Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }
}
