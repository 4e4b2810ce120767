package org.langid.serving;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.zip.GZIPInputStream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code langid predict}'s quick path: the same options and the same output, in a JVM that
 * loads only this module (no Spark, Hadoop or ND4J), so that it starts ~0.8 s sooner
 * (bench/DETECT.md). {@code ./langid predict} runs it first.
 *
 * <p>It takes only what it can do exactly as the full command does: a model and an input on
 * local disk (the input plain or .gz), ONNX Runtime. Anything else (a path with a scheme, another
 * compression, {@code --engine samediff}, an artefact without model.onnx or one that does not
 * load, {@code --help}, an option or value it does not take) makes it exit with
 * {@link #HAND_OVER} before reading any input, and the launcher runs the full command line,
 * which also writes every usage and loading error. What it checks of an artefact is what
 * {@code langid serve} checks: the manifest and model.onnx's SHA-256 (it never reads graph.fb).
 */
@Command(name = "predict")
public final class QuickPredict implements Callable<Integer> {

    /** Exit status: this request needs the full command line (nothing was read or written). */
    public static final int HAND_OVER = 90;

    private static final List<String> OTHER_COMPRESSIONS = List.of(".bz2", ".deflate", ".lz4", ".snappy", ".zst");

    // The options of jobs/'s PredictCommand and DetectorOptions, declared alike so that picocli parses them alike.
    @Option(names = {"-m", "--model"}, required = true)
    String model;

    @Option(names = "--stride", defaultValue = "" + TextDetector.DEFAULT_STRIDE)
    int stride;

    @Option(names = "--max-windows-per-text", defaultValue = "256")
    int maxWindowsPerText;

    @Option(names = "--batch", defaultValue = "" + TextDetector.DEFAULT_BATCH)
    int batch;

    @Option(names = "--fold-capitals", negatable = true, defaultValue = "true", fallbackValue = "true")
    boolean foldCapitals;

    @Option(names = "--engine", defaultValue = "onnx")
    String engine;

    @Option(names = {"-i", "--input"})
    String input;

    @Option(names = "--format", defaultValue = "tsv")
    String format;

    @Option(names = "--threads")
    Integer threads;

    private final InputStream stdin;
    private final PrintStream out;
    private final PrintStream err;

    private QuickPredict(InputStream stdin, PrintStream out, PrintStream err) {
        this.stdin = stdin;
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.in, System.out, System.err));
    }

    /**
     * Runs {@code predict OPTIONS…} (the launcher's whole command line).
     *
     * @return 0, 1 after an error during detection (one line on {@code err}), or {@link #HAND_OVER}
     */
    public static int run(String[] args, InputStream stdin, PrintStream out, PrintStream err) {
        Thread preload = new Thread(ai.onnxruntime.OrtEnvironment::getEnvironment, "langid-preload");   // its native library, meanwhile
        preload.setDaemon(true);
        preload.start();
        if (args.length == 0 || !"predict".equals(args[0])) {
            return HAND_OVER;   // options before the subcommand (--verbose), or another subcommand
        }
        QuickPredict command = new QuickPredict(stdin, out, err);
        try {
            new CommandLine(command).parseArgs(java.util.Arrays.copyOfRange(args, 1, args.length));
        } catch (CommandLine.ParameterException e) {
            return HAND_OVER;
        }
        try {
            return command.call();
        } catch (RuntimeException | IOException e) {
            err.println("langid predict: error: " + e.getMessage());
            return 1;
        }
    }

    @Override
    public Integer call() throws IOException {
        Path modelDirectory = localPath(model);
        Path inputFile = input == null ? null : localPath(input);
        if (!"onnx".equals(engine) || !("tsv".equals(format) || "json".equals(format)) || (threads != null && threads < 1)
                || stride < 1 || maxWindowsPerText < 1 || batch < 1 || modelDirectory == null
                || (input != null && (inputFile == null || !Files.isRegularFile(inputFile) || !Files.isReadable(inputFile)
                        || OTHER_COMPRESSIONS.stream().anyMatch(input::endsWith)))) {
            return HAND_OVER;
        }
        ServingModel loaded;
        try {
            loaded = ServingModel.load(modelDirectory, new TextDetector.Options(stride, maxWindowsPerText, batch, foldCapitals), 1,
                    threads != null ? threads : Runtime.getRuntime().availableProcessors());
        } catch (RuntimeException e) {
            return HAND_OVER;   // the full command line says what is wrong, or runs the SameDiff graph
        }
        try (ServingModel serving = loaded;
             InputStream in = inputFile == null ? stdin : open(inputFile)) {
            TextDetector detector = serving.detector();
            err.println("model " + serving.modelVersion() + " (" + String.join(",", detector.languages()) + ") from "
                    + serving.directory() + ", run by " + detector.classifier().engine());
            LinePredictions.Counts counts = LinePredictions.write(in, out, detector::detectAll, LinePredictions.Format.of(format));
            if (counts.undecodableNotice() != null) {
                err.println(counts.undecodableNotice());
            }
            return 0;
        } catch (UncheckedIOException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    private static InputStream open(Path file) throws IOException {
        InputStream raw = Files.newInputStream(file);
        return file.toString().endsWith(".gz") ? new GZIPInputStream(raw, 1 << 16) : raw;
    }

    /** The path a plain local name gives, or null for anything Hadoop would read otherwise (a scheme, a colon). */
    private static Path localPath(String name) {
        return name.isEmpty() || name.indexOf(':') >= 0 ? null : Path.of(name);
    }
}
