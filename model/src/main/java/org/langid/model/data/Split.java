package org.langid.model.data;

import java.util.Locale;

/** The three disjoint parts of a corpus. Every sentence belongs to exactly one. */
public enum Split {
    TRAIN, VALIDATION, TEST;

    /** Lower-case name, as used in paths ({@code split=train}) and JSON. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
