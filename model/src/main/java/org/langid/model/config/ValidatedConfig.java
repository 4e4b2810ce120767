package org.langid.model.config;

import java.util.List;

/** A config section that checks itself once, after binding, and explains what is wrong. */
public interface ValidatedConfig {

    /** Every problem with the values, as sentences a user can act on; empty when valid. */
    List<String> problems();
}
