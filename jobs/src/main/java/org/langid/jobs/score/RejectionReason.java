package org.langid.jobs.score;

/** Why a row got no language: the {@code reason} column and the keys of summary.json's {@code rejected_by_reason}. */
public enum RejectionReason {
    /** The text column is null. */
    NULL("null"),
    /** Nothing but whitespace, or nothing at all. */
    EMPTY("empty"),
    /**
     * Text with nothing the model reads as language, which a detector answers {@code und}: no
     * letters (digits, punctuation, emoji), or letters mostly of scripts the model's alphabet has
     * no symbols for (e.g. only Chinese or Cyrillic for a model of the seed alphabet).
     */
    NO_KNOWN_CHARACTERS("no_known_characters"),
    /** Bytes that are not UTF-8: they were read as U+FFFD, which stands for lost characters. */
    UNDECODABLE("undecodable"),
    /** JSON input only: a line Spark cannot parse as a JSON object, bad syntax or bytes that are not UTF-8 (its _corrupt_record column keeps the line). */
    MALFORMED_RECORD("malformed_record");

    private final String id;

    RejectionReason(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    /** The replacement character a decoder puts where bytes were not valid in the input's encoding. */
    static final char REPLACEMENT = '\uFFFD';
}
