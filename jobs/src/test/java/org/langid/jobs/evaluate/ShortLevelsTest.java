package org.langid.jobs.evaluate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.langid.jobs.LangidRuns;
import org.langid.jobs.SparkTestSession;
import org.langid.jobs.prepare.PrepareConfig;
import org.langid.jobs.prepare.PrepareJob;
import org.langid.model.schema.JsonSchemas;
import org.langid.text.Alphabet;

/**
 * The word-pair and single-word levels of {@code langid evaluate}: the released model and Lingua
 * 1.2.2 on all of the sample's UDHR, each sentence giving a pair and a word as people type them;
 * every level in report.json with per-language results, the calibration error of the model, the
 * console summary and the page.
 */
class ShortLevelsTest {

    /** The eight-language seed model (models/versions), whose eight languages this test's sample holds. */
    private static final Path RELEASE = Path.of("..", "models", "versions", "20261128T222203Z-b9cd9045");
    private static final Path UDHR = Path.of("..", "data", "sample", "udhr");
    private static final List<String> LANGUAGES = List.of("en", "de", "fr", "es", "it", "pt", "nl", "sv");
    private static final List<String> LEVELS = List.of("windows", "sentences", "word_pairs", "single_words");
    private static final String LINGUA = LinguaCandidate.NAME;
    /** A word as a reader sees one: letters, an apostrophe or hyphen between letters. */
    private static final Pattern WORD = Pattern.compile("\\p{L}+(?:['-]\\p{L}+)*");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path temp;
    private static String sentencesPath;
    private static JsonNode report;
    private static String printed;
    private static String html;

    @BeforeAll
    static void evaluateTheReleaseOnUdhr() throws IOException {
        String prepared = temp.resolve("prepared").toString();
        new PrepareJob(SparkTestSession.get(), new PrepareConfig()).run(List.of(UDHR.toString()), prepared, false);
        sentencesPath = prepared + "/sentences";
        Path output = temp.resolve("report");
        printed = LangidRuns.output("evaluate", "--master", "local[2]", "--model", RELEASE.toString(), "--windows", prepared + "/windows",
                "--sentences", sentencesPath, "--lingua", "--max-windows", "2000", "--threads", "2", "-o", output.toString());
        report = JSON.readTree(output.resolve("report.json").toFile());
        html = Files.readString(output.resolve("report.html"));
        System.out.println(printed);
    }

    @Test
    void shortItemsAreLowerCaseWordsOfTheirSentenceAndTheSameOnEveryCut() {
        List<Row> rows = SparkTestSession.get().read().parquet(sentencesPath).select("language", "sentence").collectAsList();
        assertEquals(557, rows.size(), "all of UDHR");
        Set<String> allPairs = new HashSet<>();
        Set<String> allWords = new HashSet<>();
        int pairs = 0;
        int words = 0;
        for (Row row : rows) {
            String sentence = row.getString(1);
            ShortItems.Cut cut = ShortItems.cut(sentence, ShortItems.SEED, Alphabet.SEED::readsMostLetters);
            assertEquals(cut, ShortItems.cut(sentence, ShortItems.SEED, Alphabet.SEED::readsMostLetters), "deterministic");
            List<String> sentenceWords = new ArrayList<>();
            Matcher matcher = WORD.matcher(sentence.toLowerCase(Locale.ROOT));
            while (matcher.find()) {
                sentenceWords.add(matcher.group());
            }
            if (cut.pair() != null) {
                pairs++;
                allPairs.add(cut.pair());
                assertEquals(cut.pair().toLowerCase(Locale.ROOT), cut.pair());
                String[] two = cut.pair().split(" ");
                assertEquals(2, two.length, cut.pair());
                boolean consecutive = false;
                for (int i = 0; i + 1 < sentenceWords.size(); i++) {
                    consecutive |= sentenceWords.get(i).equals(two[0]) && sentenceWords.get(i + 1).equals(two[1]);
                }
                assertTrue(consecutive, "\"" + cut.pair() + "\": two consecutive words of \"" + sentence + "\"");
            }
            if (cut.word() != null) {
                words++;
                allWords.add(cut.word());
                assertTrue(sentenceWords.contains(cut.word()), "\"" + cut.word() + "\" is a word of \"" + sentence + "\"");
                assertTrue(cut.word().codePoints().filter(Character::isLetter).count() >= ShortItems.MIN_LETTERS, cut.word());
            }
        }
        JsonNode cut = report.at("/data/short_items");
        assertEquals(pairs, cut.at("/word_pairs/cut").asInt());
        assertEquals(words, cut.at("/single_words/cut").asInt());
        assertEquals(rows.size() - pairs, cut.at("/word_pairs/sentences_without").asInt());
        assertTrue(pairs > 540 && words > 540, "nearly every sentence gives both: " + cut);
        for (JsonNode detector : report.path("detectors")) {
            assertEquals(pairs, detector.at("/word_pairs/count").asInt(), "every pair scored (fewer than --max-short)");
            assertEquals(words, detector.at("/single_words/count").asInt());
        }
        // What the report shows of the errors are the items cut.
        for (JsonNode error : report.at("/detectors/0/word_pairs/errors")) {
            error.path("examples").forEach(e -> assertTrue(allPairs.contains(e.asText()), e.asText()));
        }
        for (JsonNode error : report.at("/detectors/0/single_words/errors")) {
            error.path("examples").forEach(e -> assertTrue(allWords.contains(e.asText()), e.asText()));
        }
    }

