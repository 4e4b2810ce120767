package org.langid.jobs.cli;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops Spark with what its threads print to System.err meanwhile sent to the log file. Spark 3.5
 * sometimes races its own shutdown: a Scala future's callback is rejected by a pool that is
 * already shutting down, or a block-manager thread is interrupted, and the stack trace
 * (RejectedExecutionException, InterruptedException) goes straight to System.err, after the
 * job's results. The console is for people, so
 * during stop() every thread's System.err goes to the log; it is restored at once after, so the
 * command's own one-line error, printed later, still reaches the console.
 */
final class SparkShutdown {

    /** Under org.apache.spark: the log file only (conf/log4j2.properties), as Spark's own output. */
    private static final Logger LOG = LoggerFactory.getLogger("org.apache.spark.ShutdownOutput");

    private SparkShutdown() {
    }

    static void stop(SparkSession spark) {
        divertingStderr(spark::stop, LOG::warn);
    }

    /** Runs {@code action} with System.err, of every thread, handed line by line to {@code lines}. */
    static void divertingStderr(Runnable action, Consumer<String> lines) {
        PrintStream console = System.err;
        PrintStream toLog = new PrintStream(new LineLog(lines), true, StandardCharsets.UTF_8);
        System.setErr(toLog);
        try {
            action.run();
        } finally {
            System.setErr(console);
            toLog.close();
        }
    }

    private static final class LineLog extends OutputStream {
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();
        private final Consumer<String> lines;

        LineLog(Consumer<String> lines) {
            this.lines = lines;
        }

        @Override
        public synchronized void write(int b) {
            if (b == '\n') {
                flushLine();
            } else {
                line.write(b);
            }
        }

        @Override
        public synchronized void close() {
            flushLine();
        }

        private void flushLine() {
            if (line.size() > 0) {
                lines.accept(line.toString(StandardCharsets.UTF_8));
                line.reset();
            }
        }
    }
}
