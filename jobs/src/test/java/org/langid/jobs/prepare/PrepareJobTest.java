package org.langid.jobs.prepare;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.langid.jobs.SparkTestSession;
import org.langid.model.data.Split;
import org.langid.model.schema.JsonSchemas;
import org.langid.text.TextNormalizer;

class PrepareJobTest {

    @TempDir
    Path temp;

    private final SparkSession spark = SparkTestSession.get();

    private static PrepareConfig config() {
        PrepareConfig config = new PrepareConfig();
        config.split.train = 0.6;
        config.split.validation = 0.2;
        config.outputPartitions = 2;
        return config;
    }

    private PrepareSummary run(PrepareConfig config, String output, Path... inputs) {
        return new PrepareJob(spark, config).run(Stream.of(inputs).map(Path::toString).toList(), output, false);
    }

    @Test
    void cutsEverySentenceIntoNMinus15WindowsAndKeepsEachSentenceInOneSplit() throws IOException {
        Path corpus = temp.resolve("corpus");
        TestCorpora.writeLines(corpus.resolve("en.txt"), TestCorpora.sentences("en", 300, 1));
        TestCorpora.writeGzipLines(corpus.resolve("de.txt.gz"), TestCorpora.sentences("de", 300, 2));
        TestCorpora.writeLines(corpus.resolve("fr.txt"), TestCorpora.sentences("fr", 300, 3));
        String out = temp.resolve("out").toString();

        PrepareSummary summary = run(config(), out, corpus);

        Dataset<Row> sentences = spark.read().parquet(out + "/sentences");
        Dataset<Row> windows = spark.read().parquet(out + "/windows");
        Map<Long, Long> windowsPerSentence = new HashMap<>();
        for (Row r : windows.groupBy("sentence_id").count().collectAsList()) {
            windowsPerSentence.put(r.getLong(0), r.getLong(1));
        }
        List<Row> sentenceRows = sentences.collectAsList();
        assertEquals(900, sentenceRows.size());
        for (Row s : sentenceRows) {
            String sentence = s.getString(s.fieldIndex("sentence"));
            long expected = sentence.length() - 15;
            assertEquals(expected, windowsPerSentence.getOrDefault(s.getLong(s.fieldIndex("sentence_id")), 0L).longValue(),
                    "windows of: " + sentence);
        }
        // Every window is the 16 characters of its sentence at its offset.
        Map<Long, String> sentenceById = new HashMap<>();
        sentenceRows.forEach(s -> sentenceById.put(s.getLong(s.fieldIndex("sentence_id")), s.getString(s.fieldIndex("sentence"))));
        for (Row w : windows.limit(2000).collectAsList()) {
            String sentence = sentenceById.get(w.getLong(w.fieldIndex("sentence_id")));
            int offset = w.getInt(w.fieldIndex("offset"));
            assertEquals(sentence.substring(offset, offset + 16), w.getString(w.fieldIndex("window")));
        }

        // No sentence in two splits, in sentences or in windows.
        assertEquals(0, sentences.groupBy("sentence_id").count().filter(col("count").gt(1)).count());
        assertEquals(0, windows.select("sentence_id", "split").distinct().groupBy("sentence_id").count().filter(col("count").gt(1)).count());
        for (String language : List.of("en", "de", "fr")) {
            for (Split split : Split.values()) {
                long rows = windows.filter(col("language").equalTo(language).and(col("split").equalTo(split.id()))).count();
                assertTrue(rows > 0, language + " " + split);
                assertEquals(rows, summary.windows(language, split), "summary counts what was written");
            }
        }
        // The gzipped German file was read and normalised (ö → o).
        assertTrue(sentences.filter(col("language").equalTo("de").and(col("sentence").contains("mogen"))).count() > 0);
        assertFilesMatchSchemas(out);
    }

