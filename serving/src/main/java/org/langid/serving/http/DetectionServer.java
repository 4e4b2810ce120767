package org.langid.serving.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.langid.serving.Detection;
import org.langid.serving.ServingModel;
import org.langid.serving.TextDetector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Language detection over HTTP, on the JDK's built-in server:
 * <ul>
 *   <li>{@code POST /v1/detect}, {@code Content-Type: application/json} (UTF-8), body
 *       {@code {"text": "..."}} → {@code {"language", "confidence", "probabilities", "windows", "model_version"}},
 *       with an optional {@code "languages": ["en", "de"]} to answer from those of the model's languages only,
 *       or {@code {"texts": [...]}} → {@code {"model_version", "results": [{"language", "confidence",
 *       "probabilities", "windows"}, ...]}}. Text that normalises to nothing is {@code "und"}, confidence 0.</li>
 *   <li>{@code GET /healthz} → {@code {"status": "ok", "model_version"}}.</li>
 *   <li>{@code GET /v1/model} → the model's manifest.</li>
 * </ul>
 * Errors are {@code {"error": "<sentence>"}}: 400 malformed request, 404 unknown path, 405 wrong
 * method (with {@code Allow}), 413 body over {@link Limits#maxRequestBytes} or more than
 * {@link Limits#maxTexts} texts (both ask the client for smaller requests), 415 not JSON, 503 with
 * {@code Retry-After} when more requests wait for the model than {@link Limits#maxWaitingRequests}
 * (back-pressure instead of a growing queue), 500 anything unexpected (logged here, never shown to the client).
 *
 * <p>Detection runs on a fixed pool of inference threads ({@link InferenceQueue}), one ONNX
 * Runtime session shared by them; requests that arrive together are batched into one model call.
 * Memory is bounded by the pool, the queue and the request size limits, not by the load.
 *
 * <p>When the model location is a registry, every {@link Limits#reloadSeconds} the server checks
 * the registry's current version and swaps a newly published model in; each request runs
 * wholly on the model it started with. A version that fails to load leaves the old model serving.
 */
public final class DetectionServer implements AutoCloseable {

    /**
     * @param maxRequestBytes largest accepted request body
     * @param maxTexts        most texts in one {@code texts} request
     * @param reloadSeconds   how often a registry is checked for a new current version
     * @param maxWaitingRequests requests that may wait for an inference thread; more get 503
     */
    public record Limits(long maxRequestBytes, int maxTexts, int reloadSeconds, int maxWaitingRequests) {

        public static final long DEFAULT_MAX_REQUEST_BYTES = 1L << 20;
        public static final int DEFAULT_MAX_TEXTS = 1000;
        public static final int DEFAULT_RELOAD_SECONDS = 10;
        public static final int DEFAULT_MAX_WAITING_REQUESTS = 256;

        public Limits {
            // Bodies are read into one array, so the limit must fit an array's length.
            if (maxRequestBytes < 1 || maxRequestBytes > Integer.MAX_VALUE - 16 || maxTexts < 1 || reloadSeconds < 1
                    || maxWaitingRequests < 1) {
                throw new IllegalArgumentException("max request bytes must be between 1 and " + (Integer.MAX_VALUE - 16)
                        + ", max texts, reload seconds and max waiting requests at least 1");
            }
        }

        public Limits(long maxRequestBytes, int maxTexts, int reloadSeconds) {
            this(maxRequestBytes, maxTexts, reloadSeconds, DEFAULT_MAX_WAITING_REQUESTS);
        }

        public static Limits defaults() {
            return new Limits(DEFAULT_MAX_REQUEST_BYTES, DEFAULT_MAX_TEXTS, DEFAULT_RELOAD_SECONDS);
        }
    }

    /** Texts one model call combines from concurrent requests. */
    static final int MAX_BATCH_TEXTS = 256;
    /** Seconds a refused client is asked to wait (503 Retry-After). */
    static final int RETRY_AFTER_SECONDS = 1;

    private static final Logger LOG = LoggerFactory.getLogger(DetectionServer.class);
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)        // {"text":"a","text":"b"} is ambiguous
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)      // so is {"text":"a"} {"text":"b"}
            .build();
    private static final String ENDPOINTS = "POST /v1/detect, GET /healthz and GET /v1/model";
    private static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(30);

    private final Path modelLocation;
    private final TextDetector.Options options;
    private final Limits limits;
    private final boolean registry;   // false when the location is one artefact: nothing to reload
    private final AtomicReference<ServingModel> model;
    private final AtomicInteger requestsInFlight = new AtomicInteger();
    private final HttpServer server;
    private final ExecutorService connections;
    private final InferenceQueue inference;
    private final ScheduledExecutorService reloader;
    private final boolean int8;

    private DetectionServer(Path modelLocation, TextDetector.Options options, int inferenceThreads, Limits limits,
                            String host, int port, boolean int8) throws IOException {
        this.modelLocation = modelLocation;
        this.options = options;
        this.int8 = int8;
        this.limits = limits;
        this.registry = ServingModel.isRegistry(modelLocation);
        // One ONNX Runtime thread per call: the inference threads are the parallelism.
        this.model = new AtomicReference<>(ServingModel.load(modelLocation, options, 1, 1, int8));
        // Without TCP_NODELAY the JDK server's body write waits for the client's delayed ACK:
        // every answer took 40 ms more (p50 44 ms at 16 connections, 343 requests/s on 2 cores).
        System.setProperty("sun.net.httpserver.nodelay", "true");
        this.server = HttpServer.create(new InetSocketAddress(host, port), 0);
        // Connection threads only parse, wait and answer; the inference threads do the work.
        this.connections = Executors.newFixedThreadPool(Math.max(8, 4 * inferenceThreads), namedThreads("langid-http-"));
        this.inference = new InferenceQueue(inferenceThreads, limits.maxWaitingRequests(), MAX_BATCH_TEXTS);
        this.reloader = Executors.newSingleThreadScheduledExecutor(namedThreads("langid-model-reload-"));
    }

    /**
     * Loads the model at {@code modelLocation} (an artefact, or a registry's current version) and
     * serves it on {@code host:port} (port 0: any free port, see {@link #port()}).
     *
     * @param inferenceThreads threads running the model (about the cores the server may use)
     */
    public static DetectionServer start(Path modelLocation, TextDetector.Options options, int inferenceThreads,
                                        String host, int port, Limits limits) {
        return start(modelLocation, options, inferenceThreads, host, port, limits, true);
    }

    /** @param int8 serve model.int8.onnx when a version has it (the default), else model.onnx */
    public static DetectionServer start(Path modelLocation, TextDetector.Options options, int inferenceThreads,
                                        String host, int port, Limits limits, boolean int8) {
        DetectionServer detectionServer;
        try {
            detectionServer = new DetectionServer(modelLocation, options, inferenceThreads, limits, host, port, int8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on " + host + ":" + port + ": " + e.getMessage(), e);
        }
        detectionServer.server.createContext("/", detectionServer::handle);
        detectionServer.server.setExecutor(detectionServer.connections);
        detectionServer.server.start();
        if (detectionServer.registry) {
            detectionServer.reloader.scheduleWithFixedDelay(detectionServer::reloadNow,
                    limits.reloadSeconds(), limits.reloadSeconds(), TimeUnit.SECONDS);
        }
        return detectionServer;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public String modelVersion() {
        return model.get().modelVersion();
    }

    /** What runs the model now, e.g. "onnxruntime 1.29.0 (model.int8.onnx)". */
    public String engine() {
        return model.get().detector().classifier().engine();
    }

    /**
     * Serves the registry's current version from now on if it is not the one being served.
     *
     * @return whether a new model was swapped in; false too when loading it failed (logged as a warning)
     */
    public synchronized boolean reloadNow() {
        if (!registry) {
            return false;
        }
        // Failures are logged, not thrown: that keeps the old model serving and the scheduled
        // reload alive (a scheduled task that throws is never run again).
        String serving = modelVersion();
        Optional<String> current;
        try {
            current = ServingModel.currentVersion(modelLocation);
        } catch (RuntimeException e) {
            LOG.warn("cannot read the current version of the registry {}; still serving {}", modelLocation, serving, e);
            return false;
        }
        if (current.isEmpty() || current.get().equals(serving)) {
            return false;
        }
        try {
            // The version's own directory, not the registry: current may move again while this loads.
            ServingModel loaded = ServingModel.load(modelLocation.resolve(ServingModel.VERSIONS).resolve(current.get()), options, 1, 1, int8);
            ServingModel previous = model.getAndSet(loaded);
            // Requests in flight may still use the old session: close it once they are surely done.
            reloader.schedule(previous::close, SHUTDOWN_GRACE.toSeconds(), TimeUnit.SECONDS);
        } catch (RuntimeException e) {
            LOG.warn("cannot load model {} from the registry {}; still serving {}", current.get(), modelLocation, serving, e);
            return false;
        }
        LOG.info("now serving model {} (was {})", current.get(), serving);
        return true;
    }

    /** Stops reloading, lets requests in flight finish (up to a grace period), and closes the port. */
    @Override
    public void close() {
        reloader.shutdownNow();
        // HttpServer.stop(delay) waits the whole delay on JDK 17 even when idle, so wait for requests here instead.
        long deadline = System.nanoTime() + SHUTDOWN_GRACE.toNanos();
        try {
            while (requestsInFlight.get() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        server.stop(0);
        connections.shutdownNow();
        inference.close();
    }

    private void handle(HttpExchange exchange) {
        requestsInFlight.incrementAndGet();
        try {
            int status = 200;
            JsonNode body;
            try {
                body = respond(exchange);
            } catch (Rejection rejection) {
                status = rejection.status;
                if (rejection.allow != null) {
                    exchange.getResponseHeaders().set("Allow", rejection.allow);
                }
                if (status == 503) {
                    exchange.getResponseHeaders().set("Retry-After", String.valueOf(RETRY_AFTER_SECONDS));
                }
                body = error(rejection.getMessage());
            } catch (RuntimeException e) {
                LOG.error("{} {} failed", exchange.getRequestMethod(), exchange.getRequestURI(), e);
                status = 500;
                body = error("the server failed to process this request; the cause is in the server's log");
            }
            send(exchange, status, body);
        } catch (IOException e) {
            LOG.debug("cannot send the response to {} (the client went away?): {}", exchange.getRemoteAddress(), e.toString());
        } finally {
            exchange.close();
            requestsInFlight.decrementAndGet();
        }
    }

    private JsonNode respond(HttpExchange exchange) throws Rejection {
        String path = exchange.getRequestURI().getPath();
        switch (path) {
            case "/v1/detect" -> {
                requireMethod(exchange, "POST");
                return detect(exchange);
            }
            case "/healthz" -> {
                requireMethod(exchange, "GET");
                ObjectNode health = JSON.createObjectNode();
                health.put("status", "ok");
                health.put("model_version", modelVersion());
                return health;
            }
            case "/v1/model" -> {
                requireMethod(exchange, "GET");
                return model.get().manifest();
            }
            default -> throw new Rejection(404, "there is nothing at " + path + "; the endpoints are " + ENDPOINTS);
        }
    }

    private JsonNode detect(HttpExchange exchange) throws Rejection {
        requireJsonContentType(exchange.getRequestHeaders().getFirst("Content-Type"));
        JsonNode request = parse(readBody(exchange));
        ServingModel serving = model.get();   // one model for the whole request, even if a reload swaps it meanwhile
        TextDetector detector = detectorFor(serving, request.get("languages"));
        JsonNode text = request.get("text");
        JsonNode texts = request.get("texts");
        if ((text == null) == (texts == null)) {
            throw new Rejection(400, "the body must have exactly one of \"text\" (a string) and \"texts\" (an array of strings)");
        }
        if (text != null) {
            if (!text.isTextual()) {
                throw new Rejection(400, "\"text\" must be a string");
            }
            ObjectNode result = detect(detector, List.of(text.textValue())).get(0).toJson();
            result.put("model_version", serving.modelVersion());
            return result;
        }
        if (!texts.isArray()) {
            throw new Rejection(400, "\"texts\" must be an array of strings");
        }
        if (texts.size() > limits.maxTexts()) {
            throw new Rejection(413, "the request has " + texts.size() + " texts and at most " + limits.maxTexts()
                    + " are accepted in one request; send them in several");
        }
        List<String> values = new ArrayList<>(texts.size());
        for (int i = 0; i < texts.size(); i++) {
            if (!texts.get(i).isTextual()) {
                throw new Rejection(400, "\"texts\" must be an array of strings, and texts[" + i + "] is not a string");
            }
            values.add(texts.get(i).textValue());
        }
        ObjectNode response = JSON.createObjectNode();
        response.put("model_version", serving.modelVersion());
        ArrayNode results = response.putArray("results");
        detect(detector, values).forEach(detection -> results.add(detection.toJson()));
        return response;
    }

    /** The model's detector, restricted to the request's {@code "languages"} when it names some. */
    private static TextDetector detectorFor(ServingModel serving, JsonNode languages) throws Rejection {
        if (languages == null) {
            return serving.detector();
        }
        if (!languages.isArray() || languages.isEmpty()) {
            throw new Rejection(400, "\"languages\" must be a non-empty array of language codes");
        }
        List<String> subset = new ArrayList<>();
        for (JsonNode language : languages) {
            if (!language.isTextual()) {
                throw new Rejection(400, "\"languages\" must be a non-empty array of language codes");
            }
            subset.add(language.textValue());
        }
        try {
            return serving.detector().restrictedTo(subset);
        } catch (IllegalArgumentException e) {
            throw new Rejection(400, "\"languages\": " + e.getMessage());
        }
    }

    /** Detections from the inference pool; 503 when too many requests already wait for it. */
    private List<Detection> detect(TextDetector detector, List<String> texts) throws Rejection {
        CompletableFuture<List<Detection>> pending = inference.submit(detector, texts);
        if (pending == null) {
            throw new Rejection(503, "the server is busy (more than " + limits.maxWaitingRequests()
                    + " requests wait for the model); retry after " + RETRY_AFTER_SECONDS + " s");
        }
        try {
            return pending.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the model", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
        }
    }

    private static void requireMethod(HttpExchange exchange, String allowed) throws Rejection {
        if (!allowed.equals(exchange.getRequestMethod())) {
            throw new Rejection(405, exchange.getRequestMethod() + " is not allowed on " + exchange.getRequestURI().getPath()
                    + "; use " + allowed, allowed);
        }
    }

    /** application/json, with no charset or UTF-8 (the only encoding JSON has between systems, RFC 8259). */
    private static void requireJsonContentType(String contentType) throws Rejection {
        if (contentType == null) {
            throw new Rejection(415, "the request needs the header Content-Type: application/json");
        }
        String[] parts = contentType.split(";");
        boolean json = parts[0].strip().equalsIgnoreCase("application/json");
        for (int i = 1; i < parts.length && json; i++) {
            String[] parameter = parts[i].split("=", 2);
            if (parameter[0].strip().equalsIgnoreCase("charset")) {
                String charset = parameter.length < 2 ? "" : parameter[1].strip().replace("\"", "");
                json = charset.equalsIgnoreCase("utf-8");
            }
        }
        if (!json) {
            throw new Rejection(415, "the body must be JSON in UTF-8 (Content-Type: application/json), not " + contentType);
        }
    }

    /** The body, refused as soon as it is known to exceed the limit: by its declared length, or while reading a chunked one. */
    private byte[] readBody(HttpExchange exchange) throws Rejection {
        long limit = limits.maxRequestBytes();
        String declared = exchange.getRequestHeaders().getFirst("Content-Length");
        if (declared != null && parseLength(declared) > limit) {
            throw tooLarge(limit);
        }
        byte[] body;
        try (InputStream in = exchange.getRequestBody()) {
            body = in.readNBytes((int) limit + 1);
        } catch (IOException e) {
            throw new Rejection(400, "the request body could not be read completely");
        }
        if (body.length > limit) {
            throw tooLarge(limit);
        }
        return body;
    }

    private static long parseLength(String declared) throws Rejection {
        try {
            return Long.parseLong(declared.strip());
        } catch (NumberFormatException e) {
            throw new Rejection(400, "Content-Length " + declared + " is not a number");
        }
    }

    private static Rejection tooLarge(long limit) {
        return new Rejection(413, "the request body is larger than the " + limit + " bytes accepted; send smaller requests");
    }

    private static JsonNode parse(byte[] body) throws Rejection {
        JsonNode request;
        try {
            request = JSON.readTree(body);
        } catch (JsonProcessingException e) {
            throw new Rejection(400, "the request body is not valid JSON (" + e.getOriginalMessage() + ")");
        } catch (IOException e) {
            throw new UncheckedIOException(e);   // reading a byte array does not fail
        }
        if (!(request instanceof ObjectNode)) {
            throw new Rejection(400, "the request body must be a JSON object, e.g. {\"text\": \"...\"}");
        }
        return request;
    }

    private static ObjectNode error(String message) {
        ObjectNode error = JSON.createObjectNode();
        error.put("error", message);
        return error;
    }

    private static void send(HttpExchange exchange, int status, JsonNode body) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(body);
        exchange.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static ThreadFactory namedThreads(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /** A request answered with an error status and a message for the client. */
    private static final class Rejection extends Exception {

        final int status;
        final String allow;   // the Allow header of a 405, else null

        Rejection(int status, String message) {
            this(status, message, null);
        }

        Rejection(int status, String message, String allow) {
            super(message, null, false, false);   // control flow, not a fault: no stack trace
            this.status = status;
            this.allow = allow;
        }
    }
}
