package org.langid.model.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class Mix64Test {

    /** The JDK's SplittableRandom is SplitMix64: its first draw from a seed is mix(seed + golden gamma). */
    @Test
    void matchesTheJdkSplitMix64() {
        for (long seed : new long[] {0L, 1L, -1L, 20261121L, Long.MIN_VALUE, 0x123456789ABCDEFL}) {
            assertEquals(new SplittableRandom(seed).nextLong(), Mix64.mix(seed + 0x9E3779B97F4A7C15L), "seed " + seed);
        }
        assertEquals(0xE220A8397B1DCDAFL, Mix64.mix(0x9E3779B97F4A7C15L), "published first SplitMix64 output for seed 0");
    }

    @Test
    void unitIsInTheHalfOpenIntervalAndSpreadsConsecutiveKeys() {
        int[] tenths = new int[10];
        for (long key = 0; key < 100_000; key++) {
            double u = Mix64.unit(key);
            assertTrue(u >= 0.0 && u < 1.0, "unit(" + key + ") = " + u);
            tenths[(int) (u * 10)]++;
        }
        for (int count : tenths) {
            assertTrue(Math.abs(count - 10_000) < 500, "consecutive keys fall evenly into tenths: " + java.util.Arrays.toString(tenths));
        }
    }
}
