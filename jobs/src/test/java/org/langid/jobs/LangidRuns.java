package org.langid.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import org.langid.jobs.cli.LangidCommand;

/** Runs langid commands in the test's JVM as the command line does (commands print results with System.out). */
public final class LangidRuns {

    private LangidRuns() {
    }

    /** Runs a command that must succeed; returns what it printed on stdout. */
    public static String output(String... args) {
        return output(0, args);
    }

    /** Runs a command that must exit with {@code expectedExit} (its stderr in the failure message); returns what it printed on stdout. */
    public static String output(int expectedExit, String... args) {
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        int exit;
        try {
            exit = LangidCommand.execute(new PrintWriter(err, true), args);
        } finally {
            System.setOut(original);
        }
        assertEquals(expectedExit, exit, err.toString());
        return captured.toString(StandardCharsets.UTF_8);
    }
}