    @Test
    void aCorruptedCorpusCompletesWithEveryBadRecordQuarantinedAndCounted() throws IOException {
        Path corpus = temp.resolve("corpus.tsv");
        List<String> good = TestCorpora.sentences("en", 20, 5);
        TestCorpora.writeBytes(corpus,
                TestCorpora.utf8("1\teng\t" + good.get(0) + "\n"),
                TestCorpora.utf8("2\tdeu\tDas ist ein ganz normaler deutscher Satz.\n"),
                TestCorpora.utf8("3\ten\n"),                                         // malformed_record: two fields
                TestCorpora.utf8("4 en no tabs at all in this line of text\n"),     // malformed_record: one field
                TestCorpora.utf8("5\ten\tbroken \u00e9 "), new byte[] {(byte) 0xC3, (byte) 0x28, (byte) 0xFF},
                TestCorpora.utf8(" bytes in an otherwise long sentence\n"),          // invalid_utf8
                TestCorpora.utf8("6\t\\N\tA sentence with no language at all here.\n"),  // missing_language (Tatoeba's \N)
                TestCorpora.utf8("7\t\tAnother sentence with an empty language.\n"),     // missing_language
                TestCorpora.utf8("8\txx\tA sentence with a made-up language code.\n"),   // invalid_language
                TestCorpora.utf8("9\tenglish\tA sentence with a language name.\n"),      // invalid_language
                TestCorpora.utf8("10\ten\t\n"),                                          // empty_sentence
                TestCorpora.utf8("11\ten\tПривет, как дела у тебя сегодня?\n"),          // non-Latin: only ", ?" left: too_short
                TestCorpora.utf8("12\ten\t     \n"),                                     // empty_sentence
                TestCorpora.utf8("13\ten\tShort one.\n"),                                // too_short
                TestCorpora.utf8("14\ten\t" + "very long ".repeat(100) + "\n"),          // too_long (limit 500)
                TestCorpora.utf8("15\tit\tUna frase italiana abbastanza lunga.\n"),      // not selected
                TestCorpora.utf8("16\teng\t" + good.get(0) + "\n"),                      // duplicate of 1
                TestCorpora.utf8("17\ten\t" + good.get(0).replace(" ", "  ") + "\n"),   // duplicate after normalisation
                TestCorpora.utf8("18\ten\t" + good.get(1) + "\n"));
        Path json = temp.resolve("json/corpus.json");
        TestCorpora.writeLines(json, List.of(
                "{\"en\": [\"" + good.get(2) + "\", 42, null, {\"x\": 1}, [\"nested\"], \"" + good.get(3) + "\"],",
                " \"fr\": \"Une phrase seule au lieu d'une liste.\",",
                " \"de\": [\"Noch ein ganz normaler deutscher Satz.\", \"unterminated string here",
                "]}"));
        PrepareConfig config = config();
        config.languages = List.of("en", "de");
        config.maxSentenceChars = 500;

        PrepareSummary tsv = run(config, temp.resolve("tsv-out").toString(), corpus);
        Map<String, Long> expected = new HashMap<>();
        expected.put("malformed_record", 2L);
        expected.put("invalid_utf8", 1L);
        expected.put("missing_language", 2L);
        expected.put("invalid_language", 2L);
        expected.put("empty_sentence", 2L);
        expected.put("too_short", 2L);
        expected.put("too_long", 1L);
        assertQuarantine(tsv, temp.resolve("tsv-out").toString(), expected);
        JsonNode records = tsv.json().path("records");
        assertEquals(18, records.path("read").asLong(), "18 lines");
        assertEquals(1, records.path("not_selected").asLong());
        assertEquals(2, records.path("duplicates").asLong());
        assertEquals(3, records.path("sentences").asLong(), "en x2 + de x1 (Tatoeba's eng/deu are en/de)");

        PrepareSummary fromJson = run(config, temp.resolve("json-out").toString(), json.getParent());
        Map<String, Long> expectedJson = new HashMap<>();
        expectedJson.put("malformed_record", 5L);   // 42, null, {..}, [..], "fr": "..."
        expectedJson.put("malformed_json", 1L);     // the unterminated string ends the file
        assertQuarantine(fromJson, temp.resolve("json-out").toString(), expectedJson);
        assertEquals(3, fromJson.json().path("records").path("sentences").asLong());
        assertFilesMatchSchemas(temp.resolve("json-out").toString());
    }

    @Test
    void filesNamedAfterNoLanguageAreQuarantinedAndOtherFilesReportedAsIgnored() throws IOException {
        Path corpus = temp.resolve("corpus");
        TestCorpora.writeLines(corpus.resolve("en.txt"), TestCorpora.sentences("en", 10, 1));
        TestCorpora.writeLines(corpus.resolve("english.txt"), TestCorpora.sentences("en", 4, 9));
        TestCorpora.writeLines(corpus.resolve("LICENSE.md"), List.of("not a corpus file"));
        PrepareSummary summary = run(config(), temp.resolve("out").toString(), corpus);
        assertEquals(4, summary.quarantined(QuarantineReason.INVALID_LANGUAGE));
        assertEquals(1, summary.json().path("inputs").path("ignored_files").size());
        assertTrue(summary.json().path("inputs").path("ignored_files").get(0).asText().endsWith("LICENSE.md"));
    }

