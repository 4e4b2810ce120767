package org.langid.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.langid.model.artefact.ModelArtefact;
import org.langid.model.artefact.ModelRegistry;
import org.langid.model.graph.ModelConfig;
import org.langid.model.graph.ParameterLayout;
import org.langid.serving.QuickPredict;
import org.nd4j.linalg.api.buffer.DataType;
import org.langid.model.TestConfigs;

/**
 * {@code ./langid predict} runs serving/'s {@link QuickPredict} first and the full command line
 * only when it hands over: the two must write the same bytes, and a hand-over must leave stdin,
 * stdout and stderr untouched for the full command.
 */
class QuickPredictTest {

    private static final Configuration CONF = new Configuration();

    @TempDir
    static Path temp;
    static Path registry;
    static Path lines;

    @BeforeAll
    static void publishAModelAndWriteInput() throws IOException {
        registry = temp.resolve("registry");
        ModelConfig config = TestConfigs.model();
        config.dModel = 16;
        config.heads = 2;
        config.layers = 1;
        config.ffn = 32;
        config.ngramBuckets = 4096;
        ObjectNode training = new ObjectMapper().createObjectNode();
        training.put("data_fingerprint", "test-fingerprint");
        training.put("trainer", "local");
        new ModelRegistry(registry.toString(), CONF).publish(ModelArtefact.create(config, ParameterLayout.of(config).initialise(7, DataType.FLOAT),
                training, Map.of("validation_accuracy", 0.5), null, Instant.parse("2026-11-28T10:00:00Z")));
        // Every kind of line predict meets, and more lines than two batches of LinePredictions.
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        List<String> kinds = List.of("This is English sentence number 7, written for the test.", "", "日本語のテキストです",
                "Det här är svensk mening nummer 7. ".repeat(3), "ja", "DAS IST EIN DEUTSCHER SATZ", "  spaces  around  ");
        for (int i = 0; i < 5_000; i++) {
            text.write((kinds.get(i % kinds.size()) + (i % 5 == 0 ? "" : " " + i) + "\n").getBytes(StandardCharsets.UTF_8));
        }
        text.write(("A long line, more windows than a text may have. ".repeat(60) + "\n").getBytes(StandardCharsets.UTF_8));
        text.write(new byte[] {'c', 'a', 'f', (byte) 0xC3, '\n'});   // not UTF-8: read as U+FFFD and counted
        lines = Files.write(temp.resolve("lines.txt"), text.toByteArray());
    }

    private record Run(int status, String out, String err) {
    }