    @Test
    void aCapOnShortItemsIsASeededSampleOfEachLevel() {
        EvaluateJob.LabelledSentences sentences = EvaluateJob.readSentences(SparkTestSession.get(), sentencesPath, LANGUAGES, Alphabet.SEED, 0);
        List<EvaluateJob.TextLevel> capped = EvaluateJob.shortLevels(sentences, Alphabet.SEED, 100, JsonNodeFactory.instance.objectNode());
        List<EvaluateJob.TextLevel> again = EvaluateJob.shortLevels(sentences, Alphabet.SEED, 100, JsonNodeFactory.instance.objectNode());
        for (int l = 0; l < 2; l++) {
            assertEquals(100, capped.get(l).texts().size());
            assertEquals(capped.get(l).texts(), again.get(l).texts(), "the same sample on every run");
        }
        assertEquals(List.of("word_pairs", "single_words"), capped.stream().map(EvaluateJob.TextLevel::name).toList());
    }

    @Test
    void everyLevelIsInTheReportWithPerLanguageResults() {
        assertEquals(List.of(), JsonSchemas.problems(EvaluateJob.SCHEMA_FILE, report));
        assertEquals(List.of("langid", LINGUA), report.path("detectors").findValuesAsText("name"));
        for (JsonNode detector : report.path("detectors")) {
            for (String level : LEVELS) {
                JsonNode scores = detector.path(level);
                assertEquals(LANGUAGES, scores.path("per_language").findValuesAsText("language"), detector.path("name") + " " + level);
                for (JsonNode language : scores.path("per_language")) {
                    assertTrue(language.path("support").asLong() > 0, level + ": " + language);
                }
                assertEquals(List.of("Latin"), scores.path("per_script").findValuesAsText("script"));
                assertTrue(scores.path("related").isArray() && scores.path("related").size() > 0, "related languages: " + level);
            }
            double sentences = detector.at("/sentences/accuracy").asDouble();
            double pairs = detector.at("/word_pairs/accuracy").asDouble();
            double words = detector.at("/single_words/accuracy").asDouble();
            System.out.printf(Locale.ROOT, "%s on UDHR: sentences %.4f, word pairs %.4f, single words %.4f%n", detector.path("name").asText(),
                    sentences, pairs, words);
            assertTrue(sentences > pairs && pairs > words && words > 0.4, "shorter is harder, still far above chance: " + detector.path("name"));
        }
        JsonNode lingua = report.at("/detectors/1");
        for (String level : List.of("word_pairs", "single_words")) {
            JsonNode lead = lingua.path(level).path("model_lead");
            assertEquals("item", lead.path("clustered_by").asText());
            assertEquals(lingua.path(level).path("count").asLong(), lead.path("clusters").asLong());
            double difference = report.at("/detectors/0/" + level + "/accuracy").asDouble() - lingua.path(level).path("accuracy").asDouble();
            assertEquals(difference, lead.path("accuracy_difference").asDouble(), 1e-12);
        }
        assertTrue(printed.contains("\nword pairs ") && printed.contains("\nsingle words "), printed);
        assertTrue(printed.contains(String.format(Locale.ROOT, "langid - %s: %+.2f points", LINGUA,
                100 * lingua.at("/single_words/model_lead/accuracy_difference").asDouble())), printed);
        assertTrue(html.contains("<th>Word pairs: accuracy</th>") && html.contains("<h3>Single words</h3>"), "the page has the levels");
        assertTrue(html.contains("<dt>Short items</dt>"), "and says how they were cut");
    }

    @Test
    void theModelsCalibrationErrorIsGivenAndLinguasIsLeftOutWithTheReason() {
        JsonNode model = report.at("/detectors/0");
        assertFalse(model.path("windows").has("calibration"), "windows are not calibrated");
        for (String level : List.of("sentences", "word_pairs", "single_words")) {
            JsonNode calibration = model.path(level).path("calibration");
            assertEquals(10, calibration.path("bins").asInt());
            assertEquals(model.path(level).path("count").asLong(), calibration.path("count").asLong(), "the model answers every item");
            double ece = 0;
            long right = 0;
            for (JsonNode bin : calibration.path("per_bin")) {
                long n = bin.path("count").asLong();
                if (n > 0) {
                    ece += n * Math.abs(bin.path("accuracy").asDouble() - bin.path("mean_confidence").asDouble());
                    right += Math.round(n * bin.path("accuracy").asDouble());
                }
            }
            assertEquals(ece / calibration.path("count").asLong(), calibration.path("ece").asDouble(), 1e-9);
            assertEquals(model.path(level).path("correct").asLong(), right, "the bins hold every answer");
        }
        JsonNode lingua = report.at("/detectors/1");
        assertTrue(lingua.path("no_calibration").asText().contains("not probabilities"), lingua.path("no_calibration").asText());
        for (String level : LEVELS) {
            assertFalse(lingua.path(level).has("calibration"));
        }
        assertTrue(printed.contains("calibration error (ECE, 10 bins): langid "), printed);
        assertTrue(printed.contains(LINGUA + ": no calibration error ("), printed);
        assertTrue(html.contains("<h2>Calibration</h2>") && html.contains("<td class=\"no-probability\">no probability</td>"));
    }
}