    @Test
    void sameInputAndConfigGiveTheSameRowsInTheSameOrder() throws IOException {
        Path corpus = temp.resolve("corpus");
        TestCorpora.writeLines(corpus.resolve("en.txt"), TestCorpora.sentences("en", 200, 11));
        TestCorpora.writeLines(corpus.resolve("fr.txt"), TestCorpora.sentences("fr", 200, 12));
        PrepareConfig config = config();
        config.maxWindowsPerLanguage = 500;
        PrepareSummary first = run(config, temp.resolve("a").toString(), corpus);
        PrepareSummary second = run(config, temp.resolve("b").toString(), corpus);
        assertEquals(first.json(), second.json());
        for (String table : List.of("windows", "sentences")) {
            assertEquals(rowsByFile(temp.resolve("a").resolve(table)), rowsByFile(temp.resolve("b").resolve(table)), table);
        }
    }

    @Test
    void capAndBalanceLimitWindowsPerLanguageAndSplit() throws IOException {
        Path corpus = temp.resolve("corpus");
        TestCorpora.writeLines(corpus.resolve("en.txt"), TestCorpora.sentences("en", 300, 21));
        TestCorpora.writeLines(corpus.resolve("fr.txt"), TestCorpora.sentences("fr", 100, 22));
        PrepareConfig capped = config();
        capped.maxWindowsPerLanguage = 400;
        PrepareSummary cap = run(capped, temp.resolve("cap").toString(), corpus);
        for (String language : List.of("en", "fr")) {
            for (Split split : Split.values()) {
                long before = cap.json().path("languages").path(language).path("windows_before_cap").path(split.id()).asLong();
                assertEquals(Math.min(400, before), cap.windows(language, split), language + " " + split);
            }
        }
        PrepareConfig balanced = config();
        balanced.balance = true;
        PrepareSummary balance = run(balanced, temp.resolve("balance").toString(), corpus);
        for (Split split : Split.values()) {
            assertEquals(balance.windows("fr", split), balance.windows("en", split), split.id());
            assertTrue(balance.windows("en", split) < balance.json().path("languages").path("en").path("windows_before_cap").path(split.id()).asLong());
        }
    }

    @Test
    void otherLanguagesArePreparedAsUndAndTheRestAreNotSelected() throws IOException {
        Path corpus = temp.resolve("corpus");
        TestCorpora.writeLines(corpus.resolve("en.txt"), TestCorpora.sentences("en", 100, 41));
        TestCorpora.writeLines(corpus.resolve("de.txt"), TestCorpora.sentences("de", 60, 42));
        TestCorpora.writeLines(corpus.resolve("fr.txt"), TestCorpora.sentences("fr", 70, 43));
        PrepareConfig config = config();
        config.languages = List.of("en");
        config.otherLanguages = List.of("fra");   // canonical form: fr
        String out = temp.resolve("und").toString();
        PrepareSummary summary = run(config, out, corpus);

        Dataset<Row> sentences = spark.read().parquet(out + "/sentences");
        assertEquals(Map.of("en", 100L, "und", 70L), sentences.groupBy("language").count().collectAsList().stream()
                .collect(java.util.stream.Collectors.toMap(r -> r.getString(0), r -> r.getLong(1))));
        assertEquals(new java.util.HashSet<>(TestCorpora.sentences("fr", 70, 43).stream().map(org.langid.text.Alphabet.SEED::normalize).toList()),
                new java.util.HashSet<>(sentences.filter(col("language").equalTo("und")).select("sentence").as(org.apache.spark.sql.Encoders.STRING())
                        .collectAsList()), "und holds the other language's sentences");
        assertEquals(60, summary.json().path("records").path("not_selected").asLong(), "de is neither a language nor another one");
        for (Split split : Split.values()) {
            assertTrue(summary.windows("und", split) > 0, split.id());
        }

        PrepareConfig both = config();
        both.languages = List.of("en", "fr");
        both.otherLanguages = List.of("fra", "xx");
        assertEquals(List.of("other_languages: 'fra' is also in languages", "other_languages: 'xx' is not an ISO 639-1 language code"),
                both.problems().stream().filter(p -> p.startsWith("other_languages")).toList());
        PrepareConfig all = config();
        all.otherLanguages = List.of("fr");
        assertTrue(all.problems().contains("other_languages needs languages: with every language kept there is no other language"));
    }

