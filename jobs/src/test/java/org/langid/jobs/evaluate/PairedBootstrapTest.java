package org.langid.jobs.evaluate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The interval a report puts beside "the model is x points ahead of fastText": exact where the
 * answer is certain, wider when the differences sit in a few sentences than when they are spread
 * over many, and the same on every run.
 */
class PairedBootstrapTest {

    /** 100 sentences of 10 windows each, all labelled 0. */
    private static final int SENTENCES = 100;
    private static final int WINDOWS_PER_SENTENCE = 10;

    @Test
    void identicalAnswersLeadByNothingAndCertainAnswersByEverything() {
        int[] truth = new int[SENTENCES * WINDOWS_PER_SENTENCE];
        int[] right = truth.clone();
        int[] wrong = new int[truth.length];
        Arrays.fill(wrong, 1);
        PairedBootstrap.Clusters clusters = bySentence();

        PairedBootstrap.Lead same = PairedBootstrap.lead(truth, right, right.clone(), clusters);
        assertEquals(new PairedBootstrap.Lead(0, 0, 0, SENTENCES, PairedBootstrap.RESAMPLES), same);
        PairedBootstrap.Lead all = PairedBootstrap.lead(truth, right, wrong, clusters);
        assertEquals(new PairedBootstrap.Lead(1, 1, 1, SENTENCES, PairedBootstrap.RESAMPLES), all);
        PairedBootstrap.Lead none = PairedBootstrap.lead(truth, wrong, right, clusters);
        assertEquals(-1, none.difference());
    }

    @Test
    void differencesInAFewSentencesAreLessSureThanTheSameNumberSpreadOverMany() {
        int[] truth = new int[SENTENCES * WINDOWS_PER_SENTENCE];
        int[] model = truth.clone();
        // The peer misses 100 of the 1,000 windows either way: all ten windows of ten sentences ...
        int[] concentrated = truth.clone();
        for (int i = 0; i < 10 * WINDOWS_PER_SENTENCE; i++) {
            concentrated[i] = 1;
        }
        // ... or one window in each of the hundred sentences.
        int[] spread = truth.clone();
        for (int s = 0; s < SENTENCES; s++) {
            spread[s * WINDOWS_PER_SENTENCE] = 1;
        }
        PairedBootstrap.Lead few = PairedBootstrap.lead(truth, model, concentrated, bySentence());
        PairedBootstrap.Lead many = PairedBootstrap.lead(truth, model, spread, bySentence());

        assertEquals(0.1, few.difference(), 1e-12);
        assertEquals(0.1, many.difference(), 1e-12);
        assertEquals(0.1, many.low(), 1e-12, "one miss per sentence in every resample: no spread at all");
        assertEquals(0.1, many.high(), 1e-12);
        assertTrue(few.low() < 0.06 && few.high() > 0.14, "ten sentences decide it: " + few);
        assertTrue(few.low() <= few.difference() && few.difference() <= few.high());

        // Windows resampled one by one would claim far more certainty than the sentences give.
        PairedBootstrap.Lead asIfIndependent = PairedBootstrap.lead(truth, model, concentrated);
        assertEquals(SENTENCES * WINDOWS_PER_SENTENCE, asIfIndependent.clusters());
        assertTrue(asIfIndependent.high() - asIfIndependent.low() < 0.6 * (few.high() - few.low()),
                "by window " + asIfIndependent + ", by sentence " + few);
    }

    @Test
    void theSameAnswersGiveTheSameIntervalOnEveryRun() {
        int[] truth = new int[SENTENCES * WINDOWS_PER_SENTENCE];
        int[] model = truth.clone();
        int[] peer = truth.clone();
        java.util.SplittableRandom random = new java.util.SplittableRandom(3);
        for (int i = 0; i < truth.length; i++) {
            model[i] = random.nextInt(10) == 0 ? 1 : 0;
            peer[i] = random.nextInt(8) == 0 ? 1 : 0;
        }
        PairedBootstrap.Lead first = PairedBootstrap.lead(truth, model, peer, bySentence());
        assertEquals(first, PairedBootstrap.lead(truth, model, peer, bySentence()));
        assertNotEquals(first.low(), first.high());
        long modelRight = Arrays.stream(model).filter(a -> a == 0).count();
        long peerRight = Arrays.stream(peer).filter(a -> a == 0).count();
        assertEquals((modelRight - peerRight) / (double) truth.length, first.difference(), 1e-12, "the point is the accuracies' difference");
    }

    @Test
    void sentencesAreKeyedWithTheirLanguageAndMismatchedInputsAreRefused() {
        // Sentence 7 of English and sentence 7 of German are two sentences.
        PairedBootstrap.Clusters clusters = PairedBootstrap.clustersOf(new int[] {0, 0, 1, 1, 0}, new long[] {7, 7, 7, 8, 9});
        assertEquals(4, clusters.count());
        assertEquals(clusters.ofItem()[0], clusters.ofItem()[1]);
        assertNotEquals(clusters.ofItem()[0], clusters.ofItem()[2]);

        assertThrows(IllegalArgumentException.class, () -> PairedBootstrap.lead(new int[3], new int[3], new int[2]));
        assertThrows(IllegalArgumentException.class, () -> PairedBootstrap.lead(new int[0], new int[0], new int[0]));
        assertThrows(IllegalArgumentException.class,
                () -> PairedBootstrap.lead(new int[2], new int[2], new int[2], new PairedBootstrap.Clusters(new int[] {0, 0}, 2)),
                "a cluster without items");
    }

    private static PairedBootstrap.Clusters bySentence() {
        int[] cluster = new int[SENTENCES * WINDOWS_PER_SENTENCE];
        Arrays.setAll(cluster, i -> i / WINDOWS_PER_SENTENCE);
        return new PairedBootstrap.Clusters(cluster, SENTENCES);
    }
}
