package org.langid.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** What Spark's threads print to System.err while it stops stays off the console; the console is back at once after. */
class SparkShutdownTest {

    @Test
    void anotherThreadsStackTraceDuringStopGoesToTheLogAndTheConsoleComesBackAfter() throws Exception {
        PrintStream original = System.err;
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PrintStream consoleStream = new PrintStream(console, true, StandardCharsets.UTF_8);
        System.setErr(consoleStream);
        try {
            java.util.List<String> logged = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
            SparkShutdown.divertingStderr(() -> {
                Thread pool = new Thread(() -> new java.util.concurrent.RejectedExecutionException("pool shutting down").printStackTrace());
                pool.start();
                try {
                    pool.join();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }, logged::add);
            assertEquals("java.util.concurrent.RejectedExecutionException: pool shutting down", logged.get(0), "the log has it");
            assertTrue(logged.size() > 1, "with its stack trace");
            assertEquals("", console.toString(StandardCharsets.UTF_8), "nothing printed during stop reaches the console");
            assertSame(consoleStream, System.err, "System.err is the console again");
            System.err.println("langid train: error: a one-line error after stop");
            assertEquals("langid train: error: a one-line error after stop" + System.lineSeparator(), console.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(original);
        }
    }
}
