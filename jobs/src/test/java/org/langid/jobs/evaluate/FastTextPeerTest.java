package org.langid.jobs.evaluate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.langid.jobs.SparkTestSession;
import org.langid.jobs.LangidRuns;
import org.langid.jobs.cli.LangidCommand;
import org.langid.jobs.train.WindowsReader;
import org.langid.model.artefact.ModelRegistry;
import org.langid.model.predict.LanguageDetector;
import org.langid.model.train.LabelledWindows;
import org.langid.text.Alphabet;

/**
 * fastText as a peer of {@code langid evaluate}: trained with the real {@code fasttext} binary on
 * a small prepare output (the first 150 sample sentences of each language, {@link SmallPrepare}), on exactly the
 * windows prepare cut, scored beside the released model; and, without the binary, the evaluation
 * says so and goes on. CI installs fastText first (.ci/run runs bench/fasttext-install.sh).
 */
class FastTextPeerTest {

    /** The eight-language seed model (models/versions), whose eight languages this test's sample holds. */
    private static final Path RELEASE = Path.of("..", "models", "versions", "20261128T222203Z-b9cd9045");
    /** Small and quick (a few seconds), still far above chance (1 in 8). */
    private static final FastTextSettings SMALL = FastTextSettings.parse("fasttext", "-minn 1 -maxn 4 -wordNgrams 2 -dim 16 -epoch 5 -lr 0.5");
    private static final ObjectMapper JSON = new ObjectMapper();

    private static String prepared;

    @BeforeAll
    static void prepareASmallCorpus() {
        prepared = SmallPrepare.get();
    }

    private static Path fastText() {
        return FastTextCandidate.locate(null).orElseThrow(() -> new AssertionError(
                "fastText is not installed: run bench/fasttext-install.sh (apt-get install fasttext), as .ci/run does"));
    }

