package org.langid.serving;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class LinePredictionsTest {

    private static ServingModel model;

    @BeforeAll
    static void load() {
        model = ReleasedModel.load(true);
    }

    @AfterAll
    static void close() {
        model.close();
    }

    @Test
    void confidenceIsWrittenAsFormatWouldWriteIt() {
        // predict's output must not change with the faster formatter: the ends, halfway cases, floats.
        double[] edges = {0.0, 1.0, 0.5, 0.00005, 0.99995, 0.12345, 0.99994999, 1e-9, 0.1, 0.3};
        for (double value : edges) {
            assertEquals(String.format(Locale.ROOT, "%.4f", value), LinePredictions.fourDecimals(value), "value " + value);
        }
        SplittableRandom random = new SplittableRandom(20261123);
        for (int i = 0; i < 200_000; i++) {
            double value = switch (i % 3) {
                case 0 -> random.nextDouble();
                case 1 -> (random.nextInt(100_000) + 0.5) / 100_000.0;   // exactly halfway between two outputs, as written
                default -> (float) random.nextDouble();
            };
            assertEquals(String.format(Locale.ROOT, "%.4f", value), LinePredictions.fourDecimals(value), "value " + value);
        }
    }

    @Test
    void everyLineIsAnsweredInOrderAcrossBatches() throws IOException {
        // Empty lines (und) among short ones and sentences: an answer given to the wrong line shows.
        List<String> sentences = ReleasedModel.allSentences();
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 2 * LinePredictions.LINES_PER_BATCH + 7; i++) {
            lines.add(i % 3 == 0 ? "" : i % 50 == 1 ? sentences.get(i % sentences.size()) : "n" + i);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        LinePredictions.Counts counts = LinePredictions.write(input(String.join("\n", lines) + "\n"), out,
                model.detector()::detectAll, LinePredictions.Format.TSV);
        assertEquals(new LinePredictions.Counts(lines.size(), 0), counts);
        assertNull(counts.undecodableNotice());
        List<String> written = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(lines.size(), written.size());
        for (int i = 0; i < lines.size(); i++) {
            String[] fields = written.get(i).split("\t", 3);
            assertEquals(lines.get(i), fields[2], "line " + i);
            if (lines.get(i).isEmpty()) {
                assertEquals("und", fields[0], "line " + i);
            } else if (sentences.contains(lines.get(i))) {
                assertEquals(ReleasedModel.LANGUAGES.get(sentences.indexOf(lines.get(i)) / 3), fields[0], lines.get(i));
            } else {
                assertTrue(ReleasedModel.LANGUAGES.contains(fields[0]), written.get(i));
            }
        }
    }

    @Test
    void aLastLineWithoutANewlineIsAnsweredAndNoInputWritesNothing() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(new LinePredictions.Counts(2, 0), LinePredictions.write(input("Hej då!\nTot ziens, tot morgen"), out,
                model.detector()::detectAll, LinePredictions.Format.TSV));
        List<String> written = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(2, written.size());
        assertTrue(written.get(1).startsWith("nl\t") && written.get(1).endsWith("\tTot ziens, tot morgen"), written.get(1));

        ByteArrayOutputStream nothing = new ByteArrayOutputStream();
        assertEquals(new LinePredictions.Counts(0, 0), LinePredictions.write(input(""), nothing, model.detector()::detectAll,
                LinePredictions.Format.JSON));
        assertEquals(0, nothing.size());
    }

    @Test
    void linesThatAreNotUtf8AreReadAsReplacementCharactersAndCounted() throws IOException {
        byte[] bytes = {'D', 'a', 's', ' ', 'i', 's', 't', ' ', 'g', 'u', 't', '\n', 'c', 'a', 'f', (byte) 0xC3, '\n', (byte) 0xFF, (byte) 0xFE, '\n'};
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        LinePredictions.Counts counts = LinePredictions.write(new ByteArrayInputStream(bytes), out, model.detector()::detectAll,
                LinePredictions.Format.TSV);
        assertEquals(new LinePredictions.Counts(3, 2), counts);
        assertEquals("langid predict: 2 of 3 lines had bytes that are not UTF-8; they were read as U+FFFD, which carries no language",
                counts.undecodableNotice());
        List<String> written = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertTrue(written.get(1).endsWith("\tcaf\uFFFD"), written.get(1));
        assertEquals("und\t0.0000\t\uFFFD\uFFFD", written.get(2));
    }

    @Test
    void onlyTsvAndJsonAreFormats() {
        assertEquals(LinePredictions.Format.TSV, LinePredictions.Format.of("tsv"));
        assertEquals(LinePredictions.Format.JSON, LinePredictions.Format.of("json"));
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> LinePredictions.Format.of("JSON"));
        assertEquals("--format JSON is not one of tsv, json", refused.getMessage());
    }

    @Test
    void aFailureWhileDetectingReachesTheCaller() throws IOException {
        ServingModel closed = ReleasedModel.load(true);
        closed.close();
        String line = ReleasedModel.SENTENCES.get("sv").get(0) + "\n";
        RuntimeException failure = assertThrows(RuntimeException.class, () -> LinePredictions.write(input(line),
                new ByteArrayOutputStream(), closed.detector()::detectAll, LinePredictions.Format.TSV));
        assertTrue(failure.getMessage() != null && !failure.getMessage().isBlank(), String.valueOf(failure));
    }

    private static ByteArrayInputStream input(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }
}
