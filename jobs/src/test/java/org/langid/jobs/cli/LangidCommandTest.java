package org.langid.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    private static void assertOneLineError(Result result, String expectedFragment) {
        assertEquals(1, result.exitCode(), result.err());
        String[] lines = result.err().strip().split("\n");
        assertEquals(1, lines.length, "one line, no stack trace: " + result.err());
        assertTrue(lines[0].startsWith("langid prepare: error: "), lines[0]);
        assertTrue(lines[0].contains(expectedFragment), lines[0]);
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

    @Test
    void preparesThenTrainsFromTheCommandLine() throws IOException {
        Path corpus = temp.resolve("corpus");
        Files.createDirectories(corpus);
        List<String> english = new java.util.ArrayList<>();
        List<String> swedish = new java.util.ArrayList<>();
        for (int i = 0; i < 60; i++) {
            english.add("This is English sentence number " + i + ", written for the training test.");
            swedish.add("Det här är svensk mening nummer " + i + ", skriven för träningstestet.");
        }
        Files.write(corpus.resolve("en.txt"), english);
        Files.write(corpus.resolve("sv.txt"), swedish);
        Path prepared = temp.resolve("prepared");
        assertEquals(0, run("prepare", "--master", "local[2]", "-i", corpus.toString(), "-o", prepared.toString()).exitCode());
        Path model = temp.resolve("model");
        Result trained = run("train", "--master", "local[2]", "-i", prepared.toString(), "-o", model.toString(),
                "--set", "model.languages=[en, sv]", "--set", "model.d_model=16", "--set", "model.heads=2", "--set", "model.layers=1",
                "--set", "model.ffn=32", "--set", "train.batch_size=32", "--set", "train.max_steps=40");
        assertEquals(0, trained.exitCode(), trained.err());
        assertTrue(Files.size(model.resolve("state.bin")) > 0);
        var summary = new com.fasterxml.jackson.databind.ObjectMapper().readTree(model.resolve("train-summary.json").toFile());
        assertEquals(40, summary.path("epochs").get(0).path("step").asInt());
        double accuracy = summary.path("epochs").get(0).path("validation_accuracy").asDouble();
        // Two languages after 40 small steps: measured 0.89 (deterministic); chance is 0.5.
        assertTrue(accuracy > 0.75, "validation accuracy " + accuracy);

        Path averaged = temp.resolve("model-spark");
        Result spark = run("train", "--trainer", "spark", "--workers", "2", "--master", "local[2]", "-i", prepared.toString(),
                "-o", averaged.toString(), "--set", "model.languages=[en, sv]", "--set", "model.d_model=16", "--set", "model.heads=2",
                "--set", "model.layers=1", "--set", "model.ffn=32", "--set", "train.batch_size=16", "--set", "train.max_steps=40",
                "--set", "train.averaging_frequency=5");
        assertEquals(0, spark.exitCode(), spark.err());
        var sparkSummary = new com.fasterxml.jackson.databind.ObjectMapper().readTree(averaged.resolve("train-summary.json").toFile());
        assertEquals("spark", sparkSummary.path("trainer").asText());
        assertEquals(2, sparkSummary.path("workers").asInt());
        // Same samples as the local run (2 workers x 40 steps x 16 = 40 x 32); measured 0.945 (deterministic).
        assertTrue(sparkSummary.path("epochs").get(0).path("validation_accuracy").asDouble() > 0.75, sparkSummary.toString());
        List<String> metrics = Files.readAllLines(averaged.resolve("metrics.jsonl"));
        assertEquals(8 + 1, metrics.size(), "40 steps in rounds of 5: 8 round lines and 1 epoch line");
        for (String line : metrics) {
            assertEquals(List.of(), org.langid.model.schema.JsonSchemas.problems("metrics-record.schema.json",
                    new com.fasterxml.jackson.databind.ObjectMapper().readTree(line)), line);
        }
        assertTrue(Files.isDirectory(averaged.resolve("checkpoints/epoch-0001")), "a checkpoint after the last epoch");
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
}
