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
}
