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

/**
 * {@code langid predict}'s quick path: the same options and the same output, in a JVM that
 * loads only this module (no Spark, Hadoop or ND4J), so that it starts ~1 s sooner
 * (docs/RESULTS.md, "Detection speed"). {@code ./langid predict} runs it first.
 *
 * <p>It takes only what it can do exactly as the full command does: a model and an input on
 * local disk (the input plain or .gz), ONNX Runtime. Anything else (a path with a scheme, another
 * compression, {@code --engine samediff}, an artefact without an ONNX flavour or one that does
 * not load, {@code --help}, an option or value it does not take) makes it exit with
 * {@link #HAND_OVER} before reading any input, and the launcher runs the full command line,
 * which also writes every usage and loading error. What it checks of an artefact is what
 * {@code langid serve} checks: the manifest and the SHA-256 of the ONNX file it runs (it never
 * reads graph.fb).
 */
public final class QuickPredict implements Callable<Integer> {

    /** Exit status: this request needs the full command line (nothing was read or written). */
    public static final int HAND_OVER = 90;

    private static final List<String> OTHER_COMPRESSIONS = List.of(".bz2", ".deflate", ".lz4", ".snappy", ".zst");

    // The options of jobs/'s PredictCommand and DetectorOptions, with the same defaults.
    private String model;
    private int stride = TextDetector.DEFAULT_STRIDE;
    private int maxWindowsPerText = 256;
    private int batch = TextDetector.DEFAULT_BATCH;
    private List<String> languages;   // null: every language of the model
    private Double confidenceFloor;   // null: the manifest's
    private boolean foldCapitals = true;
    private String engine = "onnx";
    private String input;
    private String format = "tsv";
    private Integer threads;

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
        if (args.length == 0 || !"predict".equals(args[0])) {
            return HAND_OVER;   // options before the subcommand (--verbose), or another subcommand
        }
        QuickPredict command = new QuickPredict(stdin, out, err);
        if (!command.parse(args)) {
            return HAND_OVER;
        }
        Thread preload = new Thread(ai.onnxruntime.OrtEnvironment::getEnvironment, "langid-preload");   // its native library, meanwhile
        preload.setDaemon(true);
        preload.start();
        try {
            return command.call();
        } catch (RuntimeException | IOException e) {
            err.println("langid predict: error: " + e.getMessage());
            return 1;
        }
    }

    /**
     * Reads the options after {@code predict}, in the forms picocli gives the same meaning to:
     * {@code --name value}, {@code --name=value}, {@code -m value}, {@code -i value},
     * {@code --[no-]fold-capitals}, counts as plain decimals. Anything else (another form, an
     * option given twice, a value that starts with '-', an option this class does not have) is
     * false: the full command line, whose parser is picocli, takes it. Not picocli here: in a
     * fresh JVM it costs ~0.09 s, a quarter of this path's start-up (its class files are too old
     * for JDK 17's dynamic class-data archive).
     */
    private boolean parse(String[] args) {
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (int i = 1; i < args.length; i++) {
            String arg = args[i];
            int equals = arg.startsWith("--") ? arg.indexOf('=') : -1;
            String name = equals < 0 ? arg : arg.substring(0, equals);
            String canonical = switch (name) {
                case "-m", "--model" -> "--model";
                case "-i", "--input" -> "--input";
                case "--fold-capitals", "--no-fold-capitals" -> "--fold-capitals";
                default -> name;
            };
            if (!seen.add(canonical)) {
                return false;
            }
            if (canonical.equals("--fold-capitals")) {
                if (equals >= 0) {
                    return false;
                }
                foldCapitals = name.equals("--fold-capitals");
                continue;
            }
            String value;
            if (equals >= 0) {
                value = arg.substring(equals + 1);
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                return false;
            }
            if (value.isEmpty() || value.startsWith("-")) {
                return false;
            }
            switch (canonical) {
                case "--model" -> model = value;
                case "--input" -> input = value;
                case "--engine" -> engine = value;
                case "--format" -> format = value;
                case "--languages" -> languages = List.of(value.split(",", -1));
                case "--confidence-floor" -> {
                    if (!value.matches("0(\\.[0-9]{1,9})?|\\.[0-9]{1,9}")) {
                        return false;   // the full command line says what is wrong with it
                    }
                    confidenceFloor = Double.parseDouble(value);
                }
                case "--stride", "--max-windows-per-text", "--batch", "--threads" -> {
                    if (!value.matches("[1-9][0-9]{0,8}")) {
                        return false;
                    }
                    int count = Integer.parseInt(value);
                    switch (canonical) {
                        case "--stride" -> stride = count;
                        case "--max-windows-per-text" -> maxWindowsPerText = count;
                        case "--batch" -> batch = count;
                        default -> threads = count;
                    }
                }
                default -> {
                    return false;
                }
            }
        }
        return model != null;
    }

    @Override
    public Integer call() throws IOException {
        Path modelDirectory = localPath(model);
        Path inputFile = input == null ? null : localPath(input);
        if (!("onnx".equals(engine) || "onnx-float".equals(engine)) || !("tsv".equals(format) || "json".equals(format)) || (threads != null && threads < 1)
                || stride < 1 || maxWindowsPerText < 1 || batch < 1 || modelDirectory == null
                || (input != null && (inputFile == null || !Files.isRegularFile(inputFile) || !Files.isReadable(inputFile)
                        || OTHER_COMPRESSIONS.stream().anyMatch(input::endsWith)))) {
            return HAND_OVER;
        }
        ServingModel loaded;
        try {
            loaded = ServingModel.load(modelDirectory, new TextDetector.Options(stride, maxWindowsPerText, batch, foldCapitals), 1,
                    threads != null ? threads : Runtime.getRuntime().availableProcessors(), "onnx".equals(engine));
        } catch (RuntimeException e) {
            return HAND_OVER;   // the full command line says what is wrong, or runs the SameDiff graph
        }
        try (ServingModel serving = loaded;
             InputStream in = inputFile == null ? stdin : open(inputFile)) {
            TextDetector detector;
            try {
                detector = languages == null ? serving.detector() : serving.detector().restrictedTo(languages);
                detector = confidenceFloor == null ? detector : detector.withConfidenceFloor(confidenceFloor);
            } catch (IllegalArgumentException e) {
                return HAND_OVER;   // the full command line says which language the model lacks
            }
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