    @Test
    void readsTheSeedJsonFormat() throws IOException {
        ObjectMapper json = new ObjectMapper();
        Map<String, List<String>> seed = Map.of("en", TestCorpora.sentences("en", 50, 31), "fr", TestCorpora.sentences("fr", 50, 32));
        Path file = temp.resolve("sentences.json");
        Files.writeString(file, json.writeValueAsString(seed));
        PrepareSummary summary = run(config(), temp.resolve("out").toString(), file);
        assertEquals(100, summary.json().path("records").path("sentences").asLong());
        assertEquals(0, summary.json().path("records").path("quarantined").asLong());
        String expectedFirst = TextNormalizer.normalize(seed.get("fr").get(0));
        assertTrue(spark.read().parquet(temp.resolve("out/sentences").toString()).filter(col("sentence").equalTo(expectedFirst)).count() == 1);
    }

    @Test
    void aMissingInputOrAnExistingOutputIsAClearError() throws IOException {
        PrepareException missing = assertThrows(PrepareException.class,
                () -> run(config(), temp.resolve("out").toString(), temp.resolve("nope")));
        assertTrue(missing.getMessage().matches("corpus input .*nope does not exist"), missing.getMessage());
        Files.createDirectories(temp.resolve("exists"));
        TestCorpora.writeLines(temp.resolve("c/en.txt"), TestCorpora.sentences("en", 3, 1));
        PrepareException exists = assertThrows(PrepareException.class,
                () -> run(config(), temp.resolve("exists").toString(), temp.resolve("c")));
        assertTrue(exists.getMessage().endsWith("already exists; pass --overwrite to replace it"), exists.getMessage());
    }

    private void assertQuarantine(PrepareSummary summary, String out, Map<String, Long> expected) throws IOException {
        for (QuarantineReason reason : QuarantineReason.values()) {
            assertEquals(expected.getOrDefault(reason.id(), 0L).longValue(), summary.quarantined(reason), reason.id());
        }
        long total = expected.values().stream().mapToLong(Long::longValue).sum();
        JsonNode records = summary.json().path("records");
        assertEquals(total, records.path("quarantined").asLong());
        assertEquals(records.path("read").asLong(), records.path("quarantined").asLong() + records.path("not_selected").asLong()
                + records.path("duplicates").asLong() + records.path("sentences").asLong(), "every record is accounted for");
        // The quarantine files hold each record, with its reason, and validate against their schema.
        ObjectMapper json = new ObjectMapper();
        Map<String, Long> written = new HashMap<>();
        try (Stream<Path> files = Files.list(Path.of(out, "quarantine"))) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".json")).toList()) {
                for (String line : Files.readAllLines(file)) {
                    JsonNode record = json.readTree(line);
                    assertEquals(List.of(), JsonSchemas.problems("quarantine-record.schema.json", record), line);
                    written.merge(record.path("reason").asText(), 1L, Long::sum);
                }
            }
        }
        assertEquals(expected, written);
    }

    private void assertFilesMatchSchemas(String out) throws IOException {
        JsonNode summary = new ObjectMapper().readTree(Path.of(out, "summary.json").toFile());
        assertEquals(List.of(), JsonSchemas.problems(PrepareSummary.SCHEMA_FILE, summary));
        for (String table : List.of("windows", "sentences")) {
            MessageType expected = MessageTypeParser.parseMessageType(JsonSchemas.resourceText(table + ".parquet.txt"));
            List<Path> parts = parquetFiles(Path.of(out, table));
            assertFalse(parts.isEmpty());
            for (Path part : parts) {
                try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(
                        new org.apache.hadoop.fs.Path(part.toUri()), new Configuration()))) {
                    assertEquals(expected, reader.getFooter().getFileMetaData().getSchema(), part.toString());
                }
            }
        }
    }

    private static List<Path> parquetFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".parquet")).sorted().toList();
        }
    }

    /** Each Parquet file's rows in file order, keyed by split and part number (file names carry a random job id). */
    private Map<String, List<String>> rowsByFile(Path dir) throws IOException {
        Map<String, List<String>> rows = new HashMap<>();
        for (Path part : parquetFiles(dir)) {
            String key = part.getParent().getFileName() + "/" + part.getFileName().toString().substring(0, 10);
            List<String> content = new ArrayList<>();
            spark.read().parquet(part.toString()).collectAsList().forEach(r -> content.add(r.toString()));
            rows.put(key, content);
        }
        Set<String> keys = new HashSet<>(rows.keySet());
        assertFalse(keys.isEmpty());
        return rows;
    }
}
