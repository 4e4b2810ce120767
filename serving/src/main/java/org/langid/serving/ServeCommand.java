package org.langid.serving;

import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.langid.serving.http.DetectionServer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Serve language detection over HTTP: POST /v1/detect with {\"text\": \"...\"} or {\"texts\": [...]}, "
                + "GET /healthz, GET /v1/model. Given a model registry, a newly published version is picked up without "
                + "a restart. Runs until interrupted (Ctrl-C).")
public final class ServeCommand implements Callable<Integer> {

    @Option(names = "--model", required = true, paramLabel = "DIR",
            description = "A model artefact directory, or a model registry (its current version is served and followed).")
    String model;

    @Option(names = "--host", defaultValue = "127.0.0.1",
            description = "Address to listen on (0.0.0.0 for every interface). Default: ${DEFAULT-VALUE}, this machine only.")
    String host;

    @Option(names = "--port", defaultValue = "8080", description = "Port to listen on (0: any free port). Default: ${DEFAULT-VALUE}.")
    int port;

    @Option(names = "--max-request-bytes", paramLabel = "N", defaultValue = "" + DetectionServer.Limits.DEFAULT_MAX_REQUEST_BYTES,
            description = "Larger request bodies get 413. Default: ${DEFAULT-VALUE}.")
    long maxRequestBytes;

    @Option(names = "--max-texts", paramLabel = "N", defaultValue = "" + DetectionServer.Limits.DEFAULT_MAX_TEXTS,
            description = "Requests with more texts get 413. Default: ${DEFAULT-VALUE}.")
    int maxTexts;

    @Option(names = "--reload-seconds", paramLabel = "S", defaultValue = "" + DetectionServer.Limits.DEFAULT_RELOAD_SECONDS,
            description = "How often a registry is checked for a newly published version. Default: ${DEFAULT-VALUE}.")
    int reloadSeconds;

    @Option(names = "--stride", paramLabel = "N", defaultValue = "" + TextDetector.DEFAULT_STRIDE,
            description = "Characters between the starts of a text's windows (1: every window, as in training; "
                    + TextDetector.DEFAULT_STRIDE + " was as accurate on sentences, docs/RESULTS.md). Default: ${DEFAULT-VALUE}.")
    int stride;

    @Option(names = "--fold-capitals", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Read a window with no small letter and at least two capitals in lower case (--no-fold-capitals: as written). "
                    + "Default: ${DEFAULT-VALUE}.")
    boolean foldCapitals;

    @Option(names = "--max-waiting-requests", paramLabel = "N", defaultValue = "" + DetectionServer.Limits.DEFAULT_MAX_WAITING_REQUESTS,
            description = "Requests that may wait for the model; beyond them the server answers 503 with Retry-After. Default: ${DEFAULT-VALUE}.")
    int maxWaitingRequests;

    @Option(names = "--threads", paramLabel = "N", description = "Inference threads. Default: the machine's cores.")
    int threads = Runtime.getRuntime().availableProcessors();

    @Option(names = "--max-windows-per-text", paramLabel = "N", defaultValue = "256",
            description = "Longer texts get this many windows spread evenly over them. Default: ${DEFAULT-VALUE}.")
    int maxWindowsPerText;

    @Option(names = "--engine", paramLabel = "ENGINE", defaultValue = "onnx",
            description = "onnx (ONNX Runtime, a version's model.int8.onnx when it has one that is exact on this CPU, else model.onnx) or onnx-float "
                    + "(model.onnx, float32 as trained). Default: ${DEFAULT-VALUE}.")
    String engine;

    @Option(names = "--batch", paramLabel = "N", defaultValue = "" + TextDetector.DEFAULT_BATCH, description = "Most windows in one model call. Default: ${DEFAULT-VALUE}.")
    int batch;

    public ServeCommand() {
    }

    /**
     * The serving image's entry point: {@code langid serve} without the rest of langid (no Spark,
     * no ND4J on the classpath). Errors are one line on stderr, exit code 1.
     */
    public static void main(String[] args) {
        CommandLine commandLine = new CommandLine(new ServeCommand()).setCommandName("langid-serve");
        commandLine.setExecutionExceptionHandler((e, cmd, parsed) -> {
            System.err.println("langid serve: " + e.getMessage());
            return 1;
        });
        System.exit(commandLine.execute(args));
    }

    @Override
    public Integer call() throws InterruptedException {
        if (model.contains("://") && !model.startsWith("file://")) {
            throw new IllegalArgumentException("langid serve reads its model from local disk; copy " + model
                    + " there first (e.g. hadoop fs -get), or bake it into the image");
        }
        java.nio.file.Path location = java.nio.file.Path.of(model.startsWith("file://") ? java.net.URI.create(model).getPath() : model);
        if (!"onnx".equals(engine) && !"onnx-float".equals(engine)) {
            throw new IllegalArgumentException("--engine is onnx or onnx-float, not '" + engine + "'");
        }
        DetectionServer server = DetectionServer.start(location,
                new TextDetector.Options(stride, maxWindowsPerText, batch, foldCapitals), threads, host, port,
                new DetectionServer.Limits(maxRequestBytes, maxTexts, reloadSeconds, maxWaitingRequests), "onnx".equals(engine));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "langid-serve-shutdown"));
        String address = host.contains(":") ? "[" + host + "]" : host;   // an IPv6 literal needs brackets in a URL
        System.out.println("serving model " + server.modelVersion() + " on http://" + address + ":" + server.port()
                + " (POST /v1/detect, GET /healthz, GET /v1/model), run by " + server.engine());
        stopped.await();
        return 0;
    }
}
