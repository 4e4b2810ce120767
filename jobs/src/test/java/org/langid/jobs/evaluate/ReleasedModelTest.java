package org.langid.jobs.evaluate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.langid.jobs.SparkTestSession;
import org.langid.jobs.cli.ProfileOptions;
import org.langid.jobs.prepare.PrepareConfig;
import org.langid.jobs.prepare.PrepareJob;
import org.langid.model.artefact.ModelRegistry;
import org.langid.model.predict.LanguageDetector;
import org.langid.serving.Detection;

/**
 * The release committed under models/ keeps its measured accuracy: on the committed sample's
 * test split of its training genres (help pages and UI strings, split by the same seeded hash as
 * the full corpus it was trained on, so these sentences were held out from its training too), on
 * the sample's out-of-genre checks, on text in capitals and on text typed without its accents.
 * A regression in the artefact, the predictor or the normalisation fails here.
 */
class ReleasedModelTest {

    private static final Path REPO = Path.of("..");
    private static final Path RELEASE = REPO.resolve("models");
    /** The eight-language model of the seed alphabet, kept in the registry beside the release. */
    private static final Path SEED_MODEL = RELEASE.resolve("versions/20261128T222203Z-b9cd9045");
    private static final List<String> SEED_LANGUAGES = List.of("en", "de", "fr", "es", "it", "pt", "nl", "sv");
    private static final Path SAMPLE = REPO.resolve("data/sample/many");
    private static final List<String> TRAINING_SOURCES = List.of("libreoffice", "firefox", "lo-ui");
    private static final List<String> CHECK_SOURCES = List.of("udhr", "openttd", "wesnoth", "freeciv", "gcompris");
    private static final Path SEED_UDHR = REPO.resolve("data/sample/udhr");

    @Test
    void theReleaseKeepsItsMeasuredAccuracyOnTheSampleTestSplit(@TempDir Path temp) {
        // Measured (release 20261207T035227Z-918523b4, this test): windows 0.9205, sentences 0.9703 (8,756 sentences);
        // the thresholds allow half a point of windows and about 25 sentences.
        ObjectNode report = score(release(), prepare(TRAINING_SOURCES, releasePrepareConfig(), temp), true, LanguageSubset.all(release().languages()));
        assertAccuracyAtLeast(report, "the sample's test split", 0.915, 0.967);
    }

    /** Genres the release never trained on: UDHR and the games' text, every split of it. */
    @Test
    void theReleaseKeepsItsMeasuredAccuracyOnTheOutOfGenreChecks(@TempDir Path temp) {
        // Measured (release 20261207T035227Z-918523b4, this test): windows 0.8814, sentences 0.9541 (20,871 sentences).
        ObjectNode report = score(release(), prepare(CHECK_SOURCES, checksPrepareConfig(), temp), false, LanguageSubset.all(release().languages()));
        assertAccuracyAtLeast(report, "the out-of-genre checks", 0.876, 0.951);
    }

    /**
     * A user who expects only the seed model's eight languages restricts the release to them: on
     * UDHR, which neither model trained on, it stays within a point of the seed model, each model
     * reading the text its own way (the seed model drops the accents).
     */
    @Test
    void restrictedToTheEightTheReleaseIsWithinOnePointOfTheSeedModel(@TempDir Path temp) {
        // Measured (release 20261207T035227Z-918523b4 against the seed model, this test): windows 0.9536 against 0.9589,
        // sentences 0.9964 against 1.0.
        ObjectNode release = score(release(), prepare(List.of(), checksPrepareConfig(), temp.resolve("release"), SEED_UDHR), false,
                LanguageSubset.of(release().languages(), SEED_LANGUAGES));
        LanguageDetector seed = LanguageDetector.load(SEED_MODEL.toString(), new Configuration(), LanguageDetector.Options.defaults());
        ObjectNode before = score(seed, SEED_MODEL, prepare(List.of(), new PrepareConfig(), temp.resolve("seed"), SEED_UDHR), false,
                LanguageSubset.all(seed.languages()));
        for (String level : List.of("windows", "sentences")) {
            double ours = release.at("/detectors/0/" + level + "/accuracy").asDouble();
            double seedAccuracy = before.at("/detectors/0/" + level + "/accuracy").asDouble();
            System.out.printf("UDHR %s: release restricted to the eight %.4f, seed model %.4f%n", level, ours, seedAccuracy);
            assertTrue(ours >= seedAccuracy - 0.01, level + ": " + ours + " against the seed model's " + seedAccuracy);
        }
    }

