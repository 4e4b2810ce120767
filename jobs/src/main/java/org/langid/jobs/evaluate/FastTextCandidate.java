package org.langid.jobs.evaluate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import org.langid.model.train.LabelledWindows;
import org.langid.model.train.Shuffle;
import org.langid.text.Alphabet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * fastText (Debian's {@code fasttext} 0.9.2, run as a process) trained on the same prepared
 * training windows as the model, then scored on the same windows and sentences.
 *
 * <p>What fastText sees: each window decoded from its symbol indices, exactly the 16 normalised
 * characters the model reads, one line {@code __label__<language> <window>} each. fastText splits
 * a line into words at spaces and builds its character n-grams inside each word, between the
 * boundary marks {@code <} and {@code >}; so a space is a word boundary to it, never a character,
 * and the cut-off words at a window's two ends look like whole words. With
 * {@link FastTextSettings#joinWords()} spaces are written as {@code _} instead: the window is one
 * word and its n-grams cross the spaces, as the model's window does. Sentences are given whole,
 * one line each. Capitals are read as written (fastText has no case folding). Training lines go
 * in a seeded random order: fastText reads its input in file order, and prepare's order is by
 * language, which would teach the last language last.
 *
 * <p>Trained models are kept in a cache directory under a key derived from the training text's
 * SHA-256, the arguments and the binary, so re-running an evaluation does not train again.
 */
public final class FastTextCandidate implements Candidate {

    public static final String LABEL_PREFIX = "__label__";
    private static final Logger LOG = LoggerFactory.getLogger(FastTextCandidate.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long SHUFFLE_SEED = 20261124L;

    private final Path binary;
    private final Path model;
    private final FastTextSettings settings;
    private final ObjectNode training;
    private final Map<String, Integer> indexOf = new HashMap<>();   // label -> the model's class
    private final int threads;
    private final LanguageSubset subset;
    private final boolean[] answering;   // over the model's classes
    private final int[] indexOfClass;     // the model's class -> index in the subset's languages (or declined)

    private FastTextCandidate(Path binary, Path model, FastTextSettings settings, ObjectNode training, List<String> languages, int threads) {
        this(binary, model, settings, training, languages, threads, LanguageSubset.all(languages));
    }

    private FastTextCandidate(Path binary, Path model, FastTextSettings settings, ObjectNode training, List<String> languages, int threads,
                              LanguageSubset subset) {
        this.binary = binary;
        this.model = model;
        this.settings = settings;
        this.training = training;
        for (int i = 0; i < languages.size(); i++) {
            indexOf.put(LABEL_PREFIX + languages.get(i), i);
        }
        this.threads = threads;
        this.subset = subset;
        this.answering = subset.answering();
        this.indexOfClass = subset.indexOfClass();
    }

    /**
     * The same trained model answering from {@code subset} only (its classes and the model's und
     * class): the most probable of those labels, its probability renormalised over them. Each
     * text then takes every label's probability from fastText ({@code predict-prob} with k the
     * number of labels) instead of the best one's.
     */
    public FastTextCandidate restrictedTo(LanguageSubset subset) {
        if (!subset.model().equals(this.subset.model())) {
            throw new IllegalArgumentException("fastText was trained on " + this.subset.model() + ", not " + subset.model());
        }
        return new FastTextCandidate(binary, model, settings, training, subset.model(), threads, subset);
    }

    /**
     * The fastText binary: {@code explicit} if given (it must be executable), else {@code fasttext}
     * on the PATH; empty when there is none.
     */
    public static Optional<Path> locate(String explicit) {
        if (explicit != null) {
            Path path = Path.of(explicit);
            return Files.isExecutable(path) && !Files.isDirectory(path) ? Optional.of(path) : Optional.empty();
        }
        String searchPath = System.getenv("PATH");
        if (searchPath == null) {
            return Optional.empty();
        }
        for (String directory : searchPath.split(java.io.File.pathSeparator)) {
            if (directory.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(directory, "fasttext");
            if (Files.isExecutable(candidate) && !Files.isDirectory(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** The default cache: $XDG_CACHE_HOME/langid/fasttext, else ~/.cache/langid/fasttext. */
    public static Path defaultCache() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("langid").resolve("fasttext");
    }

    /**
     * Trains fastText on {@code windows} (or finds the model trained on the same text with the same
     * settings in {@code cache}).
     *
     * @param source where the windows were read, for the report
     * @param dataFingerprint the fingerprint prepare recorded for them, for the report ("unknown" if none)
     */
    public static FastTextCandidate train(Path binary, FastTextSettings settings, LabelledWindows windows, Alphabet alphabet, String source,
                                          String dataFingerprint, Path cache, int threads) {
        try {
            Files.createDirectories(cache);
            Path work = Files.createTempDirectory(cache, ".training-");
            try {
                Path text = work.resolve("train.txt");
                String textSha256 = writeTrainingText(windows, alphabet, text, settings);
                String key = cacheKey(binary, settings, textSha256);
                Path entry = cache.resolve(key);
                Path model = entry.resolve("model.bin");
                ObjectNode training;
                if (Files.isRegularFile(model) && Files.isRegularFile(entry.resolve("training.json"))) {
                    training = (ObjectNode) JSON.readTree(entry.resolve("training.json").toFile());
                    training.put("cached", true);
                    LOG.info("{}: trained model found in {}", settings.name(), entry);
                } else {
                    training = trainInto(binary, settings, text, work, threads);
                    training.put("windows", source);
                    training.put("count", windows.size());
                    training.put("data_fingerprint", dataFingerprint);
                    training.put("text_sha256", textSha256);
                    training.put("cache", entry.toString());
                    Files.delete(text);
                    JSON.writerWithDefaultPrettyPrinter().writeValue(work.resolve("training.json").toFile(), training);
                    publish(work, entry);
                    training.put("cached", false);
                }
                return new FastTextCandidate(binary, model, settings, training, windows.languages(), threads);
            } finally {
                deleteRecursively(work);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("fastText: " + e.getMessage(), e);
        }
    }

    /** Writes one labelled line per window in a seeded random order, as {@code settings} write text; returns the text's SHA-256. */
    public static String writeTrainingText(LabelledWindows windows, Alphabet alphabet, Path text, FastTextSettings settings) throws IOException {
        MessageDigest sha256 = sha256();
        int t = windows.windowLength();
        int[] order = Shuffle.permutation(windows.size(), SHUFFLE_SEED, 0);
        try (OutputStream file = Files.newOutputStream(text);
             BufferedWriter out = new BufferedWriter(new OutputStreamWriter(new DigestOutputStream(file, sha256), StandardCharsets.UTF_8), 1 << 16)) {
            for (int i : order) {
                out.write(LABEL_PREFIX);
                out.write(windows.languages().get(windows.labels()[i]));
                out.write(' ');
                out.write(settings.fastTextText(alphabet.decode(windows.symbols(), i * t, t)));
                out.write('\n');
            }
        }
        return HexFormat.of().formatHex(sha256.digest());
    }

    private static String cacheKey(Path binary, FastTextSettings settings, String textSha256) throws IOException {
        MessageDigest key = sha256();
        Path real = binary.toRealPath();
        key.update((textSha256 + "\0" + settings.commandLine() + "\0" + real + "\0" + Files.size(real) + "\0"
                + Files.getLastModifiedTime(real).toMillis()).getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(key.digest()).substring(0, 24);
    }

    private static ObjectNode trainInto(Path binary, FastTextSettings settings, Path text, Path work, int threads) throws IOException {
        List<String> command = new ArrayList<>(List.of(binary.toString(), "supervised", "-input", text.toString(),
                "-output", work.resolve("model").toString(), "-thread", Integer.toString(threads), "-verbose", "2"));
        command.addAll(settings.arguments());
        LOG.info("{}: training: {}", settings.name(), String.join(" ", command));
        System.err.println(settings.name() + ": training fastText (" + settings.commandLine() + ") ...");
        long started = System.nanoTime();
        run(command, work.resolve("stdout.txt"), work.resolve("training.log"), "training");
        double seconds = (System.nanoTime() - started) / 1e9;
        Files.deleteIfExists(work.resolve("model.vec"));   // word vectors: not needed to classify
        if (!Files.isRegularFile(work.resolve("model.bin"))) {
            throw new IllegalStateException("fastText training finished without writing " + work.resolve("model.bin"));
        }
        ObjectNode training = JSON.createObjectNode();
        training.put("arguments", settings.commandLine());
        training.put("text", settings.joinWords() ? "joined" : "words");
        training.put("threads", threads);
        training.put("seconds", seconds);
        training.put("binary", binary.toString());
        return training;
    }

    /** Moves the finished work directory's model into the cache under its key; a concurrent writer's copy wins. */
    private static void publish(Path work, Path entry) throws IOException {
        Path staged = Files.createTempDirectory(entry.getParent(), ".entry-");
        Files.move(work.resolve("model.bin"), staged.resolve("model.bin"));
        Files.move(work.resolve("training.json"), staged.resolve("training.json"));
        try {
            Files.move(staged, entry, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException | DirectoryNotEmptyException | AtomicMoveNotSupportedException e) {
            deleteRecursively(staged);
            if (!Files.isRegularFile(entry.resolve("model.bin"))) {
                throw new IOException("cannot store the trained model in " + entry + ": " + e.getMessage(), e);
            }
        }
    }

    @Override
    public String name() {
        return settings.name();
    }

    @Override
    public String description() {
        return "fastText 0.9.2 (Debian), supervised " + settings.describe() + ", trained on the same "
                + training.path("count").asLong() + " prepared training windows; capitals as written"
                + (subset.restricted() ? "; answers " + subset.describe() + ", probabilities renormalised over them" : "");
    }

    /** Every line gets at least the end-of-line token, so fastText always answers; restricted, its und class may be outside the subset. */
    @Override
    public boolean mayDecline() {
        return subset.answersUndOutside();
    }

    @Override
    public JsonNode training() {
        return training;
    }

    @Override
    public int[] predictWindows(char[] symbols, int window, Alphabet alphabet) {
        return predict(symbols.length / window,
                row -> settings.fastTextText(alphabet.decode(symbols, row * window, window))).predicted();
    }

    @Override
    public Answers predictTexts(List<String> texts, Alphabet alphabet) {
        return predict(texts.size(), i -> settings.fastTextText(alphabet.normalize(texts.get(i))));
    }

    /**
     * One {@code fasttext predict} process per thread, each on its share of the texts (model
     * loading included), but no more processes than memory holds: each takes about
     * {@value #PREDICT_MEMORY_PER_MODEL_BYTE}× its model file (6.7 GB resident for the 1.6 GB model
     * of the full corpus), and two of them were killed by the kernel beside a training run.
     */
    private Answers predict(int count, IntFunction<String> text) {
        int[] predicted = new int[count];
        double[] probability = new double[count];
        long modelBytes = modelBytes();
        int processes = predictProcesses(threads, modelBytes, availableMemoryBytes());
        if (processes < threads) {
            LOG.info("fasttext: {} prediction process(es) instead of {}: memory available for about {} of {} MB each",
                    processes, threads, processes, PREDICT_MEMORY_PER_MODEL_BYTE * modelBytes >> 20);
        }
        int share = Math.max(1, (count + processes - 1) / processes);
        Chunks.run(count, share, processes, (from, to) -> predictChunk(text, from, to, predicted, probability));
        return new Answers(predicted, probability);
    }

    /** Resident memory of a {@code fasttext predict} process per byte of its model file (measured, rounded up). */
    static final int PREDICT_MEMORY_PER_MODEL_BYTE = 5;

    /** Processes that fit in {@code available} bytes (at least one; all {@code threads} when memory is unknown). */
    static int predictProcesses(int threads, long modelBytes, long available) {
        if (available <= 0 || modelBytes <= 0) {
            return threads;
        }
        long fit = available / (PREDICT_MEMORY_PER_MODEL_BYTE * modelBytes);
        return (int) Math.max(1, Math.min(threads, fit));
    }

    private long modelBytes() {
        try {
            return Files.size(model);
        } catch (IOException e) {
            return 0;
        }
    }

    /** Linux's MemAvailable; 0 where /proc/meminfo is missing or unreadable. */
    private static long availableMemoryBytes() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/meminfo"))) {
            return lines.filter(l -> l.startsWith("MemAvailable:")).findFirst()
                    .map(l -> Long.parseLong(l.replaceAll("[^0-9]", "")) * 1024).orElse(0L);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /**
     * {@code fasttext predict-prob}: each line's best label and its probability; restricted, every
     * label's, and the best of the subset's with its probability over theirs.
     */
    private void predictChunk(IntFunction<String> text, int from, int to, int[] predicted, double[] probability) {
        Path work = null;
        try {
            work = Files.createTempDirectory("langid-fasttext-");
            Path input = work.resolve("input.txt");
            try (BufferedWriter out = Files.newBufferedWriter(input, StandardCharsets.UTF_8)) {
                for (int i = from; i < to; i++) {
                    out.write(text.apply(i));
                    out.write('\n');
                }
            }
            Path output = work.resolve("predicted.txt");
            int k = subset.restricted() ? indexOf.size() : 1;
            run(List.of(binary.toString(), "predict-prob", model.toString(), input.toString(), Integer.toString(k)), output,
                    work.resolve("stderr.txt"), "prediction");
            int i = from;
            try (Stream<String> lines = Files.lines(output, StandardCharsets.UTF_8)) {
                for (String line : (Iterable<String>) lines::iterator) {
                    String[] parts = line.trim().split(" ");
                    if (i >= to || parts.length % 2 != 0 || !subset.restricted() && parts.length != 2) {
                        throw unexpected(line, i - from + 1);
                    }
                    int best = -1;
                    double bestProbability = 0;
                    double sum = 0;
                    for (int p = 0; p < parts.length; p += 2) {
                        Integer label = indexOf.get(parts[p]);
                        if (label == null) {
                            throw unexpected(line, i - from + 1);
                        }
                        if (answering[label]) {
                            double value = Double.parseDouble(parts[p + 1]);
                            sum += value;
                            if (best < 0 || value > bestProbability) {
                                best = label;
                                bestProbability = value;
                            }
                        }
                    }
                    if (best < 0) {
                        throw unexpected(line, i - from + 1);
                    }
                    predicted[i] = indexOfClass[best];
                    probability[i++] = !subset.restricted() ? bestProbability : sum > 0 ? bestProbability / sum : 0;
                }
            }
            if (i != to) {
                throw new IllegalStateException("fastText answered " + (i - from) + " of " + (to - from) + " lines");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("fastText prediction: " + e.getMessage(), e);
        } finally {
            if (work != null) {
                deleteRecursively(work);
            }
        }
    }

    private IllegalStateException unexpected(String line, int number) {
        return new IllegalStateException("fastText predicted \"" + line + "\" for line " + number + "; expected "
                + (subset.restricted() ? "" : "one of ") + indexOf.keySet() + ", each label with a probability");
    }

    /** Runs a fastText command, its output to files; a failure says which step failed and fastText's last words. */
    private static void run(List<String> command, Path stdout, Path stderr, String what) throws IOException {
        Process process = new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        int exit;
        try {
            exit = process.waitFor();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during fastText " + what, e);
        }
        if (exit != 0) {
            String message = "fastText " + what + " failed (exit " + exit + "): "
                    + (exit == 137 ? "killed (SIGKILL: out of memory?)" : firstAndLastLines(stderr));
            // Training fails on the user's arguments ("Unknown argument: -dimm"); prediction failing is ours.
            throw what.equals("training") ? new IllegalArgumentException(message) : new IllegalStateException(message);
        }
    }

    /** fastText says what was wrong first (then prints its usage) and how it crashed last. */
    private static String firstAndLastLines(Path file) throws IOException {
        List<String> lines = Arrays.stream(Files.readString(file, StandardCharsets.UTF_8).split("[\r\n]+"))
                .map(String::trim).filter(l -> !l.isEmpty()).toList();
        if (lines.isEmpty()) {
            return "(no message)";
        }
        String first = lines.get(0);
        String last = lines.get(lines.size() - 1);
        return first.equals(last) || first.startsWith("Unknown") ? first : first + " ... " + last;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    LOG.warn("could not delete {}: {}", p, e.getMessage());
                }
            });
        } catch (IOException e) {
            LOG.warn("could not clean up {}: {}", root, e.getMessage());
        }
    }
}
