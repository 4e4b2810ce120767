package org.langid.model.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class LibraryStdoutTest {

    @Test
    void whatTheCallingThreadPrintsLeavesTheConsoleAndOtherThreadsKeepIt() throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        System.setOut(new PrintStream(console, true, StandardCharsets.UTF_8));
        try {
            int result = LibraryStdout.toLog(() -> {
                System.out.println("Added differentiated op matmul_1");
                Thread other = new Thread(() -> System.out.println("a result another thread prints"));
                other.start();
                try {
                    other.join();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                return 42;
            });
            System.out.println("printed after");
            assertEquals(42, result);
        } finally {
            System.setOut(original);
        }
        String printed = console.toString(StandardCharsets.UTF_8);
        assertFalse(printed.contains("Added differentiated op"), printed);
        assertTrue(printed.contains("a result another thread prints"), printed);
        assertTrue(printed.contains("printed after"), printed);
    }
}