    /**
     * Text typed without its accents, as people often do: the eight languages' UDHR stripped as
     * the seed alphabet strips it, the release restricted to those eight. The release learnt from
     * accented text only; it is 3.7 points of windows behind the seed model here (docs/RESULTS.md).
     */
    @Test
    void restrictedToTheEightTheReleaseReadsTextWithoutAccents(@TempDir Path temp) {
        // Measured (release 20261207T035227Z-918523b4, this test): windows 0.9217, sentences 0.9982 (556 of 557);
        // the seed model 0.9589 and 1.0. The thresholds allow half a point of windows and three sentences.
        String prepared = prepare(List.of(), new PrepareConfig(), temp, SEED_UDHR);   // the seed alphabet: accents dropped
        ObjectNode report = score(release(), prepared, false, LanguageSubset.of(release().languages(), SEED_LANGUAGES));
        assertAccuracyAtLeast(report, "UDHR without accents, restricted to the eight", 0.917, 0.993);
    }

    /**
     * Text in capitals, which the training corpus has almost none of: the eight languages' UDHR
     * upper-cased. The detector reads windows in capitals in lower case (CaseFolding).
     */
    @Test
    void theReleaseReadsTextInCapitals(@TempDir Path temp) throws IOException {
        Path capitals = Files.createDirectories(temp.resolve("udhr-capitals"));
        try (Stream<Path> files = Files.list(SEED_UDHR)) {
            for (Path file : files.toList()) {
                Files.writeString(capitals.resolve(file.getFileName()), Files.readString(file).toUpperCase(Locale.ROOT));
            }
        }
        // Measured (release 20261207T035227Z-918523b4, this test): windows 0.8599, sentences 0.9928 (553 of 557); as written, not in
        // capitals: 0.8661 and 0.9928. The thresholds allow half a point of windows and three sentences.
        ObjectNode report = score(release(), prepare(List.of(), checksPrepareConfig(), temp, capitals), false, LanguageSubset.all(release().languages()));
        assertEquals(557, report.at("/detectors/0/sentences/count").asLong(), "all of the eight languages' UDHR sentences");
        assertAccuracyAtLeast(report, "UDHR in capitals", 0.855, 0.987);
    }

