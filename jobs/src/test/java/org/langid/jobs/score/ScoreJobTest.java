package org.langid.jobs.score;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.MessageTypeParser;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.langid.jobs.SparkTestSession;
import org.langid.jobs.cli.LangidCommand;
import org.langid.model.schema.JsonSchemas;

/**
 * {@code langid score} with the released model on Spark local[2], on real files: sentences of
 * the committed sample corpus mixed with seeded bad rows (null, empty, blank, Chinese only,
 * bytes that are not UTF-8, a malformed JSON line) in every input format. Every input row comes
 * out once with its columns, the summary's counts add up to the rows read, and clear sentences
 * get their language.
 */
class ScoreJobTest {

    /** The eight-language seed model (models/versions), whose eight languages this test's sample holds. */
    private static final Path RELEASE = Path.of("..", "models", "versions", "20261128T222203Z-b9cd9045");
    private static final Path SAMPLE = Path.of("..", "data", "sample", "libreoffice");
    private static final List<String> LANGUAGES = List.of("en", "de", "fr", "es", "it", "pt", "nl", "sv");
    private static final byte[] NOT_UTF8 = {'c', 'a', 'f', (byte) 0xC3, ' ', 'a', 'u', ' ', 'l', 'a', 'i', 't', ' ', (byte) 0xFF};
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Per language, clear sentences of the sample (long enough to leave no doubt): the expected language of each. */
    private static Map<String, String> sentences;

    @TempDir
    Path temp;

    @BeforeAll
    static void pickSentences() throws IOException {
        sentences = new LinkedHashMap<>();
        for (String language : LANGUAGES) {
            try (Stream<String> lines = Files.lines(SAMPLE.resolve(language + ".txt"))) {
                lines.filter(line -> line.length() >= 60 && line.length() <= 200 && !line.contains(",") && !line.contains("\""))
                        .limit(12).forEach(line -> sentences.put(line, language));
            }
        }
    }

    /** Stride 8: as accurate as stride 1 on sentences (stack-facts) and 8 times cheaper, so the test stays quick. */
    private static LanguageDetectorTransformer transformer() {
        return new LanguageDetectorTransformer().setModelPath(RELEASE.toString()).setStride(8).setTopK(3);
    }

    private ScoreSummary score(Path input, InputFormat format, String column, String output, LanguageDetectorTransformer transformer) {
        return ScoreJob.run(SparkTestSession.get(), transformer,
                new ScoreJob.Request(input.toString(), format, column, output, "", false));
    }

