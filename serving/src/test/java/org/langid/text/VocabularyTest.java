package org.langid.text;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class VocabularyTest {

    @Test
    void hasTheSeedsSixtyEightSymbolsInTheSeedsOrder() {
        assertEquals(68, Vocabulary.SIZE);
        // The seed's example: "by Tang Zaiyang," is [1, 24, 62, 45, 0, 13, 6, 62, 51, 0, 8, 24, 0, 13, 6, 64].
        assertArrayEquals(new byte[] {1, 24, 62, 45, 0, 13, 6, 62, 51, 0, 8, 24, 0, 13, 6, 64},
                Vocabulary.encode("by Tang Zaiyang,"));
        assertEquals("by Tang Zaiyang,", Vocabulary.decode(Vocabulary.encode("by Tang Zaiyang,")));
        assertEquals(67, Vocabulary.indexOf('!'));
    }

    @Test
    void refusesCharactersOutsideTheVocabulary() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Vocabulary.indexOf('é'));
        assertEquals("character U+00E9 is not in the vocabulary", e.getMessage());
    }
}