    @Test
    void fastTextLearnsFromTheDecodedTrainingWindowsAndIsScoredBesideTheModel(@TempDir Path temp) throws IOException {
        Configuration conf = new Configuration();
        LanguageDetector detector = LanguageDetector.load(RELEASE.toString(), conf, LanguageDetector.Options.defaults());
        LabelledWindows windows = WindowsReader.read(SparkTestSession.get(), prepared, "train", detector.languages(), 16, Alphabet.SEED);

        // What fastText reads is prepare's windows, character for character, one labelled line each.
        Path text = temp.resolve("train.txt");
        FastTextCandidate.writeTrainingText(windows, Alphabet.SEED, text, SMALL);
        List<String> written = new ArrayList<>(Files.readAllLines(text, StandardCharsets.UTF_8));
        List<String> expected = new ArrayList<>();
        for (Row row : SparkTestSession.get().read().parquet(prepared + "/windows/split=train").select("language", "window").collectAsList()) {
            expected.add("__label__" + row.getString(0) + " " + row.getString(1));
        }
        assertNotEquals(expected, written, "lines are shuffled, not in prepare's order by language");
        expected.sort(null);
        written.sort(null);
        assertEquals(expected, written);

        Path cache = temp.resolve("cache");
        FastTextCandidate fastText = FastTextCandidate.train(fastText(), SMALL, windows, Alphabet.SEED, "train windows", "sha256:test", cache, 2);
        assertFalse(fastText.training().path("cached").asBoolean());
        assertEquals(windows.size(), fastText.training().path("count").asInt());

        ObjectNode report = EvaluateJob.run(SparkTestSession.get(), detector, ModelRegistry.resolve(RELEASE.toString(), conf),
                EvaluateJob.Data.ofPrepared(prepared, "test", 0, 0), List.of(new ModelCandidate(detector, 2), fastText));
        JsonNode ours = report.at("/detectors/0");
        JsonNode peer = report.at("/detectors/1");
        assertEquals("fasttext", peer.path("name").asText());
        assertEquals(SMALL.commandLine(), peer.at("/trained/arguments").asText());
        long testWindows = SparkTestSession.get().read().parquet(prepared + "/windows/split=test").count();
        assertEquals(testWindows, peer.at("/windows/count").asLong(), "fastText scores every test window");
        assertEquals(ours.at("/sentences/count").asLong(), peer.at("/sentences/count").asLong(), "and the same sentences");
        for (String level : List.of("sentences", "word_pairs", "single_words")) {
            assertEquals(ours.path(level).path("count").asLong(), peer.path(level).path("count").asLong(), "the same " + level);
            assertTrue(ours.path(level).path("count").asLong() > 100, level);
            // fastText's probability of its answer (predict-prob), binned as the model's.
            JsonNode calibration = peer.path(level).path("calibration");
            assertEquals(peer.path(level).path("count").asLong(), calibration.path("count").asLong(), level + ": " + calibration);
            assertTrue(calibration.path("mean_confidence").asDouble() > 0.3 && calibration.path("ece").asDouble() < 0.5, calibration.toString());
            assertFalse(peer.has("no_calibration"));
        }
        double windowAccuracy = peer.at("/windows/accuracy").asDouble();
        double sentenceAccuracy = peer.at("/sentences/accuracy").asDouble();
        System.out.printf("fastText (%s) on %d windows: windows %.4f, sentences %.4f%n", SMALL.commandLine(), windows.size(),
                windowAccuracy, sentenceAccuracy);
        // Measured: windows 0.86, sentences 0.96-0.98 over runs (8 languages; a label mix-up would be near 1 in 8).
        assertTrue(windowAccuracy > 0.70, "fastText window accuracy " + windowAccuracy);
        assertTrue(sentenceAccuracy > 0.90, "fastText sentence accuracy " + sentenceAccuracy);
        for (JsonNode language : peer.at("/windows/per_language")) {
            assertTrue(language.path("recall").asDouble() > 0.4, "every language is learnt: " + language);
        }

        // The same text and arguments again: the cached model, not a new training; the same answers.
        LabelledWindows test = WindowsReader.read(SparkTestSession.get(), prepared, "test", detector.languages(), 16, Alphabet.SEED);
        FastTextCandidate again = FastTextCandidate.train(fastText(), SMALL, windows, Alphabet.SEED, "train windows", "sha256:test", cache, 2);
        assertTrue(again.training().path("cached").asBoolean());
        assertEquals(fastText.training().path("seconds").asDouble(), again.training().path("seconds").asDouble());
        assertArrayEquals(fastText.predictWindows(test.symbols(), 16, Alphabet.SEED), again.predictWindows(test.symbols(), 16, Alphabet.SEED));
        // Other arguments are another model.
        FastTextSettings fewerEpochs = FastTextSettings.parse("fasttext", "-minn 1 -maxn 4 -wordNgrams 2 -dim 16 -epoch 1 -lr 0.5");
        FastTextCandidate other = FastTextCandidate.train(fastText(), fewerEpochs, windows, Alphabet.SEED, "train windows", "sha256:test", cache, 2);
        assertFalse(other.training().path("cached").asBoolean());
        assertNotEquals(fastText.training().path("cache").asText(), other.training().path("cache").asText());
    }

    @Test
    void langidEvaluateScoresFastTextTrainedOnTheInputsTrainingSplit(@TempDir Path temp) throws IOException {
        fastText();
        Path output = temp.resolve("report");
        String printed = evaluate(0, "--peer", "fasttext", "--fasttext-set", "dim=16", "--fasttext-set", "epoch=3", "--fasttext-set", "text=joined",
                "--fasttext-cache", SmallPrepare.fastTextCache().toString(), "-o", output.toString());
        JsonNode report = JSON.readTree(output.resolve("report.json").toFile());
        assertEquals(List.of("langid", "fasttext"), names(report));
        JsonNode trained = report.at("/detectors/1/trained");
        assertEquals(FastTextSettings.TUNED.with(List.of("dim=16", "epoch=3")).commandLine(), trained.path("arguments").asText());
        assertTrue(trained.path("arguments").asText().contains("-dim 16"), trained.toString());
        assertEquals("joined", trained.path("text").asText(), "spaces written as _");
        double joinedAccuracy = report.at("/detectors/1/windows/accuracy").asDouble();
        System.out.printf("fastText (%s) through langid evaluate: windows %.4f%n", trained.path("arguments").asText(), joinedAccuracy);
        // Measured: 0.87 of windows with spaces joined (a window written one way and read another would fall far lower).
        assertTrue(joinedAccuracy > 0.70, report.at("/detectors/1/windows").toString());
        assertEquals(prepared + "/windows/split=train", trained.path("windows").asText());
        assertEquals(JSON.readTree(Path.of(prepared, "summary.json").toFile()).path("fingerprint").asText(),
                trained.path("data_fingerprint").asText());
        assertTrue(printed.contains(" fasttext"), printed);
        String html = Files.readString(output.resolve("report.html"));
        assertTrue(html.contains("Accuracy per language") && html.contains("windows: fasttext"), "the page sets fastText beside the model");
        assertTrue(html.contains("spaces written as _"), "and says how fastText was given the text");
    }

