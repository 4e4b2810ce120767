package org.langid.model.data;

/**
 * SplitMix64's finaliser: spreads any 64-bit key over all 64 bits, so nearby keys (ids, steps,
 * positions) give unrelated values. Used where a draw must be a pure function of its keys, not of
 * a generator's position: the train/validation/test split, case augmentation, report examples.
 */
public final class Mix64 {

    private Mix64() {
    }

    /** The mixed key. */
    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** A uniform double in [0, 1) from the key's top 53 bits after mixing. */
    public static double unit(long z) {
        return (mix(z) >>> 11) * 0x1.0p-53;
    }
}
