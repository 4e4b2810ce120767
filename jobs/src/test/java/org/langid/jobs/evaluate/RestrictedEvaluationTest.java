package org.langid.jobs.evaluate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.langid.jobs.LangidRuns;
import org.langid.jobs.SparkTestSession;
import org.langid.jobs.cli.LangidCommand;
import org.langid.jobs.train.WindowsReader;
import org.langid.model.predict.LanguageDetector;
import org.langid.model.schema.JsonSchemas;
import org.langid.serving.Detection;
import org.langid.text.Alphabet;

/**
 * {@code langid evaluate --languages}: the released 8-language model, Lingua and fastText (the
 * real binary, trained on a small prepare output of the sample) restricted to three of the
 * model's languages, on every level; items of the other five are left out, no detector answers
 * outside the three, and the report names them.
 */
class RestrictedEvaluationTest {

    /** The eight-language seed model (models/versions), whose eight languages this test's sample holds. */
    private static final Path RELEASE = Path.of("..", "models", "versions", "20261128T222203Z-b9cd9045");
    /** In the model's order; asked for in another. */
    private static final List<String> SUBSET = List.of("en", "fr", "pt");
    private static final List<String> LEVELS = List.of("windows", "sentences", "word_pairs", "single_words");
    private static final List<String> FASTTEXT_CHANGES = List.of("dim=16", "epoch=3");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path shared;
    private static String prepared;
    private static JsonNode report;
    private static String printed;
    private static String html;
    private static LanguageDetector detector;

    @BeforeAll
    static void evaluateRestrictedToThreeLanguages() throws IOException {
        FastTextCandidate.locate(null).orElseThrow(() -> new AssertionError(
                "fastText is not installed: run bench/fasttext-install.sh (apt-get install fasttext), as .ci/run does"));
        prepared = SmallPrepare.get();
        Path output = shared.resolve("report");
        List<String> args = new ArrayList<>(List.of("evaluate", "--master", "local[2]", "--model", RELEASE.toString(), "-i", prepared,
                "--languages", "pt,en,fr", "--peer", "lingua,fasttext", "--fasttext-cache", SmallPrepare.fastTextCache().toString(),
                "--threads", "2", "-o", output.toString()));
        FASTTEXT_CHANGES.forEach(change -> args.addAll(List.of("--fasttext-set", change)));
        printed = LangidRuns.output(args.toArray(String[]::new));
        report = JSON.readTree(output.resolve("report.json").toFile());
        html = Files.readString(output.resolve("report.html"));
        System.out.println(printed);
        detector = LanguageDetector.load(RELEASE.toString(), new Configuration(), LanguageDetector.Options.defaults());
    }

    @Test
    void everyDetectorAnswersWithinTheSubsetAndListsOnlyItsLanguages() {
        assertEquals(List.of(), JsonSchemas.problems(EvaluateJob.SCHEMA_FILE, report));
        assertEquals(SUBSET, texts(report.path("languages")), "the languages evaluated, in the model's order");
        assertEquals(List.of("langid", LinguaCandidate.NAME, "fasttext"), report.path("detectors").findValuesAsText("name"));
        for (JsonNode detector : report.path("detectors")) {
            String name = detector.path("name").asText();
            for (String level : LEVELS) {
                JsonNode scores = detector.path(level);
                String where = name + " " + level;
                assertEquals(SUBSET, scores.path("per_language").findValuesAsText("language"), where);
                // Lingua may decline (und); the model (no und class, no confidence floor) and fastText answer one of the three.
                List<String> labels = texts(scores.path("predicted_labels"));
                assertEquals(name.equals(LinguaCandidate.NAME) ? List.of("en", "fr", "pt", "und") : SUBSET, labels, where);
                long total = 0;
                for (int row = 0; row < SUBSET.size(); row++) {
                    long support = 0;
                    for (JsonNode cell : scores.path("confusion").path(row)) {
                        support += cell.asLong();
                    }
                    assertEquals(scores.path("per_language").path(row).path("support").asLong(), support, where + " row " + row);
                    total += support;
                }
                assertEquals(scores.path("count").asLong(), total, where + ": every answer is in the matrix");
                assertTrue(total > 30, where + ": " + total);
                if (!level.equals("windows") && !name.equals(LinguaCandidate.NAME)) {
                    assertEquals(total, scores.path("calibration").path("count").asLong(), where + ": calibrated on every answer");
                }
            }
        }
    }

    @Test
    void itemsOfOtherLanguagesAreLeftOut() {
        var spark = SparkTestSession.get();
        var windows = spark.read().parquet(prepared + "/windows/split=test");
        var sentences = spark.read().parquet(prepared + "/sentences/split=test");
        long subsetWindows = windows.filter(windows.col("language").isin(SUBSET.toArray())).count();
        long subsetSentences = sentences.filter(sentences.col("language").isin(SUBSET.toArray())).count();
        assertTrue(subsetWindows < windows.count() / 2 && subsetSentences < sentences.count() / 2, "three of eight languages");
        for (JsonNode detector : report.path("detectors")) {
            assertEquals(subsetWindows, detector.at("/windows/count").asLong(), detector.path("name").asText());
            assertEquals(subsetSentences, detector.at("/sentences/count").asLong(), detector.path("name").asText());
            assertEquals(report.at("/data/short_items/single_words/scored").asLong(), detector.at("/single_words/count").asLong());
        }
        assertTrue(report.at("/data/short_items/single_words/cut").asLong() <= subsetSentences, "cut from the subset's sentences only");
    }

