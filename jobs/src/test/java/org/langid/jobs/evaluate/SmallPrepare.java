package org.langid.jobs.evaluate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.langid.jobs.SparkTestSession;
import org.langid.jobs.prepare.PrepareConfig;
import org.langid.jobs.prepare.PrepareJob;

/**
 * A small prepare output of the sample, the first {@value #SENTENCES_PER_LANGUAGE} sentences of
 * each language of data/sample/libreoffice: made once per test JVM and shared by the evaluate
 * tests that only read it (deleted when the JVM exits).
 */
final class SmallPrepare {

    static final int SENTENCES_PER_LANGUAGE = 150;
    private static final Path SAMPLE = Path.of("..", "data", "sample", "libreoffice");
    private static String prepared;
    private static Path root;

    private SmallPrepare() {
    }

    /** The prepare output directory (splits train, validation, test). */
    static synchronized String get() {
        if (prepared == null) {
            try {
                root = Files.createTempDirectory("langid-small-prepare-");
                Path created = root;
                Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(created)));
                Path corpus = Files.createDirectories(root.resolve("corpus"));
                try (Stream<Path> files = Files.list(SAMPLE)) {
                    for (Path file : files.toList()) {
                        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
                        Files.write(corpus.resolve(file.getFileName()), lines.subList(0, SENTENCES_PER_LANGUAGE), StandardCharsets.UTF_8);
                    }
                }
                String output = root.resolve("prepared").toString();
                new PrepareJob(SparkTestSession.get(), new PrepareConfig()).run(List.of(corpus.toString()), output, false);
                prepared = output;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return prepared;
    }

    /**
     * A fastText cache beside it, shared by the tests that train the same settings on it through
     * {@code langid evaluate} (the second finds the first's model); not for tests of the cache itself.
     */
    static synchronized Path fastTextCache() {
        get();
        return root.resolve("fasttext-cache");
    }

    private static void delete(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind
        }
    }
}