    /** One sentence in each of fifteen languages and eleven scripts, written for this check: each named right. */
    @Test
    void theReleaseNamesTheLanguageOfSentencesInEveryScript() {
        Map<String, String> sentences = new LinkedHashMap<>();
        sentences.put("Καλημέρα, τι κάνετε σήμερα;", "el");
        sentences.put("Привет, как дела? Это русский текст.", "ru");
        sentences.put("To jest polskie zdanie o pogodzie dzisiaj.", "pl");
        sentences.put("Tämä on suomenkielinen lause säästä.", "fi");
        sentences.put("今日は天気がとても良いので、公園に散歩に行きました。", "ja");
        sentences.put("오늘은 날씨가 좋아서 공원에 산책하러 갔습니다.", "ko");
        sentences.put("今天天气很好，我们去公园散步了。", "zh");
        sentences.put("आज मौसम बहुत अच्छा है, इसलिए हम पार्क में घूमने गए।", "hi");
        sentences.put("আজ আবহাওয়া খুব ভালো, তাই আমরা পার্কে হাঁটতে গিয়েছিলাম।", "bn");
        sentences.put("இன்று வானிலை மிகவும் நன்றாக உள்ளது, எனவே நாங்கள் பூங்காவிற்கு நடந்து சென்றோம்.", "ta");
        sentences.put("الطقس جميل جدا اليوم، لذلك ذهبنا إلى الحديقة للتنزه.", "ar");
        sentences.put("מזג האוויר יפה מאוד היום, ולכן הלכנו לטייל בפארק.", "he");
        sentences.put("วันนี้อากาศดีมาก เราจึงไปเดินเล่นที่สวนสาธารณะ", "th");
        sentences.put("Այսօր եղանակը շատ լավն է, ուստի մենք գնացինք զբոսնելու այգում։", "hy");
        sentences.put("დღეს ამინდი ძალიან კარგია, ამიტომ პარკში სასეირნოდ წავედით.", "ka");
        List<String> texts = List.copyOf(sentences.keySet());
        List<Detection> detections = release().detectAll(texts);
        for (int i = 0; i < texts.size(); i++) {
            assertEquals(sentences.get(texts.get(i)), detections.get(i).language(), texts.get(i));
        }
    }

    private static LanguageDetector release;

    private static synchronized LanguageDetector release() {
        if (release == null) {
            release = LanguageDetector.load(RELEASE.toString(), new Configuration(), LanguageDetector.Options.defaults());
        }
        return release;
    }

    /** How conf/many.yaml, the release's profile, prepares text, without its per-language cap. */
    private static PrepareConfig releasePrepareConfig() {
        PrepareConfig config = ProfileOptions.read(REPO.resolve("conf/many.yaml").toString(), new Configuration())
                .section("prepare", PrepareConfig.class);
        config.maxWindowsPerLanguage = 0;
        return config;
    }

    /** The same for text of the release's languages only (checks): no und class to fill. */
    private static PrepareConfig checksPrepareConfig() {
        PrepareConfig config = releasePrepareConfig();
        config.otherLanguages = new ArrayList<>();
        return config;
    }

    private static String prepare(List<String> sources, PrepareConfig config, Path temp, Path... more) {
        List<String> inputs = new ArrayList<>();
        sources.forEach(source -> inputs.add(SAMPLE.resolve(source).toString()));
        for (Path path : more) {
            inputs.add(path.toString());
        }
        String prepared = temp.resolve("prepared").toString();
        new PrepareJob(SparkTestSession.get(), config).run(inputs, prepared, false);
        return prepared;
    }

    private static ObjectNode score(LanguageDetector detector, String prepared, boolean testSplitOnly, LanguageSubset subset) {
        return score(detector, RELEASE, prepared, testSplitOnly, subset);
    }

    private static ObjectNode score(LanguageDetector detector, Path location, String prepared, boolean testSplitOnly,
                                    LanguageSubset subset) {
        EvaluateJob.Data data = testSplitOnly
                ? EvaluateJob.Data.ofPrepared(prepared, "test", 0, 0)
                : new EvaluateJob.Data(prepared + "/windows", prepared + "/sentences", prepared, null, 0, 0);
        return EvaluateJob.run(SparkTestSession.get(), detector, ModelRegistry.resolve(location.toString(), new Configuration()), data,
                List.of(new ModelCandidate(detector, subset, 2)), List.of(), subset);
    }

    private static void assertAccuracyAtLeast(ObjectNode report, String what, double windowsMin, double sentencesMin) {
        double windows = report.at("/detectors/0/windows/accuracy").asDouble();
        double sentences = report.at("/detectors/0/sentences/accuracy").asDouble();
        System.out.printf("release on %s: windows %.4f, sentences %.4f (%d sentences)%n", what, windows, sentences,
                report.at("/detectors/0/sentences/count").asLong());
        assertTrue(windows >= windowsMin, what + ": window accuracy " + windows);
        assertTrue(sentences >= sentencesMin, what + ": sentence accuracy " + sentences);
    }
}
