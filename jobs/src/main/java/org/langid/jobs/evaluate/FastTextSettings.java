package org.langid.jobs.evaluate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Training arguments for {@code fasttext supervised} (beyond -input, -output, -thread), under a
 * detector name for the report.
 */
public record FastTextSettings(String name, List<String> arguments) {

    /** What a new user would try first (issue 16): character n-grams 1-4, word bigrams, 32 dimensions. */
    public static final String BASELINE_ARGUMENTS = "-minn 1 -maxn 4 -wordNgrams 2 -dim 32 -epoch 5 -lr 0.5";

    public static final FastTextSettings BASELINE = parse("fasttext-baseline", BASELINE_ARGUMENTS);

    /** The best settings the grid in bench/FASTTEXT.md found on the sample's validation windows: the fair peer. */
    public static final String TUNED_ARGUMENTS = "-minn 1 -maxn 6 -wordNgrams 2 -dim 32 -epoch 5 -lr 0.5 -loss ova";

    public static final FastTextSettings TUNED = parse("fasttext", TUNED_ARGUMENTS);

    public FastTextSettings {
        arguments = List.copyOf(arguments);
        for (String reserved : List.of("-input", "-output", "-thread", "-verbose")) {
            if (arguments.contains(reserved)) {
                throw new IllegalArgumentException("fastText arguments may not set " + reserved + " (langid sets it): " + arguments);
            }
        }
    }

    /** Settings from a command line fragment such as {@code "-dim 64 -epoch 10"}. */
    public static FastTextSettings parse(String name, String arguments) {
        String trimmed = arguments.trim();
        return new FastTextSettings(name, trimmed.isEmpty() ? List.of() : Arrays.asList(trimmed.split("\\s+")));
    }

    /** These settings with some arguments changed or added: {@code key=value} becomes {@code -key value}. */
    public FastTextSettings with(List<String> changes) {
        List<String> changed = new ArrayList<>(arguments);
        for (String change : changes) {
            int equals = change.indexOf('=');
            if (equals <= 0 || equals == change.length() - 1 || change.startsWith("-")) {
                throw new IllegalArgumentException("a fastText argument change is KEY=VALUE, e.g. dim=64; got " + change);
            }
            String key = "-" + change.substring(0, equals);
            String value = change.substring(equals + 1);
            int at = changed.indexOf(key);
            if (at >= 0 && at + 1 < changed.size()) {
                changed.set(at + 1, value);
            } else {
                changed.add(key);
                changed.add(value);
            }
        }
        return new FastTextSettings(name, changed);
    }

    /** The arguments as one would type them. */
    public String commandLine() {
        return String.join(" ", arguments);
    }
}
