package org.langid.model.graph;

import java.util.Arrays;
import org.langid.text.Alphabet;

/**
 * Which n-grams the model's training windows held, as a bitmap over a second hash of each
 * n-gram: an n-gram of new text that the bitmap does not hold selects no row of the n-gram table.
 *
 * <p>Why: the table has far fewer buckets than the corpus has n-grams (the release: 262,144 for
 * ~1.5 million), so every bucket was trained by several n-grams, and an n-gram training never saw
 * adds the rows of others: confident noise, most of it on unfamiliar words (bench/EXPERIMENTS.md,
 * "Model architecture and n-grams"). With the filter a window is read from the n-grams the model was
 * trained on.
 *
 * <p>The bit of an n-gram, with {@code code} as in {@link CharacterNgrams} (order included):
 * <pre>
 *   bit = (((code mod p) · 1597334677) mod p) mod bits,   p = 2³¹ − 1
 * </pre>
 * byte {@code bit / 8}, bit {@code bit mod 8} (least significant first). Integer arithmetic that
 * ONNX has too ({@code OnnxGraphWriter} tests the bit inside the graph). Every training n-gram
 * passes; an unseen one passes by chance with the share of bits set (about 1 − e^(−n/bits) for n
 * distinct n-grams).
 */
public final class NgramFilter implements java.io.Serializable {

    /** The second hash's multiplier, not the bucket's: n-grams that share a bucket rarely share a bit. */
    public static final long MIX = 1597334677L;

    private final byte[] bits;

    private NgramFilter(byte[] bits) {
        this.bits = bits;
    }

    /** An empty filter of {@code bits} bits (a multiple of 8). */
    public static NgramFilter empty(int bits) {
        if (bits <= 0 || bits % 8 != 0) {
            throw new IllegalArgumentException("an n-gram filter needs a positive multiple of 8 bits, got " + bits);
        }
        return new NgramFilter(new byte[bits / 8]);
    }

    /** The filter whose bitmap is {@code bytes} (not copied). */
    public static NgramFilter of(byte[] bytes) {
        if (bytes.length == 0) {
            throw new IllegalArgumentException("an n-gram filter needs at least one byte");
        }
        return new NgramFilter(bytes);
    }

    /** The bit of the n-gram with {@code code} (order included) in a bitmap of {@code bits} bits. */
    public static long bit(long code, long bits) {
        return ((code % CharacterNgrams.PRIME) * MIX % CharacterNgrams.PRIME) % bits;   // (code mod p) · MIX < 2⁶³
    }

    public long size() {
        return (long) bits.length * 8;
    }

    /** Whether the n-gram with {@code code} may have been in training (false: certainly not). */
    public boolean mayContain(long code) {
        long bit = bit(code, size());
        return (bits[(int) (bit >>> 3)] >> (bit & 7) & 1) != 0;
    }

    public void add(long code) {
        long bit = bit(code, size());
        bits[(int) (bit >>> 3)] |= (byte) (1 << (bit & 7));
    }

    /**
     * Adds every n-gram of orders 2 … {@code maxOrder} in {@code symbols} ((rows, T) indices of
     * {@code alphabet}'s symbols, row-major), as {@link CharacterNgrams#buckets} enumerates them.
     */
    public void addAll(Alphabet alphabet, int[] symbols, int rows, int t, int maxOrder) {
        CharacterNgrams.forEachCode(alphabet, symbols, rows, t, maxOrder, (index, code) -> {
            if (code >= 0) {   // −1: no n-gram there (before the window, or padding)
                add(code);
            }
        });
    }

    /** This filter's bits set in {@code other} too (both must have the same size). */
    public void addAll(NgramFilter other) {
        if (other.bits.length != bits.length) {
            throw new IllegalArgumentException("n-gram filters of " + other.size() + " and " + size() + " bits cannot be merged");
        }
        for (int i = 0; i < bits.length; i++) {
            bits[i] |= other.bits[i];
        }
    }

    public long bitsSet() {
        long set = 0;
        for (byte b : bits) {
            set += Integer.bitCount(b & 0xFF);
        }
        return set;
    }

    /** The share of an unseen n-gram's chances to pass: the share of bits set. */
    public double falsePositiveRate() {
        return (double) bitsSet() / size();
    }

    /** The number of distinct n-grams the bits set suggest (n ≈ −bits · ln(1 − set / bits)). */
    public long estimatedNgrams() {
        double set = bitsSet();
        return set >= size() ? Long.MAX_VALUE : Math.round(-size() * Math.log1p(-set / size()));
    }

    /** The bitmap (not a copy). */
    public byte[] bytes() {
        return bits;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NgramFilter other && Arrays.equals(bits, other.bits);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bits);
    }
}
