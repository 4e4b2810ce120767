package org.langid.jobs.prepare;

/** A problem with the job's inputs or settings that the user can fix; its message is one line. */
public class PrepareException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public PrepareException(String message) {
        super(message);
    }
}
