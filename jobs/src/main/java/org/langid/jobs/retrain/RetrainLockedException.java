package org.langid.jobs.retrain;

/** Another retraining run holds the registry's lock; the message names the lock file and its owner. */
public final class RetrainLockedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    RetrainLockedException(String message) {
        super(message);
    }
}
