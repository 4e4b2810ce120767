package org.langid.model.train;

/** Durations as people read them in a progress line: 45s, 2m13s, 1h02m. */
public final class Durations {

    private Durations() {
    }

    public static String format(double seconds) {
        if (!(seconds >= 0) || Double.isInfinite(seconds)) {
            return "?";
        }
        long s = Math.round(seconds);
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return String.format("%dm%02ds", s / 60, s % 60);
        }
        return String.format("%dh%02dm", s / 3600, (s % 3600) / 60);
    }

    /** The time left at the rate so far: {@code elapsed} seconds for {@code done} of {@code total} steps. */
    public static String eta(double elapsed, long done, long total) {
        return done <= 0 ? "?" : format(elapsed / done * Math.max(0, total - done));
    }
}
