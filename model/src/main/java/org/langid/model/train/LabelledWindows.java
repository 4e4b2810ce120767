package org.langid.model.train;

import java.util.List;

/**
 * Windows and their labels in compact form: one byte per symbol, row-major (N, T), and one
 * label index per window into {@link #languages}. About 17 bytes a window at T = 16.
 */
public record LabelledWindows(byte[] symbols, int[] labels, int windowLength, List<String> languages) {

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
        byte[] chosenSymbols = new byte[count * windowLength];
        int[] chosenLabels = new int[count];
        for (int i = 0; i < count; i++) {
            int index = indices[from + i];
            System.arraycopy(symbols, index * windowLength, chosenSymbols, i * windowLength, windowLength);
            chosenLabels[i] = labels[index];
        }
        return new LabelledWindows(chosenSymbols, chosenLabels, windowLength, languages);
    }

    /** {@code size} windows of uniformly random symbols and labels (for benchmarks and tests), fixed by {@code seed}. */
    public static LabelledWindows random(int size, int windowLength, List<String> languages, long seed) {
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        byte[] symbols = new byte[size * windowLength];
        int[] labels = new int[size];
        for (int i = 0; i < symbols.length; i++) {
            symbols[i] = (byte) random.nextInt(org.langid.text.Vocabulary.SIZE);
        }
        for (int i = 0; i < size; i++) {
            labels[i] = random.nextInt(languages.size());
        }
        return new LabelledWindows(symbols, labels, windowLength, languages);
    }
}
