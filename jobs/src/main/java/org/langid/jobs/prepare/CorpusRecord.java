package org.langid.jobs.prepare;

import java.io.Serializable;

/**
 * One record as read from a corpus file, before any judgement: its language field and text
 * as found, where it came from, and a problem if the reader already saw one (bad bytes,
 * wrong shape).
 */
public final class CorpusRecord implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Stands in for undecodable bytes: a Unicode noncharacter, never valid in interchange. */
    public static final char INVALID_BYTES = '\uFDD0';

    public final String language;
    public final String text;
    public final String source;
    /** Byte offset of the line (line formats) or line number of the value (JSON). */
    public final long position;
    public final QuarantineReason problem;
    public final String detail;

    private CorpusRecord(String language, String text, String source, long position, QuarantineReason problem, String detail) {
        this.language = language;
        this.text = text;
        this.source = source;
        this.position = position;
        this.problem = problem;
        this.detail = detail;
    }

    public static CorpusRecord of(String language, String text, String source, long position) {
        return new CorpusRecord(language, text, source, position, null, null);
    }

    public static CorpusRecord bad(QuarantineReason problem, String detail, String language, String text, String source, long position) {
        return new CorpusRecord(language, text, source, position, problem, detail);
    }
}
