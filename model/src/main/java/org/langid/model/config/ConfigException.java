package org.langid.model.config;

/** A configuration that cannot be used; the message is meant for the user, as one line. */
public class ConfigException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
        super(message);
    }
}
