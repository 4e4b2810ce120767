package org.langid.jobs.prepare;

import java.io.Serializable;
import java.util.Set;
import org.langid.text.Alphabet;
import org.langid.text.LanguageCodes;

/**
 * Decides what becomes of each corpus record: a normalised sentence of a selected language,
 * a record of a language the run does not want (counted, not an error), or a quarantined
 * record with its reason. Pure Java, so every rule is testable without Spark.
 */
public final class RecordScreening implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Longest piece of raw text kept in a quarantine record. */
    static final int QUARANTINE_TEXT_LIMIT = 500;

    /** What became of a record. */
    public record Outcome(Kind kind, String language, String text, QuarantineReason reason, String detail,
                          String source, long position) implements Serializable {
    }

    public enum Kind { SENTENCE, NOT_SELECTED, QUARANTINED }

    private final Set<String> selectedLanguages;
    private final Set<String> otherLanguages;
    private final int minSentenceLength;
    private final int maxSentenceChars;
    private final boolean everyScript;

    /**
     * {@code selectedLanguages} in canonical form; empty selects every valid language.
     * {@code otherLanguages} (canonical) are kept too, labelled {@value PrepareConfig#OTHER_LANGUAGES}.
     *
     * @param alphabet {@link PrepareConfig#alphabet}: seed normalises to the tutorial's symbols,
     *                 scripts keeps every character (the alphabet is derived from the result)
     */
    public RecordScreening(Set<String> selectedLanguages, Set<String> otherLanguages, int minSentenceLength, int maxSentenceChars,
                           String alphabet) {
        this.everyScript = PrepareConfig.SCRIPTS_ALPHABET.equals(alphabet);
        this.selectedLanguages = Set.copyOf(selectedLanguages);
        this.otherLanguages = Set.copyOf(otherLanguages);
        this.minSentenceLength = minSentenceLength;
        this.maxSentenceChars = maxSentenceChars;
    }

    public Outcome screen(CorpusRecord record) {
        if (record.problem != null) {
            return quarantine(record, record.problem, record.detail, record.language);
        }
        if (record.text.indexOf(CorpusRecord.INVALID_BYTES) >= 0) {
            return quarantine(record, QuarantineReason.INVALID_UTF8, "bytes that are not UTF-8 (shown as U+FFFD)", record.language);
        }
        if (record.language == null || record.language.isBlank()) {
            return quarantine(record, QuarantineReason.MISSING_LANGUAGE, "no language code", record.language);
        }
        var languageProblem = LanguageCodes.problem(record.language);
        if (languageProblem.isPresent()) {
            return quarantine(record, QuarantineReason.INVALID_LANGUAGE, languageProblem.get(), record.language);
        }
        String language = LanguageCodes.canonical(record.language);
        if (otherLanguages.contains(language)) {
            language = PrepareConfig.OTHER_LANGUAGES;
        } else if (!selectedLanguages.isEmpty() && !selectedLanguages.contains(language)) {
            return new Outcome(Kind.NOT_SELECTED, language, null, null, null, record.source, record.position);
        }
        if (record.text.length() > maxSentenceChars) {
            return quarantine(record, QuarantineReason.TOO_LONG, record.text.length() + " characters, limit " + maxSentenceChars, language);
        }
        String sentence = everyScript ? Alphabet.normalizeKeepingEveryCharacter(record.text) : Alphabet.SEED.normalize(record.text);
        if (sentence.isEmpty()) {
            return quarantine(record, QuarantineReason.EMPTY_SENTENCE, "nothing left after normalisation", language);
        }
        if (sentence.length() < minSentenceLength) {
            return quarantine(record, QuarantineReason.TOO_SHORT,
                    sentence.length() + " characters after normalisation, minimum " + minSentenceLength, language);
        }
        return new Outcome(Kind.SENTENCE, language, sentence, null, null, record.source, record.position);
    }

    private static Outcome quarantine(CorpusRecord record, QuarantineReason reason, String detail, String language) {
        String shown = record.text == null ? null : record.text.replace(CorpusRecord.INVALID_BYTES, '\uFFFD');
        if (shown != null && shown.length() > QUARANTINE_TEXT_LIMIT) {
            shown = shown.substring(0, QUARANTINE_TEXT_LIMIT) + "…";
        }
        return new Outcome(Kind.QUARANTINED, language, shown, reason, detail, record.source, record.position);
    }
}
