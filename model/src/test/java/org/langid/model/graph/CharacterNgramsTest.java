package org.langid.model.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.langid.text.Alphabet;

class CharacterNgramsTest {

    private static final int PAD = Alphabet.SEED.pad();

    @Test
    void eachPositionGetsTheNgramsEndingThereAndNoneThatLeaveTheWindow() {
        int[] window = {5, 6, 7, 8, PAD};
        int[] ids = CharacterNgrams.buckets(Alphabet.SEED, window, 1, 5, 4, 4096, null);   // orders 2, 3, 4 per position
        int none = CharacterNgrams.NONE;
        assertArrayEquals(new int[] {none, none, none}, java.util.Arrays.copyOfRange(ids, 0, 3), "position 0: nothing ends there");
        assertTrue(ids[3] >= 0 && ids[4] == none && ids[5] == none, "position 1: only the bigram");
        assertTrue(ids[6] >= 0 && ids[7] >= 0 && ids[8] == none, "position 2: bigram and trigram");
        assertTrue(ids[9] >= 0 && ids[10] >= 0 && ids[11] >= 0, "position 3: all three");
        assertArrayEquals(new int[] {none, none, none}, java.util.Arrays.copyOfRange(ids, 12, 15), "the padding position: nothing");
        // The bucket is the n-gram's, wherever it stands: "6 7" at position 2 of this window and 1 of another.
        int[] shifted = CharacterNgrams.buckets(Alphabet.SEED, new int[] {6, 7, 1, 2, 3}, 1, 5, 4, 4096, null);
        assertEquals(ids[6], shifted[3]);
        assertEquals(CharacterNgrams.bucket(2 * CharacterNgrams.powers(Alphabet.SEED)[CharacterNgrams.MAX_ORDER] + 7 + 6 * CharacterNgrams.SEED_BASE, 4096), ids[6]);
    }

    @Test
    void ordersAndSymbolOrderGiveDifferentCodes() {
        // "5 6" and "6 5" differ; the bigram "0 6" and the trigram "0 0 6" too, though their sums agree.
        int[] a = CharacterNgrams.buckets(Alphabet.SEED, new int[] {5, 6, 0, 0, 6}, 1, 5, 3, 1 << 20, null);
        int[] b = CharacterNgrams.buckets(Alphabet.SEED, new int[] {6, 5, 0, 0, 6}, 1, 5, 3, 1 << 20, null);
        assertNotEquals(a[2], b[2]);
        assertNotEquals(a[8], a[9], "bigram and trigram ending at position 4");
    }

    @Test
    void embeddingSumsTheSelectedRowsAndScatterIsItsTranspose() {
        int d = 2;
        double[] table = {1, 2, 10, 20, 100, 200};
        int[] ids = {0, 2, CharacterNgrams.NONE, 1};      // 2 positions × 2 orders
        double[] embedded = CharacterNgrams.embed(ids, 2, 2, table, d);
        assertArrayEquals(new double[] {101, 202, 10, 20}, embedded);
        double[] gradient = new double[6];
        CharacterNgrams.scatter(ids, 2, 2, new double[] {1, -1, 3, 5}, d, gradient);
        assertArrayEquals(new double[] {1, -1, 3, 5, 1, -1}, gradient);
    }

    @Test
    void ngramDropoutDropsWholeNgramsAtItsRateAndNothingElse() {
        java.util.SplittableRandom symbolsRandom = new java.util.SplittableRandom(1);
        int rows = 400;
        int[] symbols = new int[rows * 16];
        for (int i = 0; i < symbols.length; i++) {
            symbols[i] = i % 16 >= 13 && i / 16 % 4 == 0 ? PAD : symbolsRandom.nextInt(68);   // some padded windows
        }
        int[] ids = CharacterNgrams.buckets(Alphabet.SEED, symbols, rows, 16, 6, 1 << 18, null);
        int[] dropped = ids.clone();
        CharacterNgrams.dropNgrams(dropped, 0.3, new java.util.SplittableRandom(42));
        int selected = 0;
        int kept = 0;
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] == CharacterNgrams.NONE) {
                assertEquals(CharacterNgrams.NONE, dropped[i], "an n-gram that selected nothing still selects nothing");
            } else {
                selected++;
                if (dropped[i] != CharacterNgrams.NONE) {
                    assertEquals(ids[i], dropped[i], "a kept n-gram keeps its bucket");
                    kept++;
                }
            }
        }
        assertEquals(0.7, (double) kept / selected, 0.01, kept + " of " + selected + " kept");
        int[] again = ids.clone();
        CharacterNgrams.dropNgrams(again, 0.3, new java.util.SplittableRandom(42));
        assertArrayEquals(dropped, again, "the same draw drops the same n-grams");
    }
}
