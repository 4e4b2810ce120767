package org.langid.jobs.prepare;

import java.util.ArrayList;
import java.util.List;
import org.langid.model.config.ValidatedConfig;
import org.langid.text.LanguageCodes;

/**
 * Settings of {@code langid prepare}: the {@code prepare:} section of a profile in {@code conf/}.
 * Input and output paths are not here: they are per run, given on the command line.
 */
public class PrepareConfig implements ValidatedConfig {

    /** Corpus format: auto, json, tsv or txt (a directory of {@code <lang>.txt[.gz]}). */
    public String format = "auto";
    /** Languages to keep; empty keeps every valid language found. */
    public List<String> languages = new ArrayList<>();
    /**
     * Languages whose sentences are kept as {@value #OTHER_LANGUAGES}: a model with that label among
     * its languages learns to answer it for text in none of its languages. Not in {@link #languages}.
     */
    public List<String> otherLanguages = new ArrayList<>();
    public Window window = new Window();
    public Splits split = new Splits();
    /** Raw lines longer than this many characters are quarantined as too long. */
    public int maxSentenceChars = 10_000;
    /** Normalised sentences shorter than this are quarantined as too short; 0 means the window length. */
    public int minSentenceChars = 0;
    /** Cap on windows per language and split (0: no cap), applied by a seeded hash, not by order. */
    public long maxWindowsPerLanguage = 0;
    /** Down-sample every language to the smallest language's window count, per split. */
    public boolean balance = false;
    /** Number of Parquet files per split. */
    public int outputPartitions = 4;
    /**
     * How text is read, and so the alphabet of models trained on the output: {@value #SEED_ALPHABET}
     * (the tutorial's 68 symbols: accents and other scripts dropped) or {@value #SCRIPTS_ALPHABET}
     * (every script, accents kept; the symbols are derived from the training split and written to
     * {@code alphabet.json}).
     */
    public String alphabet = SEED_ALPHABET;
    /** With {@code scripts}: each language's most frequent characters covering this share of its training text get symbols of their own. */
    public double alphabetCoverage = 0.9995;
    /** With {@code scripts}: characters seen fewer times than this in a language's training text read as their script's fallback. */
    public long alphabetMinCount = 10;

    /** The label of {@link #otherLanguages}' sentences (ISO 639-2 "undetermined"). */
    public static final String OTHER_LANGUAGES = org.langid.model.graph.ModelConfig.OTHER_LANGUAGES;
    public static final String SEED_ALPHABET = "seed";
    public static final String SCRIPTS_ALPHABET = "scripts";

    public static class Window {
        public int length = 16;
        public int stride = 1;
    }

    public static class Splits {
        public double train = 0.8;
        public double validation = 0.1;
        public long seed = 20261121L;
    }

    /** The effective minimum sentence length. */
    public int minSentenceLength() {
        return minSentenceChars > 0 ? minSentenceChars : window.length;
    }

    @Override
    public List<String> problems() {
        List<String> problems = new ArrayList<>();
        if (!List.of("auto", "json", "tsv", "txt").contains(format)) {
            problems.add("format '" + format + "' is not one of auto, json, tsv, txt");
        }
        for (String language : languages) {
            LanguageCodes.problem(language).ifPresent(p -> problems.add("languages: " + p));
        }
        for (String language : otherLanguages) {
            LanguageCodes.problem(language).ifPresent(p -> problems.add("other_languages: " + p));
            if (LanguageCodes.isValid(language) && languages.stream().filter(LanguageCodes::isValid)
                    .anyMatch(l -> LanguageCodes.canonical(l).equals(LanguageCodes.canonical(language)))) {
                problems.add("other_languages: '" + language + "' is also in languages");
            }
        }
        if (!otherLanguages.isEmpty() && languages.isEmpty()) {
            problems.add("other_languages needs languages: with every language kept there is no other language");
        }
        if (window.length < 1) {
            problems.add("window.length must be at least 1, got " + window.length);
        }
        if (window.stride < 1) {
            problems.add("window.stride must be at least 1, got " + window.stride);
        }
        if (!(split.train > 0) || split.validation < 0 || split.train + split.validation > 1.0 + 1e-9) {
            problems.add("split fractions must satisfy train > 0, validation >= 0 and train + validation <= 1 (the rest is test); got train "
                    + split.train + ", validation " + split.validation);
        }
        if (maxSentenceChars < 1) {
            problems.add("max_sentence_chars must be positive, got " + maxSentenceChars);
        }
        if (minSentenceChars < 0) {
            problems.add("min_sentence_chars must be 0 (the window length) or positive, got " + minSentenceChars);
        } else if (minSentenceLength() < window.length) {
            problems.add("min_sentence_chars " + minSentenceChars + " is below the window length " + window.length
                    + ": such sentences would give no window");
        }
        if (maxWindowsPerLanguage < 0) {
            problems.add("max_windows_per_language must be 0 (no cap) or positive, got " + maxWindowsPerLanguage);
        }
        if (!List.of(SEED_ALPHABET, SCRIPTS_ALPHABET).contains(alphabet)) {
            problems.add("alphabet '" + alphabet + "' is not one of " + SEED_ALPHABET + ", " + SCRIPTS_ALPHABET);
        }
        if (!(alphabetCoverage > 0 && alphabetCoverage <= 1)) {
            problems.add("alphabet_coverage must be in (0, 1], got " + alphabetCoverage);
        }
        if (alphabetMinCount < 1) {
            problems.add("alphabet_min_count must be at least 1, got " + alphabetMinCount);
        }
        if (outputPartitions < 1) {
            problems.add("output_partitions must be at least 1, got " + outputPartitions);
        }
        return problems;
    }
}