    @Test
    void aBadFastTextArgumentIsOneLineNamingIt(@TempDir Path temp) {
        fastText();
        StringWriter err = new StringWriter();
        int exit = LangidCommand.execute(new PrintWriter(err, true), "evaluate", "--master", "local[2]", "--model", RELEASE.toString(),
                "-i", prepared, "--peer", "fasttext", "--fasttext-set", "loss=bogus", "--fasttext-cache", temp.resolve("cache").toString(),
                "-o", temp.resolve("report").toString());
        assertEquals(1, exit, err.toString());
        assertEquals("langid evaluate: error: fastText training failed (exit 1): Unknown loss: bogus", err.toString().strip());
    }

    @Test
    void withoutFastTextTheEvaluationSaysSoAndGoesOn(@TempDir Path temp) throws IOException {
        Path output = temp.resolve("report");
        String printed = evaluate(0, "--peer", "lingua,fasttext", "--fasttext", temp.resolve("no-such-fasttext").toString(),
                "--max-windows", "400", "--max-sentences", "40", "-o", output.toString());
        JsonNode report = JSON.readTree(output.resolve("report.json").toFile());
        assertEquals(List.of("langid", "lingua-1.2.2"), names(report), "the others are still scored");
        assertEquals("fasttext", report.at("/unavailable/0/name").asText());
        assertTrue(report.at("/unavailable/0/reason").asText().contains("apt-get install fasttext"), report.toString());
        assertTrue(printed.contains("not evaluated: fasttext"), printed);
        assertTrue(Files.readString(output.resolve("report.html")).contains("Not evaluated: <strong>fasttext</strong>"));
    }

    @Test
    void fastTextSetChangesOneArgumentAndRefusesWhatLangidSets() {
        assertEquals("-minn 1 -maxn 4 -wordNgrams 2 -dim 64 -epoch 5 -lr 0.5 -loss ova",
                FastTextSettings.BASELINE.with(List.of("dim=64", "loss=ova")).commandLine());
        assertThrows(IllegalArgumentException.class, () -> FastTextSettings.BASELINE.with(List.of("-dim 64")));
        assertThrows(IllegalArgumentException.class, () -> FastTextSettings.BASELINE.with(List.of("thread=8")));
        FastTextSettings joined = FastTextSettings.BASELINE.with(List.of("text=joined"));
        assertEquals(FastTextSettings.BASELINE.commandLine(), joined.commandLine());
        assertEquals("arte_inferior_de", joined.fastTextText("arte inferior de"));
        assertEquals("arte inferior de", joined.with(List.of("text=words")).fastTextText("arte inferior de"));
        assertThrows(IllegalArgumentException.class, () -> FastTextSettings.BASELINE.with(List.of("text=spaces")));
    }

    /** Runs {@code langid evaluate} of the release on the small test split; returns what it printed. */
    private static String evaluate(int expectedExit, String... options) {
        List<String> args = new ArrayList<>(List.of("evaluate", "--master", "local[2]", "--model", RELEASE.toString(), "-i", prepared));
        args.addAll(List.of(options));
        return LangidRuns.output(expectedExit, args.toArray(String[]::new));
    }

    private static List<String> names(JsonNode report) {
        List<String> names = new ArrayList<>();
        report.path("detectors").forEach(d -> names.add(d.path("name").asText()));
        return names;
    }
}
