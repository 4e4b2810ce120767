package org.langid.text;

/**
 * The detector's rule for text in capitals, over a model's symbol indices. Capitals carry no
 * language evidence once a whole window is in them, and training corpora have almost no such
 * text, so a model trained on them alone reads "ALLMAN FORKLARING" as noise (docs/RESULTS.md,
 * text in capitals). The window is read in lower case instead, which such a model knows. A
 * letter's case is the alphabet's ({@link Alphabet#toLower}): a capital whose small letter the
 * alphabet lacks, or a script without case, stays as it is.
 */
public final class CaseFolding {

    /** A window is folded when it has at least this many capitals and no small letter: one capital ("I", "A 4") is not shouting. */
    public static final int MIN_CAPITALS = 2;

    private CaseFolding() {
    }

    /**
     * In place: each window of {@code symbols} ((rows, T) row-major indices of {@code alphabet})
     * that has no small letter and at least {@link #MIN_CAPITALS} capitals is put in lower case.
     *
     * @return how many windows were folded
     */
    public static int foldCapitalWindows(Alphabet alphabet, int[] symbols, int windowLength) {
        if (symbols.length % windowLength != 0) {
            throw new IllegalArgumentException(symbols.length + " symbols are not whole windows of " + windowLength);
        }
        int folded = 0;
        for (int start = 0; start < symbols.length; start += windowLength) {
            int end = start + windowLength;
            int capitals = 0;
            boolean small = false;
            for (int j = start; j < end && !small; j++) {
                small = alphabet.isSmall(symbols[j]);
                capitals += alphabet.isCapital(symbols[j]) ? 1 : 0;
            }
            if (small || capitals < MIN_CAPITALS) {
                continue;
            }
            for (int j = start; j < end; j++) {
                symbols[j] = alphabet.toLower(symbols[j]);
            }
            folded++;
        }
        return folded;
    }
}
