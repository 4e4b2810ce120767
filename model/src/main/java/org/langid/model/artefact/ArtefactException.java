package org.langid.model.artefact;

/** An artefact or registry that cannot be used as it is: damaged, missing, or of a newer format. The message says which and why. */
public final class ArtefactException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ArtefactException(String message) {
        super(message);
    }

    public ArtefactException(String message, Throwable cause) {
        super(message, cause);
    }
}