    private static Run full(String... args) {
        PrintStream originalOut = System.out;
        PrintStream originalErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        StringWriter errors = new StringWriter();
        int status;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            status = LangidCommand.execute(new PrintWriter(errors, true), args);
        } finally {
            System.setOut(originalOut);
            System.setErr(originalErr);
        }
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8) + errors);
    }

    private static Run quick(InputStream stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = QuickPredict.run(args, stdin, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static String[] args(String... rest) {
        List<String> all = new ArrayList<>(List.of("predict", "--model", registry.toString()));
        all.addAll(List.of(rest));
        return all.toArray(String[]::new);
    }

    @Test
    void writesWhatTheFullCommandLineWritesByteForByte() throws IOException {
        Path gzipped = temp.resolve("lines.txt.gz");
        try (OutputStream gz = new GZIPOutputStream(Files.newOutputStream(gzipped))) {
            gz.write(Files.readAllBytes(lines));
        }
        List<List<String>> variants = List.of(List.of(), List.of("--format", "json"), List.of("--threads", "1", "--stride=3", "--batch", "100"),
                List.of("--no-fold-capitals", "--max-windows-per-text", "3", "--threads", "2"), List.of("--engine", "onnx-float"),
                List.of("--languages", "sv,de"), List.of("--languages=en"), List.of("--confidence-floor", "0.5", "--format", "json"));
        for (List<String> options : variants) {
            List<String> withInput = new ArrayList<>(options);
            withInput.addAll(List.of("--input", lines.toString()));
            Run expected = full(args(withInput.toArray(String[]::new)));
            assertEquals(0, expected.status(), expected.err());
            assertEquals(5_002, expected.out().lines().count(), "one line per input line");
            // The int8 flavour unless asked for the float one; the model line says which ran.
            assertTrue(expected.err().contains(options.contains("onnx-float") ? "(model.onnx)" : "(model.int8.onnx)"), expected.err());

            Run fromFile = quick(InputStream.nullInputStream(), args(withInput.toArray(String[]::new)));
            assertEquals(0, fromFile.status(), fromFile.err());
            assertEquals(expected.out(), fromFile.out(), "the same output for " + options);
            assertEquals(expected.err(), fromFile.err(), "the same model line and notice on stderr for " + options);
            assertTrue(fromFile.err().contains("1 of 5002 lines had bytes that are not UTF-8"), fromFile.err());

            Run fromStdin = quick(new ByteArrayInputStream(Files.readAllBytes(lines)), args(options.toArray(String[]::new)));
            assertEquals(expected.out(), fromStdin.out(), "stdin, " + options);

            List<String> withGzip = new ArrayList<>(options);
            withGzip.addAll(List.of("-i", gzipped.toString()));
            assertEquals(expected.out(), quick(InputStream.nullInputStream(), args(withGzip.toArray(String[]::new))).out(), ".gz, " + options);
        }
    }

    @Test
    void aSubsetOfLanguagesIsAnsweredFromAndALanguageTheModelLacksIsOneLine() {
        Run restricted = full(args("--languages", "sv,de", "--format", "json", "--input", lines.toString()));
        assertEquals(0, restricted.status(), restricted.err());
        restricted.out().lines().limit(50).forEach(line -> assertTrue(line.contains("\"language\":\"und\"")
                || line.contains("\"probabilities\":{\"de\":") && line.matches(".*\"language\":\"(sv|de)\".*"), line));
        Run floored = full(args("--confidence-floor", "0.5", "--format", "json", "--input", lines.toString()));
        Run whole = full(args("--format", "json", "--input", lines.toString()));
        assertTrue(floored.out().lines().filter(line -> line.contains("\"language\":\"und\"")).count()
                > whole.out().lines().filter(line -> line.contains("\"language\":\"und\"")).count(), "the floor turns some lines und");
        Run badFloor = full(args("--confidence-floor", "1.5", "--input", lines.toString()));
        assertEquals(1, badFloor.status(), badFloor.err());
        assertTrue(badFloor.err().contains("langid predict: error: the confidence floor must be in [0, 1), got 1.5"), badFloor.err());
        Run unknown = full(args("--languages", "en,xx", "--input", lines.toString()));
        assertEquals(1, unknown.status(), unknown.err());
        assertTrue(unknown.err().contains("langid predict: error: 'xx' is not one of the model's languages (en, de, fr, es, it, pt, nl, sv)"),
                unknown.err());
        assertTrue(unknown.err().lines().noneMatch(line -> line.startsWith("\tat ")), "no stack trace: " + unknown.err());
    }

    @Test
    void handsOverWhatOnlyTheFullCommandLineDoesWithoutTouchingStdinOrTheConsole() throws IOException {
        Path bzip2 = Files.write(temp.resolve("lines.txt.bz2"), new byte[] {'B', 'Z', 'h'});
        Path version = Path.of(ModelRegistry.resolve(registry.toString(), CONF));
        Path withoutOnnx = temp.resolve("without-onnx");
        Files.createDirectories(withoutOnnx);
        try (var files = Files.list(version)) {
            for (Path file : files.toList()) {
                if (!file.getFileName().toString().endsWith(".onnx")) {
                    Files.copy(file, withoutOnnx.resolve(file.getFileName()));
                }
            }
        }
        Path damaged = temp.resolve("damaged-onnx");
        Files.createDirectories(damaged);
        try (var files = Files.list(version)) {
            for (Path file : files.toList()) {
                Files.copy(file, damaged.resolve(file.getFileName()));
            }
        }
        byte[] onnx = Files.readAllBytes(damaged.resolve("model.int8.onnx"));   // the flavour that runs
        onnx[onnx.length / 2] ^= 0x10;
        Files.write(damaged.resolve("model.int8.onnx"), onnx);

        List<String[]> handedOver = List.of(
                args("--engine", "samediff"),                                  // the SameDiff graph needs ND4J
                new String[] {"predict", "--help"},                            // the full command's usage text
                args("--verbose"),                                             // an option only the full command has
                new String[] {"--verbose", "predict", "--model", registry.toString()},
                new String[] {"evaluate", "--model", registry.toString()},     // not predict at all
                new String[] {"predict"},                                      // no --model: the full command's usage error
                new String[] {"predict", "--model", "hdfs://namenode:8020/models"},
                new String[] {"predict", "--model", "file:" + registry},       // a URI: Hadoop reads it
                args("--languages", "en,xx"),                                   // a language the model lacks: the full command's one-line error
                args("--input", "s3a://bucket/lines.txt"),
                args("--input", bzip2.toString()),                             // a codec only Hadoop has
                args("--input", temp.resolve("no-such-file.txt").toString()),
                new String[] {"predict", "--model", temp.resolve("no-such-model").toString()},
                new String[] {"predict", "--model", withoutOnnx.toString()},   // listed but missing: the full command says so
                new String[] {"predict", "--model", damaged.toString()},       // the full command says it is damaged
                args("--threads", "0"), args("--stride", "0"), args("--format", "xml"), args("--batch", "many"),
                // forms the quick path leaves to picocli: octal-looking or signed counts, repeats, attached short values
                args("--stride", "010"), args("--stride", "+3"), args("--stride", "-1"), args("--format", "tsv", "--format", "json"),
                args("--no-fold-capitals", "--fold-capitals"), args("--fold-capitals=false"), args("--"), args("--input"),
                new String[] {"predict", "-m=" + registry}, new String[] {"predict", "-m" + registry});
        for (String[] arguments : handedOver) {
            ByteArrayInputStream stdin = new ByteArrayInputStream("This is English.\n".getBytes(StandardCharsets.UTF_8));
            int available = stdin.available();
            Run run = quick(stdin, arguments);
            String which = String.join(" ", arguments);
            assertEquals(QuickPredict.HAND_OVER, run.status(), which + ": " + run.err());
            assertEquals("", run.out(), which);
            assertEquals("", run.err(), which);
            assertEquals(available, stdin.available(), which + ": stdin left for the full command");
        }
        // The serving loader checks the digest while ONNX Runtime parses the bytes; the digest's verdict is the one reported.
        var refused = org.junit.jupiter.api.Assertions.assertThrows(org.langid.serving.ServingModel.ModelLoadException.class,
                () -> org.langid.serving.ServingModel.load(damaged, new org.langid.serving.TextDetector.Options(4, 256, 256, true), 1));
        assertTrue(refused.getMessage().contains("model.int8.onnx does not match its SHA-256"), refused.getMessage());
        // ...and the full command line says what is wrong with a damaged one.
        Run damagedFull = full("predict", "--model", damaged.toString(), "--input", lines.toString());
        assertTrue(damagedFull.status() == 1 && damagedFull.err().contains("model.int8.onnx does not match its SHA-256"), damagedFull.err());
    }
}
