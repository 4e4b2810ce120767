package org.langid.jobs.evaluate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Training arguments for {@code fasttext supervised} (beyond -input, -output, -thread), under a
 * detector name for the report, and how a text is written for fastText: as it is (fastText
 * splits it into words at spaces) or with {@code joinWords}, every space written as {@code _},
 * so that a window is one fastText word whose character n-grams run across the spaces, as the
 * model's window does ({@code _} is not in the vocabulary, so nothing else becomes one).
 */
public record FastTextSettings(String name, List<String> arguments, boolean joinWords) {

    /** What a new user would try first (issue 16): character n-grams 1-4, word bigrams, 32 dimensions. */
    public static final String BASELINE_ARGUMENTS = "-minn 1 -maxn 4 -wordNgrams 2 -dim 32 -epoch 5 -lr 0.5";

    public static final FastTextSettings BASELINE = parse("fasttext-baseline", BASELINE_ARGUMENTS);

    /** The best settings the grid of docs/RESULTS.md ("fastText as the peer") found on the sample's validation windows: the fair peer. */
    public static final String TUNED_ARGUMENTS = "-minn 1 -maxn 6 -wordNgrams 1 -dim 32 -epoch 5 -lr 0.5 -loss ova";

    /** With spaces joined: each window is one fastText word (0.2 points of validation windows over the same arguments on words). */
    public static final FastTextSettings TUNED = parse("fasttext", TUNED_ARGUMENTS, true);

    /** The word separator fastText sees with {@code joinWords}: none; the space becomes this character. */
    public static final char JOINED_SPACE = '_';

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
        return parse(name, arguments, false);
    }

    /** As {@link #parse(String, String)}, with spaces written as {@value #JOINED_SPACE} if {@code joinWords}. */
    public static FastTextSettings parse(String name, String arguments, boolean joinWords) {
        String trimmed = arguments.trim();
        return new FastTextSettings(name, trimmed.isEmpty() ? List.of() : Arrays.asList(trimmed.split("\\s+")), joinWords);
    }

    /** The text as fastText is given it. */
    public String fastTextText(String normalised) {
        return joinWords ? normalised.replace(' ', JOINED_SPACE) : normalised;
    }

    /** The arguments, and how spaces are written: what the report shows. */
    public String describe() {
        return commandLine() + (joinWords ? ", spaces written as " + JOINED_SPACE + " (one fastText word a window)" : ", spaces separate words");
    }

    /**
     * These settings with some arguments changed or added: {@code key=value} becomes {@code -key value};
     * {@code text=words} or {@code text=joined} sets how spaces are written.
     */
    public FastTextSettings with(List<String> changes) {
        List<String> changed = new ArrayList<>(arguments);
        boolean joined = joinWords;
        for (String change : changes) {
            int equals = change.indexOf('=');
            if (equals <= 0 || equals == change.length() - 1 || change.startsWith("-")) {
                throw new IllegalArgumentException("a fastText argument change is KEY=VALUE, e.g. dim=64; got " + change);
            }
            String key = "-" + change.substring(0, equals);
            String value = change.substring(equals + 1);
            if (key.equals("-text")) {
                if (!value.equals("words") && !value.equals("joined")) {
                    throw new IllegalArgumentException("text=words (spaces separate fastText's words) or text=joined (spaces as "
                            + JOINED_SPACE + "); got " + change);
                }
                joined = value.equals("joined");
                continue;
            }
            int at = changed.indexOf(key);
            if (at >= 0 && at + 1 < changed.size()) {
                changed.set(at + 1, value);
            } else {
                changed.add(key);
                changed.add(value);
            }
        }
        return new FastTextSettings(name, changed, joined);
    }

    /** The arguments as one would type them. */
    public String commandLine() {
        return String.join(" ", arguments);
    }
}
