package org.langid.model.train;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends what a library prints to {@code System.out} to the log instead. SameDiff 1.0.0-M2.1
 * prints "Added differentiated op ..." for every op of a new gradient function, about 120 lines
 * for this model, unconditionally. Only the calling thread's output is diverted: other threads
 * (a job printing its results) keep the console.
 */
public final class LibraryStdout {

    private static final Logger SAMEDIFF = LoggerFactory.getLogger("org.nd4j.autodiff.samediff.SameDiff");
    private static final ThreadLocal<ByteArrayOutputStream> DIVERTED = new ThreadLocal<>();
    /** What the JVM encodes System.out with (Java 17 has no PrintStream.charset()). */
    private static final Charset CONSOLE_CHARSET = System.getProperty("sun.stdout.encoding") != null
            ? Charset.forName(System.getProperty("sun.stdout.encoding")) : Charset.defaultCharset();

    private LibraryStdout() {
    }

    /** Runs {@code action}; the lines it prints to System.out go to the SameDiff logger at INFO. */
    public static <T> T toLog(Supplier<T> action) {
        install();
        ByteArrayOutputStream lines = new ByteArrayOutputStream();
        DIVERTED.set(lines);
        try {
            return action.get();
        } finally {
            DIVERTED.remove();
            String text = lines.toString(CONSOLE_CHARSET);
            if (!text.isBlank()) {
                text.lines().forEach(SAMEDIFF::info);
            }
        }
    }

    /** Puts a thread-aware stream in front of System.out, once (again if someone replaced it since). */
    private static synchronized void install() {
        if (System.out instanceof Dispatching) {
            return;
        }
        System.setOut(new Dispatching(System.out));
    }

    /** Writes to the calling thread's diversion when it has one, else to the stream it replaced. */
    private static final class Dispatching extends PrintStream {
        Dispatching(PrintStream console) {
            super(new OutputStream() {
                @Override
                public void write(int b) {
                    ByteArrayOutputStream diverted = DIVERTED.get();
                    if (diverted != null) {
                        diverted.write(b);
                    } else {
                        console.write(b);
                    }
                }

                @Override
                public void write(byte[] b, int off, int len) {
                    ByteArrayOutputStream diverted = DIVERTED.get();
                    if (diverted != null) {
                        diverted.write(b, off, len);
                    } else {
                        console.write(b, off, len);
                    }
                }

                @Override
                public void flush() {
                    console.flush();
                }
            }, true, CONSOLE_CHARSET);
        }
    }
}
