package org.langid.model.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.langid.model.TestConfigs;
import org.langid.text.Alphabet;

class NgramFilterTest {

    private static final int T = 16;

    @Test
    void everyNgramOfTheWindowsItWasMadeFromPassesAndMostOthersDoNot() {
        int[] seen = randomWindows(500, 1);
        NgramFilter filter = NgramFilter.empty(1 << 20);
        filter.addAll(Alphabet.SEED, seen, 500, T, 6);
        int[] ids = CharacterNgrams.buckets(Alphabet.SEED, seen, 500, T, 6, 1000, filter);
        int[] unfiltered = CharacterNgrams.buckets(Alphabet.SEED, seen, 500, T, 6, 1000, null);
        assertArrayEqualsBy(unfiltered, ids);

        int[] other = randomWindows(500, 2);
        long passed = 0;
        long real = 0;
        long longPassed = 0;
        long longReal = 0;
        int[] otherIds = CharacterNgrams.buckets(Alphabet.SEED, other, 500, T, 6, 1000, filter);
        int[] otherUnfiltered = CharacterNgrams.buckets(Alphabet.SEED, other, 500, T, 6, 1000, null);
        for (int i = 0; i < otherIds.length; i++) {
            if (otherUnfiltered[i] != CharacterNgrams.NONE) {
                boolean passes = otherIds[i] != CharacterNgrams.NONE;
                real++;
                passed += passes ? 1 : 0;
                if (i % 5 >= 2) {   // orders 4-6: 68⁴ and more of them, so a random one is (almost surely) unseen
                    longReal++;
                    longPassed += passes ? 1 : 0;
                }
                if (passes) {
                    assertEquals(otherUnfiltered[i], otherIds[i], "a passing n-gram keeps its bucket");
                }
            }
        }
        // Random 2-grams repeat (68² of them), longer ones hardly: about the 2-grams and the false positives pass.
        double share = (double) passed / real;
        assertTrue(share > 0.15 && share < 0.3, "share of the other windows' n-grams passing: " + share);
        // Unseen n-grams pass by chance with the share of bits set, as the filter says of itself.
        double longShare = (double) longPassed / longReal;
        assertEquals(filter.falsePositiveRate(), longShare, 0.005, "unseen 4- to 6-grams passing");
        assertTrue(filter.falsePositiveRate() > 0.02 && filter.falsePositiveRate() < 0.05, "bits set: " + filter.falsePositiveRate());
        java.util.Set<Long> codes = new java.util.HashSet<>();
        CharacterNgrams.forEachCode(Alphabet.SEED, seen, 500, T, 6, (index, code) -> {
            if (code >= 0) {
                codes.add(code);
            }
        });
        assertTrue(Math.abs(filter.estimatedNgrams() - codes.size()) < 0.03 * codes.size(),
                "estimated " + filter.estimatedNgrams() + " distinct n-grams, counted " + codes.size());
    }

    @Test
    void theBitIsTheDocumentedHash() {
        long code = 3 * CharacterNgrams.powers(Alphabet.SEED)[CharacterNgrams.MAX_ORDER] + 5 + 7 * CharacterNgrams.SEED_BASE + 11 * CharacterNgrams.SEED_BASE * CharacterNgrams.SEED_BASE;
        long expected = ((code % 2147483647L) * 1597334677L % 2147483647L) % 4096;
        assertEquals(expected, NgramFilter.bit(code, 4096));
        NgramFilter filter = NgramFilter.empty(4096);
        assertFalse(filter.mayContain(code));
        filter.add(code);
        assertTrue(filter.mayContain(code));
        assertEquals(1, filter.bitsSet());
        assertEquals(1 << (expected % 8), filter.bytes()[(int) (expected / 8)] & 0xFF, "byte bit / 8, least significant bit first");
    }

    @Test
    void itLivesInTheInferenceGraphAndOnlyWithItsSize() {
        ModelConfig config = TestConfigs.model();
        config.languages = java.util.List.of("en", "de");
        config.ngramBuckets = 97;
        config.ngramFilterBits = 1 << 12;
        NgramFilter filter = NgramFilter.empty(1 << 12);
        filter.addAll(Alphabet.SEED, randomWindows(20, 3), 20, T, config.ngramMaxOrder);
        org.nd4j.linalg.api.ndarray.INDArray parameters = ParameterLayout.of(config).initialise(1, org.nd4j.linalg.api.buffer.DataType.FLOAT);
        assertEquals(filter, LanguageIdGraph.filter(config, LanguageIdGraph.build(config, parameters, filter).sameDiff()));
        assertThrows(IllegalArgumentException.class, () -> LanguageIdGraph.build(config, parameters));
        assertThrows(IllegalArgumentException.class, () -> LanguageIdGraph.build(config, parameters, NgramFilter.empty(1 << 13)));
        config.ngramFilterBits = 12;
        assertTrue(config.problems().stream().anyMatch(p -> p.contains("ngram_filter_bits")), config.problems().toString());
    }

    private static int[] randomWindows(int rows, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int[] symbols = new int[rows * T];
        for (int i = 0; i < symbols.length; i++) {
            symbols[i] = random.nextInt(Alphabet.SEED.pad());
        }
        return symbols;
    }

    private static void assertArrayEqualsBy(int[] expected, int[] actual) {
        assertEquals(expected.length, actual.length);
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], actual[i], "n-gram " + i + " of a window the filter was made from");
        }
    }
}
