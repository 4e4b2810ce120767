package org.langid.serving;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code langid predict}'s quick path with the released model: its output, and what it hands over to the full command line. */
class QuickPredictTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String LONG_LINE = String.join(" ", ReleasedModel.SENTENCES.get("es")).repeat(40);

    @TempDir
    static Path temp;
    static Path input;
    static List<String> lines;

    @BeforeAll
    static void writeInput() throws IOException {
        lines = new ArrayList<>(ReleasedModel.allSentences());
        lines.addAll(List.of("", "   ", "Привет мир", "DAS IST EIN KLEINES HAUS", LONG_LINE, "caf\uFFFD"));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (String line : lines.subList(0, lines.size() - 1)) {
            bytes.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        }
        bytes.write(new byte[] {'c', 'a', 'f', (byte) 0xC3, '\n'});   // not UTF-8: read as U+FFFD
        input = Files.write(temp.resolve("lines.txt"), bytes.toByteArray());
    }

    private record Run(int status, String out, String err) {
    }

    private static Run predict(InputStream stdin, String... options) {
        List<String> args = new ArrayList<>(List.of("predict", "--model", ReleasedModel.REGISTRY.toString()));
        args.addAll(List.of(options));
        return run(stdin, args.toArray(String[]::new));
    }

    private static Run run(InputStream stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = QuickPredict.run(args, stdin, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void eachLineGetsItsLanguageAndConfidenceAsTheJavaApiDetectsIt() {
        Run run = predict(InputStream.nullInputStream(), "--input", input.toString(), "--threads", "1");
        assertEquals(0, run.status(), run.err());
        List<Detection> expected;
        try (ServingModel model = ReleasedModel.load(true)) {
            expected = model.detector().detectAll(lines);
        }
        StringBuilder tsv = new StringBuilder();
        for (int i = 0; i < lines.size(); i++) {
            tsv.append(expected.get(i).language()).append('\t').append(LinePredictions.fourDecimals(expected.get(i).confidence()))
                    .append('\t').append(lines.get(i)).append('\n');
        }
        assertEquals(tsv.toString(), run.out());
        List<String> written = run.out().lines().toList();
        int sentence = 0;
        for (var language : ReleasedModel.SENTENCES.entrySet()) {
            for (int k = 0; k < language.getValue().size(); k++) {
                assertTrue(written.get(sentence++).startsWith(language.getKey() + "\t"), written.get(sentence - 1));
            }
        }
        assertEquals("und\t0.0000\t", written.get(sentence));
        assertEquals("und\t0.0000\t   ", written.get(sentence + 1));
        assertEquals("und\t0.0000\tПривет мир", written.get(sentence + 2));
        assertTrue(written.get(sentence + 3).startsWith("de\t"), written.get(sentence + 3));
        assertTrue(written.get(sentence + 4).startsWith("es\t"));

        String version = ServingModel.currentVersion(ReleasedModel.REGISTRY).orElseThrow();
        List<String> err = run.err().lines().toList();
        assertEquals(2, err.size(), run.err());
        assertEquals("model " + version + " (en,de,fr,es,it,pt,nl,sv) from " + ReleasedModel.versionDirectory() + ", run by onnxruntime "
                + ai.onnxruntime.OrtEnvironment.getEnvironment().getVersion() + " (model.int8.onnx)", err.get(0));
        assertEquals("langid predict: 1 of " + lines.size() + " lines had bytes that are not UTF-8; they were read as U+FFFD, "
                + "which carries no language", err.get(1));
    }

    @Test
    void jsonLinesCarryEveryLanguagesProbabilityAndTheText() throws IOException {
        Run run = predict(InputStream.nullInputStream(), "--input", input.toString(), "--format", "json", "--max-windows-per-text=3");
        assertEquals(0, run.status(), run.err());
        List<String> written = run.out().lines().toList();
        assertEquals(lines.size(), written.size());
        for (int i = 0; i < lines.size(); i++) {
            JsonNode line = JSON.readTree(written.get(i));
            List<String> fields = new ArrayList<>();
            line.fieldNames().forEachRemaining(fields::add);
            assertEquals(List.of("language", "confidence", "probabilities", "windows", "text"), fields);
            assertEquals(lines.get(i), line.get("text").asText());
            assertEquals(line.get("windows").asInt() == 0 ? 0 : ReleasedModel.LANGUAGES.size(), line.get("probabilities").size());
            assertTrue(line.get("windows").asInt() <= 3, written.get(i));
        }
        assertEquals(3, JSON.readTree(written.get(lines.indexOf(LONG_LINE))).get("windows").asInt());
    }

    @Test
    void stdinAndGzipGiveWhatThePlainFileGives() throws IOException {
        Path gzipped = temp.resolve("lines.txt.gz");
        try (OutputStream gz = new GZIPOutputStream(Files.newOutputStream(gzipped))) {
            gz.write(Files.readAllBytes(input));
        }
        Run fromFile = predict(InputStream.nullInputStream(), "-i", input.toString());
        Run fromStdin = predict(new ByteArrayInputStream(Files.readAllBytes(input)));
        Run fromGzip = predict(InputStream.nullInputStream(), "--input=" + gzipped);
        assertEquals(0, fromFile.status(), fromFile.err());
        assertEquals(fromFile, fromStdin);
        assertEquals(fromFile, fromGzip);
    }

    @Test
    void theFloatFlavourRunsWhenAskedFor() {
        Run run = predict(InputStream.nullInputStream(), "--input", input.toString(), "--engine", "onnx-float", "--no-fold-capitals");
        assertEquals(0, run.status(), run.err());
        assertTrue(run.err().lines().findFirst().orElse("").endsWith(" (model.onnx)"), run.err());
        List<String> written = run.out().lines().toList();
        int sentence = 0;
        for (var language : ReleasedModel.SENTENCES.entrySet()) {
            for (int k = 0; k < language.getValue().size(); k++) {
                assertTrue(written.get(sentence++).startsWith(language.getKey() + "\t"), written.get(sentence - 1));
            }
        }
    }

    @Test
    void whatOnlyTheFullCommandLineDoesIsHandedOverWithoutReadingOrWriting() throws IOException {
        Path damaged = ReleasedModel.copyWithInt8(temp.resolve("damaged"), bytes -> {
            bytes[bytes.length / 2] ^= 0x01;
            return bytes;
        });
        Path bzip2 = Files.write(temp.resolve("lines.txt.bz2"), new byte[] {'B', 'Z', 'h'});
        String model = ReleasedModel.REGISTRY.toString();
        List<String[]> handedOver = List.of(
                new String[] {"predict", "--model", model, "--engine", "samediff"},
                new String[] {"predict", "--help"},
                new String[] {"predict"},
                new String[] {"--verbose", "predict", "--model", model},
                new String[] {"serve", "--model", model},
                new String[] {"predict", "--model", model, "--verbose"},
                new String[] {"predict", "--model", temp.resolve("no-such-model").toString()},
                new String[] {"predict", "--model", damaged.toString()},
                new String[] {"predict", "--model", "hdfs://namenode/models"},
                new String[] {"predict", "--model", model, "--input", "s3a://bucket/lines.txt"},
                new String[] {"predict", "--model", model, "--input", bzip2.toString()},
                new String[] {"predict", "--model", model, "--input", temp.resolve("missing.txt").toString()},
                new String[] {"predict", "--model", model, "--format", "csv"},
                new String[] {"predict", "--model", model, "--stride", "0"},
                new String[] {"predict", "--model", model, "--threads", "-2"},
                new String[] {"predict", "--model", model, "--batch", "0x10"},
                new String[] {"predict", "--model", model, "--format", "tsv", "--format=json"},
                new String[] {"predict", "-m", model, "--model", model},
                new String[] {"predict", "--model", model, "--fold-capitals=true"},
                new String[] {"predict", "--model", model, "--input"});
        for (String[] args : handedOver) {
            ByteArrayInputStream stdin = new ByteArrayInputStream("Hej då, vi ses i morgon.\n".getBytes(StandardCharsets.UTF_8));
            int unread = stdin.available();
            Run run = run(stdin, args);
            String which = String.join(" ", args);
            assertEquals(new Run(QuickPredict.HAND_OVER, "", ""), run, which);
            assertEquals(unread, stdin.available(), which + ": stdin is left for the full command line");
        }
    }
}
