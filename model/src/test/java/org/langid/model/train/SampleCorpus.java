package org.langid.model.train;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.langid.model.data.SentenceSplitter;
import org.langid.model.data.Split;
import org.langid.text.Alphabet;
import org.langid.text.Windows;

/**
 * The committed sample corpus (data/sample/libreoffice) as labelled windows, built with the
 * same pieces as `langid prepare` (normaliser, sentence splitter, windows) but without Spark,
 * so model tests can train on real text.
 */
public final class SampleCorpus {

    public static final Path SAMPLE = Path.of("..", "data", "sample", "libreoffice");

    private SampleCorpus() {
    }

    public static Map<Split, LabelledWindows> load(List<String> languages, int window, int stride) throws IOException {
        return load(List.of(SAMPLE), languages, Alphabet.SEED, window, stride);
    }

    /**
     * The committed many-language sample's windows (data/sample/many, the training sources) read
     * through {@code alphabet}, labelled by {@code languages}' order; und, which has no file, has none.
     */
    public static Map<Split, LabelledWindows> loadMany(List<String> languages, Alphabet alphabet, int window, int stride)
            throws IOException {
        return load(List.of(MANY.resolve("libreoffice"), MANY.resolve("firefox"), MANY.resolve("lo-ui")), languages, alphabet, window,
                stride);
    }

    /** Each language's sentences from {@code <source>/<language>.txt} of every source that has one, as prepare splits and cuts them. */
    private static Map<Split, LabelledWindows> load(List<Path> sources, List<String> languages, Alphabet alphabet, int window, int stride)
            throws IOException {
        SentenceSplitter splitter = new SentenceSplitter(0.8, 0.1, 20261121L);
        Map<Split, ByteList> symbols = new EnumMap<>(Split.class);
        Map<Split, List<Integer>> labels = new EnumMap<>(Split.class);
        for (Split split : Split.values()) {
            symbols.put(split, new ByteList());
            labels.put(split, new ArrayList<>());
        }
        for (int label = 0; label < languages.size(); label++) {
            String language = languages.get(label);
            Set<String> sentences = new LinkedHashSet<>();
            boolean found = false;
            for (Path source : sources) {
                Path file = source.resolve(language + ".txt");
                if (!Files.exists(file)) {
                    continue;
                }
                found = true;
                for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                    String normalised = alphabet.normalize(line);
                    if (normalised.length() >= window) {
                        sentences.add(normalised);
                    }
                }
            }
            if (!found && !language.equals(org.langid.model.graph.ModelConfig.OTHER_LANGUAGES)) {
                throw new java.nio.file.NoSuchFileException(sources.get(0).resolve(language + ".txt").toString());
            }
            for (String sentence : sentences) {
                Split split = splitter.splitOf(SentenceSplitter.sentenceId(language, sentence));
                for (String w : Windows.cut(sentence, window, stride)) {
                    symbols.get(split).addAll(alphabet.encode(w));
                    labels.get(split).add(label);
                }
            }
        }
        Map<Split, LabelledWindows> result = new EnumMap<>(Split.class);
        for (Split split : Split.values()) {
            result.put(split, new LabelledWindows(symbols.get(split).toArray(),
                    labels.get(split).stream().mapToInt(Integer::intValue).toArray(), window, languages));
        }
        return result;
    }

    public static final Path MANY = Path.of("..", "data", "sample", "many");

    private static final class ByteList {
        private char[] values = new char[1 << 16];
        private int size;

        void addAll(char[] more) {
            while (size + more.length > values.length) {
                values = java.util.Arrays.copyOf(values, values.length * 2);
            }
            System.arraycopy(more, 0, values, size, more.length);
            size += more.length;
        }

        char[] toArray() {
            return java.util.Arrays.copyOf(values, size);
        }
    }
}
