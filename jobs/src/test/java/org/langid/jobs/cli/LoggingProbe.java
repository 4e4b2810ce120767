package org.langid.jobs.cli;

import org.slf4j.LoggerFactory;

/** For LoggingTest: logs lines as a library and as ours (progress and a diagnostic), in a JVM of its own; --verbose as the CLI does it. */
public final class LoggingProbe {

    private LoggingProbe() {
    }

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("--verbose")) {
            Logs.showLibraries();
        }
        LoggerFactory.getLogger("org.apache.spark.scheduler.TaskSetManager").info("library line");
        LoggerFactory.getLogger("org.apache.spark.scheduler.TaskSetManager").error("library error line");
        LoggerFactory.getLogger("org.langid.jobs.train.AveragingTrainer").info("our progress line");
        LoggerFactory.getLogger("org.langid.model.train.LocalSteps").debug("our diagnostic line");
    }
}
