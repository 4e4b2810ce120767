package org.langid.text;

/**
 * The 68-symbol character vocabulary of the reference tutorial (seed 001):
 * {@code ascii_letters + digits + " .,;'!"}, in that order, so index i here is index i there
 * ({@code a}=0 … {@code z}=25, {@code A}=26 … {@code Z}=51, {@code 0}=52 … {@code 9}=61,
 * space=62, {@code .}=63, {@code ,}=64, {@code ;}=65, {@code '}=66, {@code !}=67).
 */
public final class Vocabulary {

    /** The symbols in index order. */
    public static final String SYMBOLS =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,;'!";

    /** Number of symbols: 68. */
    public static final int SIZE = SYMBOLS.length();

    private static final byte[] INDEX_OF_ASCII = new byte[128];

    static {
        java.util.Arrays.fill(INDEX_OF_ASCII, (byte) -1);
        for (int i = 0; i < SIZE; i++) {
            INDEX_OF_ASCII[SYMBOLS.charAt(i)] = (byte) i;
        }
    }

    private Vocabulary() {
    }

    /** Whether the code point is one of the 68 symbols. */
    public static boolean contains(int codePoint) {
        return codePoint >= 0 && codePoint < 128 && INDEX_OF_ASCII[codePoint] >= 0;
    }

    /** Index of a vocabulary symbol; throws for anything else. */
    public static int indexOf(char symbol) {
        int index = symbol < 128 ? INDEX_OF_ASCII[symbol] : -1;
        if (index < 0) {
            throw new IllegalArgumentException(
                    "character U+" + String.format("%04X", (int) symbol) + " is not in the vocabulary");
        }
        return index;
    }

    /** The symbol at an index. */
    public static char symbolAt(int index) {
        return SYMBOLS.charAt(index);
    }

    /** Encodes normalised text (vocabulary symbols only) as indices. */
    public static byte[] encode(CharSequence normalised) {
        byte[] out = new byte[normalised.length()];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) indexOf(normalised.charAt(i));
        }
        return out;
    }

    /** Decodes indices back to text. */
    public static String decode(byte[] indices) {
        StringBuilder text = new StringBuilder(indices.length);
        for (byte index : indices) {
            text.append(symbolAt(index));
        }
        return text.toString();
    }
}
