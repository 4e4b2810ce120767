package org.langid.serving;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The Java API a user calls: the released model's int8 flavour through {@link ServingModel} and {@link TextDetector}. */
class TextDetectorTest {

    private static ServingModel model;
    private static TextDetector detector;

    @BeforeAll
    static void load() {
        model = ReleasedModel.load(true);
        detector = model.detector();
    }

    @AfterAll
    static void close() {
        model.close();
    }

    @Test
    void everySentenceComesBackInItsLanguage() {
        ReleasedModel.SENTENCES.forEach((language, sentences) -> {
            for (String sentence : sentences) {
                Detection detection = detector.detect(sentence);
                assertEquals(language, detection.language(), sentence + " → " + detection.probabilities());
                assertTrue(detection.confidence() > 0.9, sentence + ": confidence " + detection.confidence());
                assertTrue(detection.isDetermined(), sentence);
            }
        });
    }

    @Test
    void probabilitiesCoverEveryLanguageInTheModelsOrderSumToOneAndTheConfidenceIsTheLargest() {
        assertEquals(ReleasedModel.LANGUAGES, detector.languages());
        assertEquals(ReleasedModel.LANGUAGES, languagesOf(model));
        for (String text : ReleasedModel.withShortAndMixedTexts()) {
            Detection detection = detector.detect(text);
            assertEquals(ReleasedModel.LANGUAGES, List.copyOf(detection.probabilities().keySet()), text);
            double sum = detection.probabilities().values().stream().mapToDouble(Double::doubleValue).sum();
            assertEquals(1.0, sum, 1e-9, text);
            double largest = detection.probabilities().values().stream().mapToDouble(Double::doubleValue).max().orElseThrow();
            assertEquals(largest, detection.confidence(), text);
            assertEquals(detection.probabilities().get(detection.language()), detection.confidence(), text);
            detection.probabilities().values().forEach(p -> assertTrue(p >= 0 && p <= 1, text + ": " + p));
        }
    }

    @Test
    void textWithNothingToClassifyIsUndeterminedWithConfidenceZero() {
        List<String> nothing = Arrays.asList("", " ", "\t\n  \r", "Привет как дела", "日本語のテキストです", "\u0301\u0301", "😀🎉", null,
                "1234 5678", "!!!", "Καλημέρα, τι κάνετε σήμερα;", "Привет, как дела? Это русский текст.", "(+49) 30 1234-5678.");
        List<Detection> batched = detector.detectAll(nothing);
        for (int i = 0; i < nothing.size(); i++) {
            Detection detection = batched.get(i);
            String text = String.valueOf(nothing.get(i));
            assertEquals(TextDetector.UNDETERMINED, detection.language(), text);
            assertEquals(0.0, detection.confidence(), text);
            assertTrue(detection.probabilities().isEmpty(), text);
            assertEquals(0, detection.windows(), text);
            assertFalse(detection.isDetermined(), text);
        }
        assertEquals(batched.get(nothing.size() - 1), detector.detect(null), "null alone as in a batch");
    }

