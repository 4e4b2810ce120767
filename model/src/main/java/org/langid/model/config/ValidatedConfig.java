package org.langid.model.config;

import java.util.List;
import java.util.Map;

/** A config section that checks itself once, after binding, and explains what is wrong. */
public interface ValidatedConfig {

    /** Every problem with the values, as sentences a user can act on; empty when valid. */
    List<String> problems();

    /** Keys of earlier versions that another section holds now: the old key → where it is (e.g. {@code train.dropout}). */
    default Map<String, String> movedKeys() {
        return Map.of();
    }

    /** Throws {@link IllegalArgumentException} naming every problem, for configs built in code rather than read. */
    default void requireValid() {
        List<String> problems = problems();
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
    }
}
