package org.langid.jobs.evaluate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The languages of a restricted evaluation ({@code evaluate --languages}), and how a model's und class stays in them. */
class LanguageSubsetTest {

    private static final List<String> WITH_UND = List.of("en", "de", "fr", "und");

    @Test
    void aSubsetIsInTheModelsOrderAndKeepsTheUndClassAsAnAnswerNotAsItems() {
        LanguageSubset subset = LanguageSubset.of(WITH_UND, List.of("fr", "en", "fr"));
        assertEquals(List.of("en", "fr"), subset.languages(), "the model's order, each once");
        assertTrue(subset.restricted());
        assertArrayEquals(new boolean[] {true, false, true, true}, subset.answering(), "und answers in every subset, as TextDetector does");
        assertEquals(List.of("en", "fr", "und"), subset.answeringLanguages());
        assertArrayEquals(new int[] {0, 2, 1, 2}, subset.indexOfClass(), "de and und are outside the languages scored: a decline");
        assertTrue(subset.answersUndOutside());

        // A window whose most probable class is outside the subset gets the best of the subset's, und included.
        float[] row = {0.1f, 0.5f, 0.15f, 0.25f};
        assertEquals(3, ModelCandidate.best(row, 0, subset.answering()), "und beats fr");
        assertEquals(1, ModelCandidate.best(row, 0, LanguageSubset.all(WITH_UND).answering()), "unrestricted: de");
        assertEquals(2, ModelCandidate.best(row, 0, LanguageSubset.of(List.of("en", "de", "fr"), List.of("en", "fr")).answering()),
                "without an und class: fr");

        LanguageSubset withUnd = LanguageSubset.of(WITH_UND, List.of("en", "de", "und"));
        assertFalse(withUnd.answersUndOutside(), "und named: its items are scored, its answers are a language");
        assertArrayEquals(new int[] {0, 1, 3, 2}, withUnd.indexOfClass());
        assertFalse(LanguageSubset.all(WITH_UND).restricted());
    }

    @Test
    void anUnknownCodeOrFewerThanTwoLanguagesIsAnErrorNamingIt() {
        assertEquals("--languages: 'xx' is not one of the model's languages (en, de, fr, und)",
                assertThrows(IllegalArgumentException.class, () -> LanguageSubset.of(WITH_UND, List.of("en", "xx"))).getMessage());
        assertEquals("--languages needs at least two of the model's languages to choose between, got en",
                assertThrows(IllegalArgumentException.class, () -> LanguageSubset.of(WITH_UND, List.of("en", "en"))).getMessage());
        assertEquals("--languages needs at least two of the model's languages to choose between, got en,und",
                assertThrows(IllegalArgumentException.class, () -> LanguageSubset.of(WITH_UND, List.of("en", "und"))).getMessage(),
                "und is no language to choose");
    }

    @Test
    void linguaIsNarrowedToTheSubset() {
        List<String> model = List.of("en", "de", "fr", "es");
        String french = "Tous les êtres humains naissent libres et égaux en dignité et en droits.";
        assertEquals(2, new LinguaCandidate(model, 1).predict(french));
        LinguaCandidate restricted = new LinguaCandidate(LanguageSubset.of(model, List.of("en", "de")), 1);
        assertTrue(restricted.predict(french) <= 2, "en, de or declined (2), never fr or es");
        assertEquals(1, restricted.predict("Alle Menschen sind frei und gleich an Würde und Rechten geboren."));
        assertTrue(restricted.description().contains("restricted to the languages evaluated"), restricted.description());
    }
}