    /**
     * The model's text answers are its restricted detector's (LanguageDetector.restrictedTo),
     * which differ from its unrestricted answers on these words; its calibration is of the
     * probabilities renormalised over the subset.
     */
    @Test
    void theModelAnswersThroughItsRestrictedDetector() {
        EvaluateJob.TextLevel words = singleWords();
        List<Detection> unrestricted = detector.detectAll(words.texts());
        List<Detection> restricted = detector.restrictedTo(SUBSET).detectAll(words.texts());
        long outside = unrestricted.stream().filter(d -> !SUBSET.contains(d.language())).count();
        assertTrue(outside > 0, "unrestricted, the model answers other languages for some of these words (else this test could not fail)");
        long correct = 0;
        double confidence = 0;
        for (int i = 0; i < restricted.size(); i++) {
            correct += restricted.get(i).language().equals(SUBSET.get(words.labels()[i])) ? 1 : 0;
            confidence += restricted.get(i).confidence();
        }
        JsonNode scores = report.at("/detectors/0/single_words");
        assertEquals(correct, scores.path("correct").asLong());
        assertEquals(confidence / restricted.size(), scores.at("/calibration/mean_confidence").asDouble(), 1e-6);
        assertTrue(report.at("/detectors/0/description").asText().endsWith(", restricted to en, fr, pt"), report.at("/detectors/0/description").asText());
    }

    /** fastText's answers are the best of the subset's labels, by every label's probability; unrestricted it answers others. */
    @Test
    void fastTextAnswersTheBestOfTheSubsetsLabels() {
        var training = WindowsReader.read(SparkTestSession.get(), prepared, "train", detector.languages(), 16, Alphabet.SEED);
        FastTextCandidate fastText = FastTextCandidate.train(FastTextCandidate.locate(null).orElseThrow(),
                FastTextSettings.TUNED.with(FASTTEXT_CHANGES), training, Alphabet.SEED, "train", "unknown", SmallPrepare.fastTextCache(), 2);
        assertTrue(fastText.training().path("cached").asBoolean(), "the model the evaluation trained");
        EvaluateJob.TextLevel words = singleWords();
        int[] all = fastText.predictTexts(words.texts(), Alphabet.SEED).predicted();              // the model's 8 languages
        Candidate.Answers restricted = fastText.restrictedTo(LanguageSubset.of(detector.languages(), SUBSET))
                .predictTexts(words.texts(), Alphabet.SEED);                                            // indices into SUBSET
        long outside = 0;
        long correct = 0;
        for (int i = 0; i < all.length; i++) {
            String answer = detector.languages().get(all[i]);
            if (SUBSET.contains(answer)) {
                assertEquals(SUBSET.indexOf(answer), restricted.predicted()[i], "the best label is the best of the subset's: " + words.texts().get(i));
            } else {
                outside++;
            }
            assertTrue(restricted.confidence()[i] > 0 && restricted.confidence()[i] <= 1 + 1e-9, "renormalised: " + restricted.confidence()[i]);
            correct += restricted.predicted()[i] == words.labels()[i] ? 1 : 0;
        }
        assertTrue(outside > 0, "unrestricted, fastText answers other languages for some of these words (else this test could not fail)");
        assertEquals(correct, report.at("/detectors/2/single_words/correct").asLong());
        assertTrue(report.at("/detectors/2/description").asText().contains("answers restricted to en, fr, pt"));
    }

    @Test
    void theReportNamesTheSubset() {
        JsonNode restricted = report.path("restricted_to");
        assertEquals(SUBSET, texts(restricted.path("languages")));
        assertEquals(SUBSET, texts(restricted.path("answering")), "the release has no und class");
        assertEquals(8, restricted.path("model_languages").asInt());
        assertTrue(printed.startsWith("restricted to en, fr, pt (3 of the model's 8 languages)"), printed);
        assertTrue(printed.lines().noneMatch(line -> line.startsWith("  de ") || line.startsWith("  es ")), "only the subset's rows: " + printed);
        assertTrue(html.contains("<dt>Restricted</dt><dd class=\"restricted\">Restricted to en, fr, pt (3 of the model&#39;s 8 languages)"),
                "the page's header says so");
        assertTrue(report.at("/detectors/1/description").asText().contains("restricted to the languages evaluated"));
    }

    @Test
    void anUnknownCodeOrASingleLanguageIsOneLine() {
        assertEquals("langid evaluate: error: --languages: 'xx' is not one of the model's languages (en, de, fr, es, it, pt, nl, sv)",
                evaluateError("en,xx"));
        assertEquals("langid evaluate: error: --languages needs at least two of the model's languages to choose between, got de",
                evaluateError("de"));
    }

    private static String evaluateError(String languages) {
        StringWriter err = new StringWriter();
        int exit = LangidCommand.execute(new PrintWriter(err, true), "evaluate", "--master", "local[2]", "--model", RELEASE.toString(),
                "-i", prepared, "--languages", languages, "-o", shared.resolve("not-written").toString());
        assertEquals(1, exit, err.toString());
        assertTrue(Files.notExists(shared.resolve("not-written")));
        return err.toString().strip();
    }

    /** The single words the evaluation scored: the same cut of the same sentences (no cap reached). */
    private static EvaluateJob.TextLevel singleWords() {
        EvaluateJob.LabelledSentences sentences = EvaluateJob.readSentences(SparkTestSession.get(), prepared + "/sentences/split=test", SUBSET,
                Alphabet.SEED, 0);
        EvaluateJob.TextLevel words = EvaluateJob.shortLevels(sentences, Alphabet.SEED, 0, JsonNodeFactory.instance.objectNode()).get(1);
        assertEquals(report.at("/detectors/0/single_words/count").asLong(), words.texts().size());
        return words;
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(t -> texts.add(t.asText()));
        return texts;
    }
}
