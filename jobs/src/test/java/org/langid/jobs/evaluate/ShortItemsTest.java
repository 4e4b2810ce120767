package org.langid.jobs.evaluate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.langid.text.Alphabet;

/** How word pairs and single words are cut from a sentence, and the calibration error of a hand-made set of answers. */
class ShortItemsTest {

    private static final String SENTENCE = "Hello, World! It's 2024: the well-known e-mail address (l'homme).";

    @Test
    void wordsAreLowerCaseRunsOfLettersWithoutPunctuationOrDigits() {
        assertEquals(List.of("hello", "world", "it's", "the", "well-known", "e-mail", "address", "l'homme"), texts(SENTENCE));
        assertEquals(List.of("ete", "déjà", "vu"), texts("  ETE -- déjà'  vu'"), "a hyphen or apostrophe not between two letters goes");
        assertEquals(List.of("ça", "été", "ß"), texts("Ça été ... ẞ"), "letters of any Latin form, marks kept, lower case of the root locale");
        assertEquals(List.of(), texts("2024 -- 3.14 !!"));
    }

    @Test
    void aSingleWordHasFourLettersAndAPairIsTwoConsecutiveWordsOfTheSentence() {
        Set<String> words = new TreeSet<>();
        Set<String> pairs = new TreeSet<>();
        for (long seed = 0; seed < 400; seed++) {
            ShortItems.Cut cut = ShortItems.cut(SENTENCE, seed, text -> true);
            words.add(cut.word());
            pairs.add(cut.pair());
        }
        assertEquals(Set.of("hello", "world", "well-known", "e-mail", "address", "l'homme"), words, "every word of 4 letters or more, no other");
        assertEquals(Set.of("hello world", "world it's", "it's the", "the well-known", "well-known e-mail", "e-mail address",
                "address l'homme"), pairs, "every two consecutive words, one space between");
        assertNull(ShortItems.cut("a la", 1, text -> true).pair(), "a pair needs 4 letters");
        assertEquals("de la", ShortItems.cut("de la", 1, text -> true).pair());
        assertNull(ShortItems.cut("Un sol.", 1, text -> true).word(), "no word of 4 letters");
        assertEquals(new ShortItems.Cut(null, null), ShortItems.cut("42 !", 1, text -> true));
    }

    @Test
    void theSameSentenceAndSeedGiveTheSameItemsAndOtherSeedsOthers() {
        String sentence = "Alle Menschen sind frei und gleich an Würde und Rechten geboren und mit Vernunft begabt";
        Set<ShortItems.Cut> cuts = new java.util.HashSet<>();
        for (long seed = 0; seed < 20; seed++) {
            ShortItems.Cut cut = ShortItems.cut(sentence, seed, text -> true);
            assertEquals(cut, ShortItems.cut(sentence, seed, text -> true));
            cuts.add(cut);
        }
        assertTrue(cuts.size() > 10, "seeds choose different items: " + cuts);
    }

    @Test
    void onlyItemsTheDetectorCanReadAreCandidates() {
        for (long seed = 0; seed < 50; seed++) {
            // Greek: no letters the seed alphabet reads; "καλημέρα hello" has more of them than of Latin.
            ShortItems.Cut cut = ShortItems.cut("Καλημέρα hello world", seed, Alphabet.SEED::readsMostLetters);
            assertEquals("hello world", cut.pair());
            assertTrue(cut.word().equals("hello") || cut.word().equals("world"), cut.toString());
        }
    }

