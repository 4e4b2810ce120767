package org.langid.jobs.prepare;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPOutputStream;

/** Small corpora written to real files for the tests. */
final class TestCorpora {

    private static final String[] EN = {"the", "house", "is", "small", "and", "we", "like", "green", "trees", "over", "there"};
    private static final String[] DE = {"das", "Haus", "ist", "klein", "und", "wir", "mögen", "grüne", "Bäume", "dort", "drüben"};
    private static final String[] FR = {"la", "maison", "est", "petite", "et", "nous", "aimons", "les", "arbres", "verts", "là"};

    private TestCorpora() {
    }

    /** n distinct sentences of 3 to 20 words and at least 24 characters, deterministic for a seed. */
    static List<String> sentences(String language, int n, long seed) {
        String[] words = switch (language) {
            case "de" -> DE;
            case "fr" -> FR;
            default -> EN;
        };
        Random random = new Random(seed);
        List<String> sentences = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            StringBuilder s = new StringBuilder(words[random.nextInt(words.length)]);
            int length = 3 + random.nextInt(18);
            for (int w = 1; w < length || s.length() < 24; w++) {
                s.append(' ').append(words[random.nextInt(words.length)]);
            }
            sentences.add(s.append(' ').append(i).append('.').toString());
        }
        return sentences;
    }

    static Path writeLines(Path file, List<String> lines) throws IOException {
        Files.createDirectories(file.getParent());
        return Files.writeString(file, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
    }

    static Path writeGzipLines(Path file, List<String> lines) throws IOException {
        Files.createDirectories(file.getParent());
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
            out.write((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
        }
        return file;
    }

    static Path writeBytes(Path file, byte[]... parts) throws IOException {
        Files.createDirectories(file.getParent());
        try (OutputStream out = Files.newOutputStream(file)) {
            for (byte[] part : parts) {
                out.write(part);
            }
        }
        return file;
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