    @Test
    void aDetectorRestrictedToSomeLanguagesAnswersFromThemWithProbabilitiesRenormalised() {
        TextDetector iberian = detector.restrictedTo(List.of("pt", "es"));
        assertEquals(List.of("es", "pt"), iberian.answering(), "in the model's order");
        assertEquals(ReleasedModel.LANGUAGES, iberian.languages());
        for (String text : ReleasedModel.withShortAndMixedTexts()) {
            Detection whole = detector.detect(text);
            Detection restricted = iberian.detect(text);
            assertEquals(List.of("es", "pt"), List.copyOf(restricted.probabilities().keySet()), text);
            double es = whole.probabilities().get("es");
            double pt = whole.probabilities().get("pt");
            assertEquals(es / (es + pt), restricted.probabilities().get("es"), 1e-9, text);
            assertEquals(es >= pt ? "es" : "pt", restricted.language(), text);
            assertEquals(whole.windows(), restricted.windows(), text);
        }
        assertEquals("pt", iberian.detect(ReleasedModel.SENTENCES.get("pt").get(0)).language());
        assertEquals("es", iberian.detect(ReleasedModel.SENTENCES.get("es").get(0)).language());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> detector.restrictedTo(List.of("pt", "el")));
        assertEquals("'el' is not one of the model's languages (en, de, fr, es, it, pt, nl, sv)", unknown.getMessage());
        assertThrows(IllegalArgumentException.class, () -> detector.restrictedTo(List.of()));
    }

    @Test
    void aModelWithAnUndClassAnswersUndWithItsProbabilityAndKeepsItInEverySubset() {
        // Every window: en 0.3, de 0.1, und 0.6; so every text's combined probabilities are those.
        WindowClassifier undMost = new WindowClassifier() {
            @Override
            public float[] probabilities(int[] symbols, int rows) {
                float[] out = new float[rows * 3];
                for (int r = 0; r < rows; r++) {
                    out[r * 3] = 0.3f;
                    out[r * 3 + 1] = 0.1f;
                    out[r * 3 + 2] = 0.6f;
                }
                return out;
            }

            @Override
            public String engine() {
                return "fixed probabilities";
            }

            @Override
            public void close() {
            }
        };
        TextDetector withUnd = new TextDetector(undMost, List.of("en", "de", "und"), window(), detector.alphabet(), ReleasedModel.DEFAULTS);
        Detection whole = withUnd.detect("Eine Sprache, die das Modell nicht kennt.");
        assertEquals(TextDetector.UNDETERMINED, whole.language());
        assertFalse(whole.isDetermined());
        assertEquals(0.6, whole.confidence(), 1e-6);
        assertEquals(Map.of("en", 0.3, "de", 0.1, "und", 0.6).keySet(), whole.probabilities().keySet());

        TextDetector german = withUnd.restrictedTo(List.of("de"));
        assertEquals(List.of("de", "und"), german.answering(), "und stays in every subset");
        Detection restricted = german.detect("Eine Sprache, die das Modell nicht kennt.");
        assertEquals(TextDetector.UNDETERMINED, restricted.language());
        assertEquals(0.6 / 0.7, restricted.confidence(), 1e-6);
        assertEquals(0.1 / 0.7, restricted.probabilities().get("de"), 1e-6);
        assertEquals(TextDetector.UNDETERMINED, withUnd.withConfidenceFloor(0.5).detect("Noch ein Satz in keiner Sprache.").language());
    }

    @Test
    void belowTheConfidenceFloorATextIsUndWithItsProbabilitiesStillReported() {
        TextDetector floored = detector.withConfidenceFloor(0.9);
        assertEquals(0.9, floored.confidenceFloor());
        int und = 0;
        for (String text : ReleasedModel.withShortAndMixedTexts()) {
            Detection whole = detector.detect(text);
            Detection detection = floored.detect(text);
            assertEquals(whole.probabilities(), detection.probabilities(), text);
            assertEquals(whole.windows(), detection.windows(), text);
            if (whole.confidence() < 0.9) {
                assertEquals(TextDetector.UNDETERMINED, detection.language(), text);
                assertEquals(0.0, detection.confidence(), text);
                assertFalse(detection.isDetermined(), text);
                und++;
            } else {
                assertEquals(whole, detection, text);
            }
        }
        assertTrue(und > 0, "some short texts are below 0.9");
        assertEquals(Map.of("es", 1.0), detector.restrictedTo(List.of("es")).withConfidenceFloor(0.99).detect("Até logo").probabilities(),
                "a subset and a floor together");
        assertThrows(IllegalArgumentException.class, () -> detector.withConfidenceFloor(1.0));
        assertThrows(IllegalArgumentException.class, () -> detector.withConfidenceFloor(-0.1));
    }

    @Test
    void onlyTheLatinPartOfMixedScriptTextCounts() {
        assertEquals("de", detector.detect("Москва: Der Zug in die Stadt fährt jeden Morgen um sieben ab. 東京").language());
        assertEquals(detector.detect("Москва Wir haben das ganze Wochenende die Küche gestrichen."),
                detector.detect("Wir haben das ganze Wochenende die Küche gestrichen."));
    }

    @Test
    void textShorterThanAWindowIsOnePaddedWindow() {
        Detection detection = detector.detect("  Hej då! ");
        assertEquals(1, detection.windows());
        assertEquals(ReleasedModel.LANGUAGES, List.copyOf(detection.probabilities().keySet()));
    }

    @Test
    void aVeryLongTextGetsAtMostTheMaximumWindowsSpreadOverAllOfIt() {
        String english = String.join(" ", ReleasedModel.SENTENCES.get("en"));
        String swedishEnding = String.join(" ", ReleasedModel.SENTENCES.get("sv"));
        String text = (english + " ").repeat(2_000) + swedishEnding;   // ~330,000 characters
        TextDetector.Plan plan = detector.plan(text);
        int maximum = ReleasedModel.DEFAULTS.maxWindowsPerText();
        assertEquals(maximum, plan.windows());
        assertEquals(0, plan.starts()[0]);
        assertEquals(plan.normalised().length() - window(), plan.starts()[maximum - 1], "the last window ends where the text ends");
        Detection detection = detector.detect(text);
        assertEquals(maximum, detection.windows());
        assertEquals("en", detection.language());
    }

    @Test
    void windowsStartEveryStrideAndTheLastOneEndsWithTheText() {
        TextDetector strided = new TextDetector(detector.classifier(), detector.languages(), window(), detector.alphabet(), new TextDetector.Options(5, 256, 64, true));
        assertArrayEquals(new int[] {0, 5, 10}, strided.plan("abcdefghijklmnopqrstuvwxyz").starts());   // 26 characters: 10 = 26 − 16
        assertArrayEquals(new int[] {0, 5}, strided.plan("abcdefghijklmnopqrstu").starts());            // 21 characters: 5 = 21 − 16
        assertArrayEquals(new int[] {0, 5, 8}, strided.plan("abcdefghijklmnopqrstuvwx").starts());       // 24 characters: 8 = 24 − 16
        assertArrayEquals(new int[] {0}, strided.plan("abcdefghijklmnop").starts());
    }

    @Test
    void textInCapitalsIsReadAsItsLowerCaseUnlessFoldingIsOff() {
        String lower = "wir haben das ganze wochenende die kuche gestrichen.";
        Detection capitals = detector.detect(lower.toUpperCase(java.util.Locale.ROOT));
        Detection asLower = detector.detect(lower);
        assertEquals("de", capitals.language());
        ReleasedModel.assertProbabilitiesClose(asLower, capitals, 0.0);

        TextDetector asWritten = new TextDetector(detector.classifier(), detector.languages(), window(), detector.alphabet(),
                new TextDetector.Options(TextDetector.DEFAULT_STRIDE, 256, TextDetector.DEFAULT_BATCH, false));
        Detection unfolded = asWritten.detect(lower.toUpperCase(java.util.Locale.ROOT));
        assertFalse(Math.abs(unfolded.confidence() - capitals.confidence()) < 1e-6
                        && unfolded.probabilities().equals(capitals.probabilities()),
                "without folding, capitals are read as written: other probabilities");
        assertEquals(asLower, asWritten.detect(lower), "text with small letters does not depend on folding");
    }

    @Test
    void aBatchGivesEachTextWhatItGetsAlone() {
        List<String> texts = new ArrayList<>(ReleasedModel.withShortAndMixedTexts());
        texts.add(2, "");
        texts.add("Привет");
        List<Detection> batched = detector.detectAll(texts);
        assertEquals(texts.size(), batched.size());
        for (int i = 0; i < texts.size(); i++) {
            ReleasedModel.assertAgree(detector.detect(texts.get(i)), batched.get(i), texts.get(i));
        }
    }

    @Test
    void batchesSplitAcrossThreadsGiveWhatOneThreadGives() {
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < 1_200; i++) {   // over 512 texts and several batches: the detector's own threads share the work
            List<String> sentences = ReleasedModel.SENTENCES.get(ReleasedModel.LANGUAGES.get(i % 8));
            texts.add(sentences.get(i % 3) + (i % 5 == 0 ? "" : " " + i));
        }
        try (ServingModel parallel = ServingModel.load(ReleasedModel.REGISTRY, ReleasedModel.DEFAULTS, 1, 2, true)) {
            assertEquals(detector.detectAll(texts), parallel.detector().detectAll(texts));
        }
    }

    @Test
    void concurrentCallersGetWhatOneCallerGets() throws Exception {
        List<String> texts = ReleasedModel.withShortAndMixedTexts();
        List<Detection> expected = detector.detectAll(texts);
        ExecutorService callers = Executors.newFixedThreadPool(4);
        try {
            List<Future<List<Detection>>> results = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                results.add(callers.submit(() -> detector.detectAll(texts)));
            }
            for (Future<List<Detection>> result : results) {
                List<Detection> answer = result.get();
                for (int i = 0; i < texts.size(); i++) {
                    assertEquals(expected.get(i), answer.get(i), "the same batch gives the same answer on any thread: " + texts.get(i));
                }
            }
        } finally {
            callers.shutdownNow();
        }
    }

    @Test
    void aTextsProbabilitiesAreTheRenormalisedMeanOfItsWindowsLogProbabilities() {
        String text = "Bonjour, how are you? Gut, danke. Hasta luego!";   // windows that disagree: mean, sum and average differ
        try (ServingModel asTrained = ReleasedModel.load(false)) {
            TextDetector exact = asTrained.detector();
            String normalised = org.langid.text.TextNormalizer.normalize(text);
            int window = window();
            int classes = exact.languages().size();
            TextDetector.Plan plan = exact.plan(text);
            double[] meanLog = new double[classes];
            for (int start : plan.starts()) {
                int[] symbols = new int[window];
                for (int j = 0; j < window; j++) {
                    symbols[j] = org.langid.text.Vocabulary.indexOf(normalised.charAt(start + j));
                }
                float[] probabilities = exact.classifier().probabilities(symbols, 1);
                for (int c = 0; c < classes; c++) {
                    meanLog[c] += Math.log(probabilities[c]) / plan.windows();
                }
            }
            double total = Arrays.stream(meanLog).map(Math::exp).sum();
            Detection detection = exact.detect(text);
            assertEquals(plan.windows(), detection.windows());
            for (int c = 0; c < classes; c++) {
                String language = exact.languages().get(c);
                assertEquals(Math.exp(meanLog[c]) / total, detection.probabilities().get(language), 1e-5, language);
            }
        }
    }

    @Test
    void optionsBelowOneAreRefused() {
        for (int[] values : new int[][] {{0, 256, 256}, {4, 0, 256}, {4, 256, 0}}) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> new TextDetector.Options(values[0], values[1], values[2], true));
            assertEquals("stride, max windows per text and batch size must each be at least 1", refused.getMessage());
        }
    }

    @Test
    void aDetectionAsJsonHasTheFieldsPredictAndServeWrite() {
        Detection detection = detector.detect(ReleasedModel.SENTENCES.get("it").get(0));
        var json = detection.toJson();
        assertEquals(List.of("language", "confidence", "probabilities", "windows"), fieldNames(json));
        assertEquals("it", json.get("language").asText());
        assertEquals(detection.confidence(), json.get("confidence").asDouble());
        assertEquals(ReleasedModel.LANGUAGES, fieldNames(json.get("probabilities")));
        assertEquals(detection.windows(), json.get("windows").asInt());
    }

    private static int window() {
        return model.manifest().get("window").asInt();
    }

    private static List<String> languagesOf(ServingModel serving) {
        List<String> languages = new ArrayList<>();
        serving.manifest().get("languages").forEach(language -> languages.add(language.asText()));
        return languages;
    }

    private static List<String> fieldNames(com.fasterxml.jackson.databind.JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