    @Test
    void scriptsWrittenWithoutSpacesAreCutIntoPiecesOfTwoToFourLetters() {
        String chinese = "我们今天去北京看看，好吗？";
        Set<String> words = new TreeSet<>();
        Set<String> pairs = new TreeSet<>();
        for (long seed = 0; seed < 200; seed++) {
            List<ShortItems.Token> tokens = ShortItems.tokens(chinese, new SplittableRandom(seed));
            StringBuilder first = new StringBuilder();
            for (ShortItems.Token token : tokens) {
                assertTrue(token.isPiece());
                if (token.run() == 0) {
                    first.append(token.text());
                }
            }
            assertEquals("我们今天去北京看看", first.toString(), "the pieces of a run are the run");
            assertEquals("好吗", tokens.get(tokens.size() - 1).text());
            for (int i = 0; i < tokens.size() - 2; i++) {
                int letters = tokens.get(i).letters();
                assertTrue(letters >= ShortItems.MIN_PIECE && letters <= ShortItems.MAX_PIECE, tokens.toString());
            }
            ShortItems.Cut cut = ShortItems.cut(chinese, seed, text -> true);
            words.add(cut.word());
            pairs.add(cut.pair());
        }
        for (String word : words) {
            assertTrue(word.length() >= 2 && word.length() <= 4 && chinese.contains(word), word);
        }
        for (String pair : pairs) {
            assertTrue(chinese.contains(pair) || pair.endsWith(" 好吗") && chinese.contains(pair.substring(0, pair.length() - 3)),
                    "pieces of one run join as written, of two runs with a space: " + pair);
        }
        assertTrue(pairs.stream().anyMatch(p -> p.endsWith(" 好吗")), pairs.toString());
        // Thai: a vowel sign (a combining mark) stays with its letter.
        for (long seed = 0; seed < 50; seed++) {
            for (ShortItems.Token token : ShortItems.tokens("สวัสดีครับ", new SplittableRandom(seed))) {
                assertTrue(Character.isLetter(token.text().codePointAt(0)), "a piece starts with a letter: " + token);
            }
        }
    }

    @Test
    void aFallbackSymbolOfTheModelsAlphabetCountsAsALetter() {
        char greek = Alphabet.fallbackOf(Character.UnicodeScript.GREEK);
        assertEquals(List.of("ab" + greek + greek + "cd", "x" + greek), texts("ab" + greek + greek + "cd, x" + greek));
    }

    @Test
    void theCalibrationErrorOfAHandMadeSetOfAnswers() {
        int declined = 3;
        // Bin 0.9-1: 4 answers at 0.95, 3 right; bin 0.5-0.6: 2 at 0.55, 1 right; bin 0.3-0.4: 1 at 0.3, wrong; one declined.
        int[] truth = {0, 1, 2, 0, 1, 1, 2, 0};
        int[] predicted = {0, 1, 0, 0, 1, 2, 1, declined};
        double[] confidence = {0.95, 0.95, 0.95, 0.95, 0.55, 0.55, 0.30, 0};
        Calibration calibration = new Calibration(truth, predicted, confidence, declined);
        double expected = (4 * Math.abs(0.75 - 0.95) + 2 * Math.abs(0.5 - 0.55) + Math.abs(0 - 0.30)) / 7;
        assertEquals(expected, calibration.ece(), 1e-12);
        assertEquals(7, calibration.count());
        var json = calibration.toJson();
        assertEquals(10, json.path("bins").asInt());
        assertEquals(1, json.path("declined").asLong());
        assertEquals(4.0 / 7, json.path("accuracy").asDouble(), 1e-12);
        assertEquals(4, json.at("/per_bin/9/count").asLong());
        assertEquals(0.75, json.at("/per_bin/9/accuracy").asDouble(), 1e-12);
        assertEquals(0.3, json.at("/per_bin/3/mean_confidence").asDouble(), 1e-12);
        assertTrue(json.at("/per_bin/0").has("count") && !json.at("/per_bin/0").has("accuracy"), "an empty bin has no mean");

        // Right 80% of the times it says 0.8, always when it says 1.0 (the last bin holds 1.0): calibrated.
        Calibration calibrated = new Calibration(new int[] {0, 0, 0, 0, 0, 1}, new int[] {0, 0, 0, 0, 1, 1},
                new double[] {0.8, 0.8, 0.8, 0.8, 0.8, 1.0}, 2);
        assertEquals(0, calibrated.ece(), 1e-12);
        assertEquals(1, calibrated.toJson().at("/per_bin/9/count").asLong());
    }

    private static List<String> texts(String sentence) {
        List<String> out = new ArrayList<>();
        ShortItems.tokens(sentence, new SplittableRandom(1)).forEach(t -> out.add(t.text()));
        return out;
    }
}
