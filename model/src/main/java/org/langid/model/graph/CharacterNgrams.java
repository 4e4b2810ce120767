package org.langid.model.graph;

import org.langid.text.Alphabet;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Hashed character n-grams, fastText's strength, as an input of the attention blocks: at each
 * position of a window, the n-grams of orders 2 … {@code maxOrder} that end there each select a
 * row of a learned table (buckets, d), and their sum is added to the character embedding.
 * An n-gram that starts before the window or holds the padding symbol selects nothing.
 *
 * <p>The bucket of an n-gram is a function of its symbols and order only, written with integer
 * arithmetic that ONNX has too ({@code OnnxGraphWriter} computes it inside the exported graph):
 * <pre>
 *   code   = n · B⁶ + Σₖ symbol[i − k] · Bᵏ     (k = 0 … n−1; B = the alphabet's input symbols + 2: one code per n-gram)
 *   bucket = (((code mod p) · 2654435761) mod p) mod buckets,   p = 2³¹ − 1
 * </pre>
 * Only code mod p is ever used (buckets and the {@link NgramFilter}), so when the code itself
 * would not fit in 63 bits (alphabets of more than ~1,000 symbols) it is computed modulo p
 * term by term; for the seed alphabet (B = 71) the code is exact.
 * The gather and its gradient (a scatter-add into the table) run here, in Java, outside the
 * SameDiff graph: gradients through SameDiff's gather fail in 1.0.0-M2.1 (stack-facts), and a
 * one-hot product over thousands of buckets would cost more than the rest of the model.
 */
public final class CharacterNgrams {

    /** The seed alphabet's n-gram code base: more than its 69 input symbols. */
    public static final long SEED_BASE = 71;
    /** Knuth's multiplicative constant: spreads neighbouring codes over the buckets. */
    public static final long MIX = 2654435761L;
    /** 2³¹ − 1, a prime: the product's remainder does not depend on the low bits alone. */
    public static final long PRIME = 2147483647L;
    /** Longest n-gram (fastText's default maxn). */
    public static final int MAX_ORDER = 6;
    /** A position's n-gram of some order that selects no row. */
    public static final int NONE = -1;

    private CharacterNgrams() {
    }

    /** The bucket of the n-gram of {@code order} whose symbols, last first, are given by {@code code} (see the class comment). */
    public static int bucket(long code, int buckets) {
        return (int) (((code % PRIME) * MIX % PRIME) % buckets);   // (code mod p) · MIX < 2⁶³
    }

    /**
     * Buckets of every (window, position, order): {@code out[(row · T + i) · orders + (n − 2)]},
     * or {@link #NONE}.
     *
     * @param symbols (rows, T) indices of {@code alphabet}'s symbols, row-major; its PAD pads
     * @param filter  the n-grams training saw; any other selects nothing (null: every n-gram selects its bucket)
     * @return (rows · T · (maxOrder − 1)) bucket indices
     */
    public static int[] buckets(Alphabet alphabet, int[] symbols, int rows, int t, int maxOrder, int buckets, NgramFilter filter) {
        int[] out = new int[rows * t * (maxOrder - 1)];
        forEachCode(alphabet, symbols, rows, t, maxOrder, (index, code) ->
                out[index] = code < 0 || filter != null && !filter.mayContain(code) ? NONE : bucket(code, buckets));
        return out;
    }

    /** Receives each (window, position, order)'s index in {@link #buckets}' output and its n-gram's code, or −1. */
    @FunctionalInterface
    public interface CodeConsumer {
        void accept(int index, long code);
    }

    /** B of the class comment for {@code alphabet}: more than its input symbols (PAD included). */
    public static long base(Alphabet alphabet) {
        return alphabet.inputSymbols() + 2L;
    }

    /** Whether n · B⁶ + Σ symbol · Bᵏ fits in a long for every n-gram: then codes are computed exactly. */
    public static boolean exactCodes(Alphabet alphabet) {
        long base = base(alphabet);
        return Math.pow(base, MAX_ORDER) * (MAX_ORDER + 1) < Long.MAX_VALUE / 2.0;
    }

    /** Bᵏ for k = 0 … 6, exact when {@link #exactCodes}, else modulo p. */
    public static long[] powers(Alphabet alphabet) {
        boolean exact = exactCodes(alphabet);
        long base = base(alphabet);
        long[] powers = new long[MAX_ORDER + 1];
        powers[0] = 1;
        for (int k = 1; k <= MAX_ORDER; k++) {
            powers[k] = exact ? powers[k - 1] * base : powers[k - 1] * base % PRIME;
        }
        return powers;
    }

    /**
     * The code (order included, see the class comment) of every n-gram of orders 2 … {@code maxOrder}
     * ending at each position of (rows, T) {@code symbols}, or −1 where it starts before the
     * window or holds the alphabet's PAD.
     */
    public static void forEachCode(Alphabet alphabet, int[] symbols, int rows, int t, int maxOrder, CodeConsumer consumer) {
        int orders = maxOrder - 1;
        int pad = alphabet.pad();
        long[] powers = powers(alphabet);
        boolean exact = exactCodes(alphabet);
        for (int row = 0; row < rows; row++) {
            int base = row * t;
            for (int i = 0; i < t; i++) {
                long code = 0;
                boolean valid = true;
                for (int k = 0; k < maxOrder; k++) {
                    int at = i - k;
                    valid &= at >= 0 && symbols[base + at] != pad;
                    if (valid) {
                        code = exact ? code + symbols[base + at] * powers[k] : (code + symbols[base + at] * powers[k]) % PRIME;
                    }
                    int n = k + 1;
                    if (n >= 2) {
                        long keyed = exact ? n * powers[MAX_ORDER] + code : (n * powers[MAX_ORDER] + code) % PRIME;
                        consumer.accept((base + i) * orders + n - 2, valid ? keyed : -1);
                    }
                }
            }
        }
    }

    /**
     * Renumbers {@code ids} in place to 0 … u−1 over the table rows they use, so that a step
     * reads and writes those u rows only, not the whole table.
     *
     * @return the table row of each new number (u rows, in order of first use)
     */
    public static int[] localise(int[] ids, int buckets) {
        int[] local = new int[buckets];
        java.util.Arrays.fill(local, NONE);
        int[] used = new int[Math.min(ids.length, buckets)];
        int count = 0;
        for (int i = 0; i < ids.length; i++) {
            int id = ids[i];
            if (id != NONE) {
                if (local[id] == NONE) {
                    local[id] = count;
                    used[count++] = id;
                }
                ids[i] = local[id];
            }
        }
        return java.util.Arrays.copyOf(used, count);
    }

    /**
     * One batch's n-grams: {@link #ids} renumbered over the table rows they use ({@link #tableRows}),
     * and {@link #summed}, each position's sum of its rows: the graph's n-gram input, (positions, d).
     */
    public record Lookup(int[] ids, int[] tableRows, double[] summed) {
    }

    /**
     * Looks up the n-grams of (windows, T) symbols in {@code table} (buckets, d), reading only the
     * rows they select; with a {@code filter}, n-grams it does not hold select nothing.
     */
    public static Lookup lookup(Alphabet alphabet, int[] symbols, int windows, int t, int maxOrder, INDArray table, NgramFilter filter) {
        return lookup(buckets(alphabet, symbols, windows, t, maxOrder, (int) table.size(0), filter), windows * t, maxOrder - 1, table);
    }

    /** The lookup of {@code ids} from {@link #buckets} ({@code orders} per position), which it renumbers in place. */
    public static Lookup lookup(int[] ids, int positions, int orders, INDArray table) {
        int[] tableRows = localise(ids, (int) table.size(0));
        return new Lookup(ids, tableRows, embed(ids, positions, orders, TableRows.gather(table, tableRows), (int) table.size(1)));   // rows (u, d)
    }

    /**
     * Training's n-gram dropout ({@code train.ngram_dropout}): each n-gram of {@code ids} from
     * {@link #buckets} selects nothing with probability {@code rate}, in place, as an n-gram that
     * the {@link NgramFilter} does not hold does at inference.
     */
    public static void dropNgrams(int[] ids, double rate, java.util.SplittableRandom random) {
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] != NONE && random.nextDouble() < rate) {
                ids[i] = NONE;
            }
        }
    }

    /**
     * The n-gram input of the graph: per position, the sum of its n-grams' rows of {@code table}.
     *
     * @param ids   from {@link #buckets}, for {@code positions} positions
     * @param table (buckets, d) row-major
     * @return (positions, d) row-major
     */
    public static double[] embed(int[] ids, int positions, int orders, double[] table, int d) {
        double[] out = new double[positions * d];
        for (int p = 0; p < positions; p++) {
            for (int o = 0; o < orders; o++) {
                int id = ids[p * orders + o];
                if (id != NONE) {
                    int from = id * d;
                    int to = p * d;
                    for (int j = 0; j < d; j++) {
                        out[to + j] += table[from + j];
                    }
                }
            }
        }
        return out;
    }

    /**
     * The table's gradient from the gradient of the graph's n-gram input: each position's
     * gradient added to the rows its n-grams selected (the backward pass of {@link #embed}).
     *
     * @param inputGradient (positions, d) row-major
     * @param tableGradient (buckets, d) row-major, overwritten
     */
    public static void scatter(int[] ids, int positions, int orders, double[] inputGradient, int d, double[] tableGradient) {
        java.util.Arrays.fill(tableGradient, 0.0);
        for (int p = 0; p < positions; p++) {
            for (int o = 0; o < orders; o++) {
                int id = ids[p * orders + o];
                if (id != NONE) {
                    int to = id * d;
                    int from = p * d;
                    for (int j = 0; j < d; j++) {
                        tableGradient[to + j] += inputGradient[from + j];
                    }
                }
            }
        }
    }
}
