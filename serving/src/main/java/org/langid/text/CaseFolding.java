package org.langid.text;

/**
 * Case over vocabulary indices: a=0 … z=25 are the small letters, A=26 … Z=51 the capitals
 * (see {@link Vocabulary}); every other index, PAD included, has no case.
 *
 * <p>{@link #foldCapitalWindows} is the detector's rule for text in capitals. Capitals carry no
 * language evidence once a whole window is in them, and the training corpus has almost no such
 * text, so a model trained on it alone reads "ALLMAN FORKLARING" as noise (README: the released
 * model, text in capitals). The window is read in lower case instead, which such a model knows.
 */
public final class CaseFolding {

    private static final int LETTERS = 26;
    private static final int FIRST_CAPITAL = 26;

    /** A window is folded when it has at least this many capitals and no small letter: one capital ("I", "A 4") is not shouting. */
    public static final int MIN_CAPITALS = 2;

    private CaseFolding() {
    }

    /** The index of the same symbol in upper case; itself for symbols without case (PAD and beyond included). */
    public static int toUpper(int index) {
        return isSmall(index) ? index + LETTERS : index;
    }

    /** The index of the same symbol in lower case; itself for symbols without case. */
    public static int toLower(int index) {
        return isCapital(index) ? index - LETTERS : index;
    }

    static boolean isSmall(int index) {
        return index >= 0 && index < LETTERS;
    }

    static boolean isCapital(int index) {
        return index >= FIRST_CAPITAL && index < FIRST_CAPITAL + LETTERS;
    }

    /**
     * In place: each window of {@code symbols} ((rows, T) row-major indices) that has no small
     * letter and at least {@link #MIN_CAPITALS} capitals is put in lower case.
     *
     * @return how many windows were folded
     */
    public static int foldCapitalWindows(int[] symbols, int windowLength) {
        if (symbols.length % windowLength != 0) {
            throw new IllegalArgumentException(symbols.length + " symbols are not whole windows of " + windowLength);
        }
        int folded = 0;
        for (int start = 0; start < symbols.length; start += windowLength) {
            int end = start + windowLength;
            int capitals = 0;
            boolean small = false;
            for (int j = start; j < end && !small; j++) {
                small = isSmall(symbols[j]);
                capitals += isCapital(symbols[j]) ? 1 : 0;
            }
            if (small || capitals < MIN_CAPITALS) {
                continue;
            }
            for (int j = start; j < end; j++) {
                symbols[j] = toLower(symbols[j]);
            }
            folded++;
        }
        return folded;
    }
}
