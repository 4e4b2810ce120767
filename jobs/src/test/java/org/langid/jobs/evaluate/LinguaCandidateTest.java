package org.langid.jobs.evaluate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class LinguaCandidateTest {

    @Test
    void linguaAnswersTheLanguagesItKnowsAndNamesTheOthers() {
        LinguaCandidate lingua = new LinguaCandidate(List.of("en", "gl", "zh-TW", "de"), 1);
        assertEquals(List.of("gl", "zh-TW"), lingua.unknownLanguages(), "no Galician in Lingua 1.2.2; regional forms are not its codes");
        assertEquals(3, lingua.predict("Das ist ein kleines Haus am Rande der Stadt."), "indices stay the model's");
        assertEquals(0, lingua.predict("This is a small house at the edge of the town."));
        assertTrue(lingua.description().contains("(not gl, zh-TW)"), lingua.description());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new LinguaCandidate(List.of("en", "gl"), 1));
        assertTrue(e.getMessage().contains("knows 1 of the model's languages"), e.getMessage());
    }
}
