package org.langid.model.train;

import java.util.SplittableRandom;

/** The order windows are visited in: a permutation that is a function of (seed, epoch) only. */
public final class Shuffle {

    private Shuffle() {
    }

    public static int[] permutation(int n, long seed, int epoch) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + epoch);
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int swap = order[i];
            order[i] = order[j];
            order[j] = swap;
        }
        return order;
    }
}
