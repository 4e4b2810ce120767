package org.langid.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * conf/log4j2.properties as ./langid and submit.sh use it, in a JVM of its own (about a second
 * each): the console gets our progress lines, the run's log file everything, our DEBUG diagnostics
 * included, --verbose all of it on the console.
 */
class LoggingTest {

    private static final Path CONFIG = Path.of("..", "conf", "log4j2.properties").toAbsolutePath().normalize();

    @TempDir
    Path temp;

    private record Run(String console, String logFile) {
    }

    private Run run(String... args) throws IOException, InterruptedException {
        Path log = temp.resolve("logs/run.log");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dlog4j2.configurationFile=" + CONFIG, "-Dlangid.log.file=" + log,
                "-cp", System.getProperty("java.class.path"), LoggingProbe.class.getName()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String console = new String(process.getInputStream().readAllBytes());
        assertEquals(0, process.waitFor(), console);
        return new Run(console, Files.isRegularFile(log) ? Files.readString(log) : "");
    }

    @Test
    void theConsoleGetsOurLinesAndTheLogFileEverything() throws IOException, InterruptedException {
        Run run = run();
        assertTrue(run.console().contains("our progress line"), run.console());
        assertFalse(run.console().contains("library line"), run.console());
        assertFalse(run.console().contains("library error line"), "a library's ERROR goes to the file too: " + run.console());
        assertTrue(run.logFile().contains("library line"), run.logFile());
        assertTrue(run.logFile().contains("library error line"), run.logFile());
        assertTrue(run.logFile().contains("our progress line"), run.logFile());
        assertFalse(run.console().contains("our diagnostic line"), "our DEBUG lines are for the file: " + run.console());
        assertTrue(run.logFile().contains("our diagnostic line"), run.logFile());
    }

    @Test
    void verboseShowsLibraryLinesOnTheConsoleAsWell() throws IOException, InterruptedException {
        Run run = run("--verbose");
        assertTrue(run.console().contains("library line"), run.console());
        assertEquals(1, run.console().split("our progress line", -1).length - 1, "our line once, not twice: " + run.console());
        assertTrue(run.logFile().contains("library line"), run.logFile());
        assertTrue(run.console().contains("our diagnostic line"), run.console());
    }
}
