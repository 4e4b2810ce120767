package org.langid.jobs.cli;

import org.apache.hadoop.conf.Configuration;
import org.langid.model.artefact.ModelArtefact;
import org.langid.model.artefact.ModelRegistry;
import org.langid.model.predict.LanguageDetector;
import org.langid.serving.TextDetector;
import picocli.CommandLine.Option;

/** The options every command that loads a model shares: where it is and how text is cut into windows. */
public final class DetectorOptions {

    @Option(names = {"-m", "--model"}, required = true, paramLabel = "DIR",
            description = "A model artefact directory, or a registry (its current version is used). Local, hdfs:// or s3a://.")
    String model;

    @Option(names = "--stride", paramLabel = "N", defaultValue = "" + TextDetector.DEFAULT_STRIDE,
            description = "Characters between the starts of a text's windows (1: every window, as training cut them; "
                    + TextDetector.DEFAULT_STRIDE + " was as accurate on sentences and " + TextDetector.DEFAULT_STRIDE
                    + " times cheaper, docs/RESULTS.md). Default: ${DEFAULT-VALUE}.")
    int stride;

    @Option(names = "--max-windows-per-text", paramLabel = "N", defaultValue = "256",
            description = "Longer texts get this many windows spread evenly over them. Default: ${DEFAULT-VALUE}.")
    int maxWindowsPerText;

    @Option(names = "--batch", paramLabel = "N", defaultValue = "" + TextDetector.DEFAULT_BATCH,
            description = "Windows per model call. Default: ${DEFAULT-VALUE}.")
    int batch;

    /** Shared with {@link ServeCommand}, which takes its detector options on its own. */
    static final String FOLD_CAPITALS_DESCRIPTION =
            "Read a window with no small letter and at least two capitals in lower case (--no-fold-capitals: as written). "
                    + "Default: ${DEFAULT-VALUE}.";

    @Option(names = "--fold-capitals", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = FOLD_CAPITALS_DESCRIPTION)
    boolean foldCapitals;

    @Option(names = "--engine", paramLabel = "ENGINE", defaultValue = "onnx",
            description = "What runs the model: onnx (ONNX Runtime, the artefact's model.int8.onnx when it has one that is exact on this CPU, else model.onnx), "
                    + "onnx-float (model.onnx, float32 as trained) or samediff (graph.fb, op by op: the training truth, several times "
                    + "slower). Artefacts without model.onnx fall back to samediff. Default: ${DEFAULT-VALUE}.")
    String engine;

    LanguageDetector.Options options() {
        return options(Runtime.getRuntime().availableProcessors());
    }

    /** @param parallelism model calls side by side, each single-threaded */
    LanguageDetector.Options options(int parallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("--threads must be at least 1, not " + parallelism);
        }
        LanguageDetector.Engine chosen = switch (engine) {
            case "onnx" -> LanguageDetector.Engine.ONNX;
            case "onnx-float" -> LanguageDetector.Engine.ONNX_FLOAT;
            case "samediff" -> LanguageDetector.Engine.SAMEDIFF;
            default -> throw new IllegalArgumentException("--engine is onnx, onnx-float or samediff, not '" + engine + "'");
        };
        return new LanguageDetector.Options(stride, maxWindowsPerText, batch, parallelism, foldCapitals, chosen);
    }

    /**
     * Starts the slow one-time initialisations of loading a model on another thread, while this
     * one resolves the model through Hadoop's FileSystem: the manifest's JSON schema (~0.5 s) and
     * ONNX Runtime's native library (~0.4 s). Whole-process detection starts about a second sooner
     * on 2 cores. Failures are ignored here: the real load reports them.
     */
    static void preloadInBackground() {
        Thread preload = new Thread(() -> {
            try {
                org.langid.model.schema.JsonSchemas.preload(org.langid.model.artefact.Manifest.SCHEMA_FILE);
                ai.onnxruntime.OrtEnvironment.getEnvironment();
            } catch (RuntimeException | LinkageError e) {
                // reported by the load itself
            }
        }, "langid-preload");
        preload.setDaemon(true);
        preload.start();
    }

    /** The artefact directory loaded (for a registry: its current version's), set by {@link #load}. */
    String artefactLocation;

    LanguageDetector load(Configuration conf) {
        return load(conf, Runtime.getRuntime().availableProcessors());
    }

    /** @param parallelism model calls side by side, each single-threaded */
    LanguageDetector load(Configuration conf, int parallelism) {
        LanguageDetector.Options options = options(parallelism);
        preloadInBackground();
        artefactLocation = ModelRegistry.resolve(model, conf);
        LanguageDetector detector = new LanguageDetector(ModelArtefact.load(artefactLocation, conf), options);
        System.err.println("model " + detector.manifest().modelVersion() + " (" + String.join(",", detector.languages()) + ") from "
                + artefactLocation + ", run by " + detector.engine());
        return detector;
    }
}
