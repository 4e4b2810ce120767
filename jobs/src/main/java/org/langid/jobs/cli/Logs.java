package org.langid.jobs.cli;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.spi.LoggerContext;

/**
 * The run's log file and {@code --verbose}. conf/log4j2.properties sends library logs to the file
 * named by -Dlangid.log.file (./langid and submit.sh set it) and to the console only when the
 * property langid.verbose.level says so.
 */
final class Logs {

    static final String FILE_PROPERTY = "langid.log.file";
    static final String VERBOSE_PROPERTY = "langid.verbose.level";

    private Logs() {
    }

    /** The run's log file, or null when the launcher named none. */
    static String file() {
        return System.getProperty(FILE_PROPERTY);
    }

    /** Library logs on the console too, from now on. */
    static void showLibraries() {
        System.setProperty(VERBOSE_PROPERTY, "all");
        LoggerContext context = LogManager.getContext(false);
        if (context instanceof org.apache.logging.log4j.core.LoggerContext core) {
            core.reconfigure();
        }
    }
}
