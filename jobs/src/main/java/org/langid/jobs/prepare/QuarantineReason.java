package org.langid.jobs.prepare;

import java.util.Locale;

/** Why a corpus record was set aside. Every reason is counted in the summary, even at zero. */
public enum QuarantineReason {
    /** A TSV line without three tab-separated fields, or a JSON value that is not a string. */
    MALFORMED_RECORD,
    /** JSON that cannot be parsed; the rest of that file cannot be read and is one record. */
    MALFORMED_JSON,
    /** Bytes that are not valid UTF-8. */
    INVALID_UTF8,
    /** No language code. */
    MISSING_LANGUAGE,
    /** A language field that is not an ISO 639-1/639-3 code. */
    INVALID_LANGUAGE,
    /** Nothing left after normalisation. */
    EMPTY_SENTENCE,
    /** Shorter than the minimum sentence length after normalisation. */
    TOO_SHORT,
    /** A raw line longer than max_sentence_chars. */
    TOO_LONG;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
