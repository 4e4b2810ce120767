package org.langid.model.data;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Assigns sentences to train / validation / test by a hash of the sentence itself, so the
 * assignment is deterministic, independent of order and partitioning, and every window of a
 * sentence lands in the sentence's split (the seed shuffles windows instead, which puts
 * overlapping windows of one sentence into both its training and its test data).
 */
public final class SentenceSplitter implements java.io.Serializable {

    private static final long serialVersionUID = 1L;

    private final double trainFraction;
    private final double validationFraction;
    private final long seed;

    public SentenceSplitter(double trainFraction, double validationFraction, long seed) {
        if (!(trainFraction > 0) || validationFraction < 0 || trainFraction + validationFraction > 1.0 + 1e-9) {
            throw new IllegalArgumentException(String.format(
                    "split fractions must satisfy train > 0, validation >= 0, train + validation <= 1; got train %s, validation %s",
                    trainFraction, validationFraction));
        }
        this.trainFraction = trainFraction;
        this.validationFraction = validationFraction;
        this.seed = seed;
    }

    /**
     * A stable 64-bit identity of a normalised sentence within a language: the first 8 bytes of
     * SHA-256("lang" NUL "sentence"). Independent of the split seed.
     */
    public static long sentenceId(String language, String normalisedSentence) {
        MessageDigest sha256;
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
        sha256.update(language.getBytes(StandardCharsets.UTF_8));
        sha256.update((byte) 0);
        byte[] digest = sha256.digest(normalisedSentence.getBytes(StandardCharsets.UTF_8));
        long id = 0;
        for (int i = 0; i < 8; i++) {
            id = (id << 8) | (digest[i] & 0xFF);
        }
        return id;
    }

    /** The split of the sentence with this id. */
    public Split splitOf(long sentenceId) {
        double u = uniform(sentenceId, seed);
        if (u < trainFraction) {
            return Split.TRAIN;
        }
        return u < trainFraction + validationFraction ? Split.VALIDATION : Split.TEST;
    }

    /** A uniform number in [0, 1) from an id and a seed ({@link Mix64}). */
    static double uniform(long id, long seed) {
        return Mix64.unit(id ^ (seed * 0x9E3779B97F4A7C15L));
    }
}
