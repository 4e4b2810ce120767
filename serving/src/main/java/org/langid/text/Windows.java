package org.langid.text;

import java.util.ArrayList;
import java.util.List;

/**
 * Cuts normalised text into fixed-length character windows.
 * With stride 1 a text of n characters gives n − length + 1 windows (the seed's windowing);
 * with stride s the windows start at 0, s, 2s, … while a whole window fits.
 */
public final class Windows {

    private Windows() {
    }

    /** Number of windows {@link #startOffsets} yields for a text of {@code textLength} characters. */
    public static int count(int textLength, int length, int stride) {
        checkShape(length, stride);
        return textLength < length ? 0 : (textLength - length) / stride + 1;
    }

    /** Start offsets of the windows of a text of {@code textLength} characters. */
    public static int[] startOffsets(int textLength, int length, int stride) {
        int[] offsets = new int[count(textLength, length, stride)];
        for (int i = 0; i < offsets.length; i++) {
            offsets[i] = i * stride;
        }
        return offsets;
    }

    /** The windows themselves. */
    public static List<String> cut(String normalised, int length, int stride) {
        int[] offsets = startOffsets(normalised.length(), length, stride);
        List<String> windows = new ArrayList<>(offsets.length);
        for (int offset : offsets) {
            windows.add(normalised.substring(offset, offset + length));
        }
        return windows;
    }

    private static void checkShape(int length, int stride) {
        if (length < 1) {
            throw new IllegalArgumentException("window length must be at least 1, got " + length);
        }
        if (stride < 1) {
            throw new IllegalArgumentException("window stride must be at least 1, got " + stride);
        }
    }
}
