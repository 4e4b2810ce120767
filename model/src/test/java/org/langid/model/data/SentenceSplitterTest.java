package org.langid.model.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SentenceSplitterTest {

    @Test
    void fractionsHoldOnManySentences() {
        SentenceSplitter splitter = new SentenceSplitter(0.8, 0.1, 7);
        Map<Split, Integer> counts = new EnumMap<>(Split.class);
        int n = 100_000;
        for (int i = 0; i < n; i++) {
            counts.merge(splitter.splitOf(SentenceSplitter.sentenceId("en", "sentence number " + i)), 1, Integer::sum);
        }
        // Binomial standard deviation at n=100k is under 0.13 points; 0.6 points is > 4 sigma.
        assertEquals(0.8, counts.get(Split.TRAIN) / (double) n, 0.006);
        assertEquals(0.1, counts.get(Split.VALIDATION) / (double) n, 0.006);
        assertEquals(0.1, counts.get(Split.TEST) / (double) n, 0.006);
    }

    @Test
    void sameSentenceSameSplitSeedChangesTheAssignment() {
        long id = SentenceSplitter.sentenceId("de", "Das ist ein Satz.");
        assertEquals(id, SentenceSplitter.sentenceId("de", "Das ist ein Satz."));
        assertNotEquals(id, SentenceSplitter.sentenceId("nl", "Das ist ein Satz."), "the language is part of the identity");
        SentenceSplitter a = new SentenceSplitter(0.5, 0.25, 1);
        int differ = 0;
        SentenceSplitter b = new SentenceSplitter(0.5, 0.25, 2);
        for (int i = 0; i < 1000; i++) {
            long sentence = SentenceSplitter.sentenceId("en", "s" + i);
            assertEquals(a.splitOf(sentence), a.splitOf(sentence));
            differ += a.splitOf(sentence) == b.splitOf(sentence) ? 0 : 1;
        }
        assertEquals(625, differ, 60, "two seeds agree only by chance (expected 1 - (.5²+.25²+.25²) = 62.5% differ)");
    }

    @Test
    void refusesImpossibleFractions() {
        assertThrows(IllegalArgumentException.class, () -> new SentenceSplitter(0.9, 0.2, 1));
        assertThrows(IllegalArgumentException.class, () -> new SentenceSplitter(0, 0.2, 1));
    }
}
