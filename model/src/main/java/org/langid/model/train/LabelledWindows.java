package org.langid.model.train;

import java.util.List;

/**
 * Windows and their labels in compact form: one {@code char} per symbol index (alphabets of up to
 * 65,535 symbols), row-major (N, T), and one label index per window into {@link #languages}.
 * About 36 bytes a window at T = 16.
 */
public record LabelledWindows(char[] symbols, int[] labels, int windowLength, List<String> languages) {

    public LabelledWindows {
        if (symbols.length != (long) labels.length * windowLength) {
            throw new IllegalArgumentException(symbols.length + " symbols do not make " + labels.length + " windows of " + windowLength);
        }
        languages = List.copyOf(languages);
    }

    public int size() {
        return labels.length;
    }

    /** The windows {@code indices[from, from + count)}, in that order, as their own set. */
    public LabelledWindows select(int[] indices, int from, int count) {
        char[] chosenSymbols = new char[count * windowLength];
        int[] chosenLabels = new int[count];
        for (int i = 0; i < count; i++) {
            int index = indices[from + i];
            System.arraycopy(symbols, index * windowLength, chosenSymbols, i * windowLength, windowLength);
            chosenLabels[i] = labels[index];
        }
        return new LabelledWindows(chosenSymbols, chosenLabels, windowLength, languages);
    }

    /** {@code size} windows of uniformly random symbols of the seed alphabet and labels (for benchmarks and tests), fixed by {@code seed}. */
    public static LabelledWindows random(int size, int windowLength, List<String> languages, long seed) {
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        char[] symbols = new char[size * windowLength];
        int[] labels = new int[size];
        for (int i = 0; i < symbols.length; i++) {
            symbols[i] = (char) random.nextInt(org.langid.text.Alphabet.SEED.size());
        }
        for (int i = 0; i < size; i++) {
            labels[i] = random.nextInt(languages.size());
        }
        return new LabelledWindows(symbols, labels, windowLength, languages);
    }
}