    @Test
    void aSubsetOfLanguagesIsAnsweredFromAndALanguageTheModelLacksFailsBeforeAnyTask() throws IOException {
        List<String> lines = new ArrayList<>(sentences.keySet());
        Path input = Files.write(Files.createDirectories(temp.resolve("in")).resolve("sentences.txt"), lines, StandardCharsets.UTF_8);
        String output = temp.resolve("out").toString();
        ScoreSummary summary = score(input, null, ScoreJob.TEXT_COLUMN, output, transformer().setLanguages("pt", "es"));
        assertEquals(lines.size(), summary.scored());
        for (Row row : SparkTestSession.get().read().parquet(output + "/rows").collectAsList()) {
            String expected = sentences.get(row.<String>getAs("text"));
            String language = row.getAs("language");
            assertTrue(List.of("es", "pt").contains(language), row.toString());
            if (expected.equals("es") || expected.equals("pt")) {
                assertEquals(expected, language, row.toString());
            }
            assertEquals(2, row.getList(row.fieldIndex("top_languages")).size(), "only the subset's languages: " + row);
        }
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> score(input, null, ScoreJob.TEXT_COLUMN,
                temp.resolve("out2").toString(), transformer().setLanguages("pt", "xx")));
        assertTrue(unknown.getMessage().contains("'xx' is not one of the model's languages"), unknown.getMessage());
    }

    @Test
    void plainTextFromTheSampleKeepsEveryLineAndGetsTheRightLanguages() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        List<String> lines = new ArrayList<>(sentences.keySet());
        lines.add(5, "");
        lines.add(20, "   \t ");
        lines.add(40, "你好");
        for (String line : lines) {
            bytes.writeBytes((line + "\n").getBytes(StandardCharsets.UTF_8));
            if (line.equals("你好")) {
                bytes.writeBytes(NOT_UTF8);
                bytes.write('\n');
            }
        }
        Path input = Files.write(Files.createDirectories(temp.resolve("in")).resolve("mixed.txt"), bytes.toByteArray());
        long inputLines = bytes.toString(StandardCharsets.ISO_8859_1).chars().filter(c -> c == '\n').count();
        String output = temp.resolve("out").toString();

        // Batches of 7 rows: rejected rows fall inside batches and across their edges.
        ScoreSummary summary = score(input, null, ScoreJob.TEXT_COLUMN, output, transformer().setRowsPerBatch(7));

        assertEquals(inputLines, summary.read());
        assertEquals(sentences.size(), summary.scored());
        assertEquals(4, summary.rejected());
        assertEquals(2, summary.rejected(RejectionReason.EMPTY));
        assertEquals(1, summary.rejected(RejectionReason.NO_KNOWN_CHARACTERS));
        assertEquals(1, summary.rejected(RejectionReason.UNDECODABLE));
        assertCountsAddUp(summary);
        assertEquals("text", summary.json().at("/input/format").asText(), "told from the .txt extension");

        List<Row> rows = SparkTestSession.get().read().parquet(output + "/rows").collectAsList();
        assertEquals(inputLines, rows.size(), "output rows = input rows");
        Map<String, String> wrong = new LinkedHashMap<>();
        List<String> texts = new ArrayList<>();
        for (Row row : rows) {
            String text = row.getAs("text");
            texts.add(text);
            assertTrue(row.<String>getAs("file").endsWith("/in/mixed.txt"), row.toString());
            String expected = sentences.get(text);
            if (expected == null) {
                assertRejected(row, text.isBlank() ? RejectionReason.EMPTY
                        : text.equals("你好") ? RejectionReason.NO_KNOWN_CHARACTERS : RejectionReason.UNDECODABLE);
                continue;
            }
            assertScored(row);
            if (!expected.equals(row.getAs("language"))) {
                wrong.put(text, expected + " read as " + row.getAs("language"));
            }
        }
        assertEquals(Map.of(), wrong, "clear sentences of the sample detected wrongly");
        List<String> expectedTexts = new ArrayList<>(lines);
        expectedTexts.add(expectedTexts.indexOf("你好") + 1, new String(NOT_UTF8, StandardCharsets.UTF_8));
        assertEquals(sorted(expectedTexts), sorted(texts), "the text column survives, the undecodable line with U+FFFD for its bad bytes");
        for (String language : LANGUAGES) {
            assertEquals(sentences.values().stream().filter(language::equals).count(), summary.languages().get(language), language);
        }
        assertFilesMatchSchemas(output);
    }

    @Test
    void everyFormatKeepsItsRowsAndColumnsAndCountsItsBadRows() throws IOException {
        List<String[]> good = new ArrayList<>();
        int id = 0;
        for (Map.Entry<String, String> sentence : sentences.entrySet()) {
            if (id++ % 6 == 0) {   // two a language: enough to check, quick to score
                good.add(new String[] {String.valueOf(id), sentence.getValue(), sentence.getKey()});
            }
        }
        Path dir = Files.createDirectories(temp.resolve("formats"));

        // CSV and TSV: an empty field is null to Spark's reader; blank and Chinese are text; a field with bytes that are not UTF-8.
        for (String separator : List.of(",", "\t")) {
            ByteArrayOutputStream csv = new ByteArrayOutputStream();
            csv.writeBytes(("id" + separator + "label" + separator + "body\n").getBytes(StandardCharsets.UTF_8));
            for (String[] row : good) {
                csv.writeBytes(String.join(separator, row[0], row[1], row[2]).concat("\n").getBytes(StandardCharsets.UTF_8));
            }
            csv.writeBytes(String.join(separator, "101", "none", "").concat("\n").getBytes(StandardCharsets.UTF_8));
            csv.writeBytes(String.join(separator, "102", "none", "  ").concat("\n").getBytes(StandardCharsets.UTF_8));
            csv.writeBytes(String.join(separator, "103", "none", "你好").concat("\n").getBytes(StandardCharsets.UTF_8));
            csv.writeBytes(String.join(separator, "104", "none", "").getBytes(StandardCharsets.UTF_8));
            csv.writeBytes(NOT_UTF8);
            csv.write('\n');
            String extension = separator.equals(",") ? "csv" : "tsv";
            Path file = Files.write(dir.resolve("texts." + extension), csv.toByteArray());
            ScoreSummary summary = score(file, null, "body", temp.resolve("out-" + extension).toString(), transformer());
            assertEquals(extension, summary.json().at("/input/format").asText());
            assertFormat(summary, temp.resolve("out-" + extension), good.size() + 4,
                    Map.of(RejectionReason.NULL, 1L, RejectionReason.EMPTY, 1L, RejectionReason.NO_KNOWN_CHARACTERS, 1L,
                            RejectionReason.UNDECODABLE, 1L));
        }

        // JSON lines: null, missing, empty, Chinese, and two lines Spark's JSON reader cannot parse (so it keeps them in
        // _corrupt_record): one with bytes that are not UTF-8, one that is not JSON at all.
        ByteArrayOutputStream json = new ByteArrayOutputStream();
        for (String[] row : good) {
            json.writeBytes((JSON.writeValueAsString(Map.of("id", Long.parseLong(row[0]), "label", row[1], "body", row[2])) + "\n")
                    .getBytes(StandardCharsets.UTF_8));
        }
        json.writeBytes("{\"id\": 101, \"label\": \"none\", \"body\": null}\n{\"id\": 102, \"label\": \"none\"}\n".getBytes(StandardCharsets.UTF_8));
        json.writeBytes("{\"id\": 103, \"label\": \"none\", \"body\": \"\"}\n{\"id\": 104, \"label\": \"none\", \"body\": \"你好\"}\n"
                .getBytes(StandardCharsets.UTF_8));
        json.writeBytes("{\"id\": 105, \"label\": \"none\", \"body\": \"".getBytes(StandardCharsets.UTF_8));
        json.writeBytes(NOT_UTF8);
        json.writeBytes("\"}\n{\"id\": 106, \"label\": \"none\", \"body\": \"unterminated\n".getBytes(StandardCharsets.UTF_8));
        Path jsonFile = Files.write(dir.resolve("texts.jsonl"), json.toByteArray());
        ScoreSummary jsonSummary = score(jsonFile, null, "body", temp.resolve("out-json").toString(), transformer());
        assertEquals("json", jsonSummary.json().at("/input/format").asText());
        assertFormat(jsonSummary, temp.resolve("out-json"), good.size() + 6,
                Map.of(RejectionReason.NULL, 2L, RejectionReason.EMPTY, 1L, RejectionReason.NO_KNOWN_CHARACTERS, 1L,
                        RejectionReason.MALFORMED_RECORD, 2L));
        List<Row> malformed = SparkTestSession.get().read().parquet(temp.resolve("out-json/rows").toString())
                .filter("reason = 'malformed_record'").collectAsList();
        assertTrue(malformed.stream().allMatch(row -> row.getAs(ScoreJob.CORRUPT_RECORD) != null), "the raw line is kept: " + malformed);

        // Parquet: a directory written by Spark, with a null, an empty string and a U+FFFD (text that lost characters upstream).
        List<Row> parquetRows = new ArrayList<>();
        for (String[] row : good) {
            parquetRows.add(RowFactory.create(Long.parseLong(row[0]), row[1], row[2]));
        }
        parquetRows.add(RowFactory.create(101L, "none", null));
        parquetRows.add(RowFactory.create(102L, "none", ""));
        parquetRows.add(RowFactory.create(103L, "none", "Привет"));
        parquetRows.add(RowFactory.create(104L, "none", "caf\uFFFD au lait"));
        StructType schema = new StructType().add("id", DataTypes.LongType).add("label", DataTypes.StringType).add("body", DataTypes.StringType);
        String parquetDir = dir.resolve("parquet").toString();
        SparkTestSession.get().createDataFrame(parquetRows, schema).repartition(3).write().parquet(parquetDir);
        ScoreSummary parquetSummary = score(Path.of(parquetDir), null, "body", temp.resolve("out-parquet").toString(), transformer());
        assertEquals("parquet", parquetSummary.json().at("/input/format").asText());
        assertFormat(parquetSummary, temp.resolve("out-parquet"), good.size() + 4,
                Map.of(RejectionReason.NULL, 1L, RejectionReason.EMPTY, 1L, RejectionReason.NO_KNOWN_CHARACTERS, 1L,
                        RejectionReason.UNDECODABLE, 1L));
    }

    /** The input's id and label columns come through beside the results; each sentence row's label is its language. */
    private void assertFormat(ScoreSummary summary, Path output, long inputRows, Map<RejectionReason, Long> rejected) throws IOException {
        assertEquals(inputRows, summary.read(), summary.json().toString());
        assertCountsAddUp(summary);
        for (RejectionReason reason : RejectionReason.values()) {
            assertEquals(rejected.getOrDefault(reason, 0L), summary.rejected(reason), reason.id() + " in " + summary.json());
        }
        List<Row> rows = SparkTestSession.get().read().parquet(output.resolve("rows").toString()).collectAsList();
        assertEquals(inputRows, rows.size(), "output rows = input rows");
        Map<String, Long> ids = new HashMap<>();
        for (Row row : rows) {
            Object id = row.getAs("id");
            if (id != null) {
                ids.merge(id.toString(), 1L, Long::sum);
            }
            if ("none".equals(row.getAs("label"))) {
                assertNotNull(row.getAs("reason"), row.toString());
                assertNull(row.getAs("language"), row.toString());
            } else if (id != null) {
                assertScored(row);
                assertEquals(row.<String>getAs("label"), row.getAs("language"), row.toString());
            }
        }
        assertTrue(ids.values().stream().allMatch(n -> n == 1), "every id once: " + ids);
        assertTrue(JsonSchemas.problems(ScoreSummary.SCHEMA_FILE, JSON.readTree(output.resolve("summary.json").toFile())).isEmpty());
    }

    /** Found before any work, and before the model loads; the command line prints these messages as one line (below). */
    @Test
    void aMissingColumnAColumnClashOrAnUnknownFormatIsRefusedNamingWhatIsThere() throws IOException {
        Path csv = Files.writeString(temp.resolve("labelled.csv"), "id,language,body\n1,en,Hello there my friend\n");

        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> score(csv, null, "text", temp.resolve("out1").toString(), transformer()));
        assertEquals("no column 'text' to detect the language of; the columns are: id, language, body", missing.getMessage());
        assertFalse(Files.exists(temp.resolve("out1")), "nothing written");

        IllegalArgumentException clash = assertThrows(IllegalArgumentException.class,
                () -> score(csv, null, "body", temp.resolve("out2").toString(), transformer()));
        assertTrue(clash.getMessage().startsWith("the input already has a column 'language'; give --prefix"), clash.getMessage());

        Path unknown = Files.writeString(temp.resolve("texts.dat"), "x\n");
        IllegalArgumentException format = assertThrows(IllegalArgumentException.class,
                () -> score(unknown, null, "text", temp.resolve("out3").toString(), transformer()));
        assertEquals("cannot tell the format of " + unknown + " from its file names (extensions: dat); give --format parquet, csv, tsv, "
                + "json or text", format.getMessage());
    }

    /**
     * A directory of partitions as Spark writes them (prepare's windows/split=train/…) is told by the files inside its
     * partitions, and every row of every partition is scored: Parquet keeps the partition column, text reads every file.
     */
    @Test
    void partitionedDirectoriesAreReadWhole() throws IOException {
        List<Row> rows = new ArrayList<>();
        int id = 0;
        for (Map.Entry<String, String> sentence : sentences.entrySet()) {
            rows.add(RowFactory.create((long) id, sentence.getKey(), id++ % 3 == 0 ? "test" : "train"));
        }
        StructType schema = new StructType().add("id", DataTypes.LongType).add("body", DataTypes.StringType).add("split", DataTypes.StringType);
        String parquet = temp.resolve("windows").toString();
        SparkTestSession.get().createDataFrame(rows, schema).write().partitionBy("split").parquet(parquet);
        assertFalse(Files.list(Path.of(parquet)).anyMatch(file -> file.getFileName().toString().endsWith(".parquet")),
                "only partition directories at the top");

        ScoreSummary summary = score(Path.of(parquet), null, "body", temp.resolve("out-parquet").toString(), transformer());
        assertEquals("parquet", summary.json().at("/input/format").asText());
        assertEquals(rows.size(), summary.read());
        assertEquals(rows.size(), summary.scored());
        List<Row> scored = SparkTestSession.get().read().parquet(temp.resolve("out-parquet/rows").toString()).collectAsList();
        assertEquals(rows.size() / 3 + (rows.size() % 3 == 0 ? 0 : 1), scored.stream().filter(row -> "test".equals(row.getAs("split"))).count(),
                "the partition column comes through");

        Path text = Files.createDirectories(temp.resolve("text/lang=en"));
        Files.writeString(text.resolve("a.txt"), "The quick brown fox jumps over the lazy dog.\nA second line of plain English text.\n");
        Files.writeString(Files.createDirectories(temp.resolve("text/lang=de")).resolve("b.txt"), "Das ist ein ganz normaler deutscher Satz.\n");
        ScoreSummary textSummary = score(temp.resolve("text"), null, ScoreJob.TEXT_COLUMN, temp.resolve("out-text").toString(), transformer());
        assertEquals("text", textSummary.json().at("/input/format").asText());
        assertEquals(3, textSummary.read());
        assertEquals(Map.of("en", 2L, "de", 1L), Map.of("en", textSummary.languages().get("en"), "de", textSummary.languages().get("de")));
    }

    @Test
    void theCommandLineWritesTheSummaryAndPrintsIt() throws IOException {
        Path input = Files.writeString(temp.resolve("two.txt"), "Das ist ein ganz normaler deutscher Satz über das Wetter.\n\n");
        java.io.PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new java.io.PrintStream(captured, true, StandardCharsets.UTF_8));
        Result result;
        try {
            result = run(new String[] {"score", "--master", "local[2]", "--model", RELEASE.toString(), "--stride", "8",
                    "-i", input.toString()}, "-o", temp.resolve("out").toString(), "--top-k", "2");
        } finally {
            System.setOut(original);
        }
        assertEquals(0, result.exitCode(), result.err());
        String printed = captured.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("rows read 2: 1 scored, 1 rejected"), printed);
        assertTrue(printed.contains("rejected by reason: empty 1"), printed);
        assertTrue(printed.contains("rows/s: "), printed);
        JsonNode summary = JSON.readTree(temp.resolve("out/summary.json").toFile());
        assertEquals(1, summary.at("/languages/de").asLong(), summary.toString());
        Row scored = SparkTestSession.get().read().parquet(temp.resolve("out/rows").toString()).filter("language is not null").first();
        assertEquals(2, scored.getList(scored.fieldIndex("top_languages")).size(), "--top-k 2");

        Result again = run(new String[] {"score", "--model", RELEASE.toString(), "-i", input.toString()}, "-o", temp.resolve("out").toString(),
                "--column", "body");
        assertOneLineError(again, "plain text input has one column, 'text' (one row a line); drop --column body");
        Result exists = run(new String[] {"score", "--model", RELEASE.toString(), "-i", input.toString()}, "-o", temp.resolve("out").toString());
        assertOneLineError(exists, "output " + temp.resolve("out") + " already exists; pass --overwrite to replace it");
    }

    private static void assertCountsAddUp(ScoreSummary summary) {
        assertEquals(summary.read(), summary.scored() + summary.rejected());
        long byReason = 0;
        for (RejectionReason reason : RejectionReason.values()) {
            byReason += summary.rejected(reason);
        }
        assertEquals(summary.rejected(), byReason);
        assertEquals(summary.scored(), summary.languages().values().stream().mapToLong(Long::longValue).sum());
        assertEquals(LANGUAGES, new ArrayList<>(summary.languages().keySet()));
    }

    /** language, probability and top_languages agree: the first of the top languages is the language, most probable first. */
    static void assertScored(Row row) {
        assertNull(row.getAs("reason"), row.toString());
        String language = row.getAs("language");
        double probability = row.getAs("probability");
        List<Row> top = row.getList(row.fieldIndex("top_languages"));
        assertEquals(3, top.size(), row.toString());
        assertEquals(language, top.get(0).getString(0));
        assertEquals(probability, top.get(0).getDouble(1), 1e-12);
        for (int i = 1; i < top.size(); i++) {
            assertTrue(top.get(i).getDouble(1) <= top.get(i - 1).getDouble(1), row.toString());
        }
        assertTrue(probability > 0 && probability <= 1, row.toString());
    }

    private static void assertRejected(Row row, RejectionReason reason) {
        assertEquals(reason.id(), row.getAs("reason"), row.toString());
        assertNull(row.getAs("language"));
        assertNull(row.getAs("probability"));
        assertNull(row.getAs("top_languages"));
    }

    private static void assertNotNull(Object value, String message) {
        assertFalse(value == null, message);
    }

    private static void assertFilesMatchSchemas(String output) throws IOException {
        JsonNode summary = JSON.readTree(Path.of(output, "summary.json").toFile());
        assertEquals(List.of(), JsonSchemas.problems(ScoreSummary.SCHEMA_FILE, summary));
        var expected = MessageTypeParser.parseMessageType(JsonSchemas.resourceText("score-rows.parquet.txt"));
        List<Path> parts;
        try (Stream<Path> files = Files.list(Path.of(output, "rows"))) {
            parts = files.filter(f -> f.getFileName().toString().endsWith(".parquet")).toList();
        }
        assertFalse(parts.isEmpty());
        for (Path part : parts) {
            try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(
                    new org.apache.hadoop.fs.Path(part.toUri()), new Configuration()))) {
                assertEquals(expected, reader.getFooter().getFileMetaData().getSchema(), part.toString());
            }
        }
    }

    private static List<String> sorted(List<String> values) {
        List<String> copy = new ArrayList<>(values);
        copy.sort(null);
        return copy;
    }

    private record Result(int exitCode, String err) {
    }

    private static Result run(String[] common, String... more) {
        String[] args = Stream.concat(Stream.of(common), Stream.of(more)).toArray(String[]::new);
        StringWriter err = new StringWriter();
        int code = LangidCommand.execute(new PrintWriter(err, true), args);
        SparkSession.clearActiveSession();
        return new Result(code, err.toString());
    }

    private static void assertOneLineError(Result result, String fragment) {
        assertEquals(1, result.exitCode(), result.err());
        String[] lines = result.err().strip().split("\n");
        assertEquals(1, lines.length, "one line, no stack trace: " + result.err());
        assertTrue(lines[0].startsWith("langid score: error: "), lines[0]);
        assertTrue(lines[0].contains(fragment), lines[0]);
    }
}
