package org.langid.jobs.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.langid.model.artefact.ModelArtefact;
import org.langid.model.artefact.ModelRegistry;
import org.langid.model.graph.ModelConfig;
import org.langid.model.graph.ParameterLayout;
import org.langid.serving.Detection;
import org.langid.serving.TextDetector;
import org.langid.serving.http.DetectionServer;
import org.langid.model.predict.LanguageDetector;
import org.nd4j.linalg.api.buffer.DataType;
import org.langid.model.TestConfigs;

class DetectionServerTest {

    private static final Configuration CONF = new Configuration();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final LanguageDetector.Options OPTIONS = new LanguageDetector.Options(1, 256, 2048, 2);
    private static final TextDetector.Options SERVED = new TextDetector.Options(1, 256, 2048, true);
    private static final Instant FIRST_CREATED = Instant.parse("2024-05-01T10:00:00Z");
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @TempDir
    static Path registryDir;

    private static DetectionServer server;
    private static LanguageDetector detector;

    @BeforeAll
    static void publishAndServe() {
        new ModelRegistry(registryDir.toString(), CONF).publish(artefact(11, FIRST_CREATED));
        detector = LanguageDetector.load(registryDir.toString(), CONF, OPTIONS);
        server = DetectionServer.start(registryDir, SERVED, 2, "127.0.0.1", 0,
                new DetectionServer.Limits(4096, 5, 3600));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void oneTextGetsWhatTheDetectorSays() throws Exception {
        String text = "The quick brown fox jumps over the lazy dog";
        HttpResponse<String> response = postJson(server, "{\"text\": " + JSON.writeValueAsString(text) + "}");
        assertEquals(200, response.statusCode(), response.body());
        JsonNode body = JSON.readTree(response.body());
        for (String field : List.of("language", "confidence", "probabilities", "windows", "model_version")) {
            assertTrue(body.has(field), field + " in " + body);
        }
        assertTrue(detector.languages().contains(body.get("language").asText()));
        double sum = 0;
        for (JsonNode probability : body.get("probabilities")) {
            sum += probability.asDouble();
        }
        assertEquals(1.0, sum, 1e-6);
        assertEquals(detector.manifest().modelVersion(), body.get("model_version").asText());
        assertMatches(detector.detect(text), body);
    }

    @Test
    void textsAreDetectedInOrderAndEmptyOrUnknownScriptTextIsUndetermined() throws Exception {
        // "Grüße aus Köln" checks the UTF-8 round trip; the vocabulary has no Cyrillic, so "Привет мир" normalises to nothing.
        List<String> texts = List.of("Bonjour tout le monde", "", "Привет мир", "Grüße aus Köln");
        HttpResponse<String> response = postJson(server, JSON.writeValueAsString(Map.of("texts", texts)));
        assertEquals(200, response.statusCode(), response.body());
        JsonNode body = JSON.readTree(response.body());
        assertEquals(detector.manifest().modelVersion(), body.get("model_version").asText());
        JsonNode results = body.get("results");
        assertEquals(texts.size(), results.size());
        List<Detection> expected = detector.detectAll(texts);
        for (int i = 0; i < texts.size(); i++) {
            assertMatches(expected.get(i), results.get(i));
        }
        for (int i : new int[] {1, 2}) {
            assertEquals("und", results.get(i).get("language").asText());
            assertEquals(0.0, results.get(i).get("confidence").asDouble());
            assertEquals(0, results.get(i).get("windows").asInt());
            assertTrue(results.get(i).get("probabilities").isEmpty());
        }
    }

    @Test
    void aCharsetParameterIsAccepted() throws Exception {
        HttpResponse<String> response = send(post("/v1/detect", "application/json; charset=UTF-8", "{\"text\": \"日本語\"}"));
        assertEquals(200, response.statusCode(), response.body());
        assertEquals("und", JSON.readTree(response.body()).get("language").asText());
    }

    @Test
    void healthAndModelNameTheServedVersion() throws Exception {
        HttpResponse<String> health = get(server, "/healthz");
        assertEquals(200, health.statusCode());
        assertEquals("ok", JSON.readTree(health.body()).get("status").asText());
        assertEquals(detector.manifest().modelVersion(), JSON.readTree(health.body()).get("model_version").asText());

        HttpResponse<String> model = get(server, "/v1/model");
        assertEquals(200, model.statusCode());
        JsonNode manifest = JSON.readTree(model.body());
        assertEquals(detector.manifest().modelVersion(), manifest.get("model_version").asText());
        assertEquals(detector.manifest().toJson(), manifest);
    }

    @Test
    void bodiesOverTheLimitAre413WhetherDeclaredOrChunked() throws Exception {
        byte[] body = ("{\"text\": \"" + "a".repeat(5000) + "\"}").getBytes(StandardCharsets.UTF_8);
        assertError(413, postJson(server, new String(body, StandardCharsets.UTF_8)));
        HttpRequest chunked = HttpRequest.newBuilder(uri(server, "/v1/detect"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)))   // no length: chunked
                .build();
        assertError(413, send(chunked));
    }

    @Test
    void moreTextsThanTheLimitAre413() throws Exception {
        assertError(413, postJson(server, JSON.writeValueAsString(Map.of("texts", List.of("a", "b", "c", "d", "e", "f")))));
    }

    @Test
    void malformedRequestsAre400() throws Exception {
        for (String body : List.of("{\"text\": ", "", "[\"a\"]", "{}", "{\"text\": \"a\", \"texts\": [\"b\"]}",
                "{\"texts\": [1, 2]}", "{\"texts\": \"a\"}", "{\"text\": null}", "{\"text\": \"a\", \"text\": \"b\"}",
                "{\"text\": \"a\"} {\"text\": \"b\"}")) {
            assertError(400, postJson(server, body));
        }
    }

    @Test
    void aBodyThatIsNotJsonIs415() throws Exception {
        assertError(415, send(post("/v1/detect", "text/plain", "{\"text\": \"a\"}")));
        assertError(415, send(post("/v1/detect", "application/json; charset=ISO-8859-1", "{\"text\": \"a\"}")));
        HttpRequest untyped = HttpRequest.newBuilder(uri(server, "/v1/detect"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"text\": \"a\"}"))
                .build();
        assertError(415, send(untyped));
    }

    @Test
    void wrongMethodsAre405WithAllowAndUnknownPaths404() throws Exception {
        HttpResponse<String> getDetect = get(server, "/v1/detect");
        assertError(405, getDetect);
        assertEquals("POST", getDetect.headers().firstValue("Allow").orElse(""));
        HttpResponse<String> postHealth = send(post("/healthz", "application/json", "{}"));
        assertError(405, postHealth);
        assertEquals("GET", postHealth.headers().firstValue("Allow").orElse(""));
        assertError(404, get(server, "/v2/detect"));
        assertError(404, get(server, "/"));
    }

    @Test
    void aNewlyPublishedVersionIsServedAfterReloadAndADamagedOneIsNot(@TempDir Path dir) throws Exception {
        ModelRegistry registry = new ModelRegistry(dir.toString(), CONF);
        String first = registry.publish(artefact(21, FIRST_CREATED));
        try (DetectionServer reloading = DetectionServer.start(dir, SERVED, 2, "127.0.0.1", 0,
                new DetectionServer.Limits(4096, 5, 3600))) {
            String firstVersion = servedVersion(reloading);
            assertTrue(first.endsWith(firstVersion));
            assertFalse(reloading.reloadNow(), "nothing new was published");

            // Publishing verifies what it writes, so a damaged version is placed by hand.
            ModelArtefact damaged = artefact(22, FIRST_CREATED.plusSeconds(60));
            String damagedVersion = damaged.manifest().modelVersion();
            damaged.writeTo(registry.versionLocation(damagedVersion), CONF);
            Path graph = Path.of(registry.versionLocation(damagedVersion), ModelArtefact.ONNX_INT8);   // what the server runs
            byte[] bytes = Files.readAllBytes(graph);
            bytes[bytes.length / 2] ^= 0x55;
            Files.write(graph, bytes);
            registry.setCurrent(damagedVersion);
            assertFalse(reloading.reloadNow(), "the damaged version must not be loaded");
            assertEquals(firstVersion, servedVersion(reloading));
            assertEquals(200, postJson(reloading, "{\"text\": \"still serving\"}").statusCode());

            ModelArtefact second = artefact(23, FIRST_CREATED.plusSeconds(120));
            registry.publish(second);
            assertTrue(reloading.reloadNow());
            assertEquals(second.manifest().modelVersion(), servedVersion(reloading));
            JsonNode detected = JSON.readTree(postJson(reloading, "{\"text\": \"hello there\"}").body());
            assertEquals(second.manifest().modelVersion(), detected.get("model_version").asText());
        }
    }

    @Test
    void theBackgroundTaskPicksUpANewVersion(@TempDir Path dir) throws Exception {
        ModelRegistry registry = new ModelRegistry(dir.toString(), CONF);
        registry.publish(artefact(31, FIRST_CREATED));
        try (DetectionServer reloading = DetectionServer.start(dir, SERVED, 2, "127.0.0.1", 0,
                new DetectionServer.Limits(4096, 5, 1))) {
            ModelArtefact second = artefact(32, FIRST_CREATED.plusSeconds(60));
            registry.publish(second);
            String expected = second.manifest().modelVersion();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!expected.equals(servedVersion(reloading)) && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            assertEquals(expected, servedVersion(reloading));
        }
    }

    @Test
    void moreWaitingRequestsThanAllowedGet503WithRetryAfterAndTheRestAreAnswered(@TempDir Path dir) throws Exception {
        new ModelRegistry(dir.toString(), CONF).publish(artefact(41, FIRST_CREATED));
        String body = "{\"texts\": " + JSON.writeValueAsString(java.util.Collections.nCopies(5,
                "the quick brown fox jumps over the lazy dog ".repeat(15))) + "}";
        try (DetectionServer busy = DetectionServer.start(dir, SERVED, 1, "127.0.0.1", 0,
                new DetectionServer.Limits(8192, 5, 3600, 1))) {
            java.util.concurrent.ExecutorService clients = java.util.concurrent.Executors.newFixedThreadPool(16);
            try {
                List<java.util.concurrent.Future<HttpResponse<String>>> responses = new ArrayList<>();
                for (int i = 0; i < 64; i++) {
                    responses.add(clients.submit(() -> postJson(busy, body)));
                }
                int answered = 0;
                int refused = 0;
                for (var future : responses) {
                    HttpResponse<String> response = future.get();
                    if (response.statusCode() == 503) {
                        refused++;
                        assertEquals("1", response.headers().firstValue("Retry-After").orElse(""));
                        assertTrue(JSON.readTree(response.body()).get("error").asText().contains("busy"), response.body());
                    } else {
                        assertEquals(200, response.statusCode(), response.body());
                        assertEquals(5, JSON.readTree(response.body()).get("results").size());
                        answered++;
                    }
                }
                assertTrue(refused > 0, "64 requests from 16 clients at once, 1 may wait: some must be refused");
                assertTrue(answered > 0, "and the others answered");
            } finally {
                clients.shutdownNow();
            }
            assertEquals(200, postJson(busy, "{\"text\": \"after the storm\"}").statusCode(), "served again once the queue drains");
        }
    }

    private static ModelArtefact artefact(long seed, Instant created) {
        ModelConfig config = TestConfigs.model();
        config.dModel = 16;
        config.heads = 2;
        config.layers = 1;
        config.ffn = 32;
        ObjectNode training = JSON.createObjectNode();
        training.put("data_fingerprint", "test-fingerprint");
        training.put("trainer", "local");
        return ModelArtefact.create(config, ParameterLayout.of(config).initialise(seed, DataType.FLOAT), training,
                Map.of("validation_accuracy", 0.5), null, created);
    }

    private static void assertMatches(Detection expected, JsonNode actual) {
        assertEquals(expected.language(), actual.get("language").asText());
        assertEquals(expected.confidence(), actual.get("confidence").asDouble(), 1e-6);
        assertEquals(expected.windows(), actual.get("windows").asInt());
        List<String> languages = new ArrayList<>();
        actual.get("probabilities").fieldNames().forEachRemaining(languages::add);
        assertEquals(List.copyOf(expected.probabilities().keySet()), languages);
        expected.probabilities().forEach((language, p) -> assertEquals(p, actual.get("probabilities").get(language).asDouble(), 1e-6));
    }

    /** An error is a JSON object with a one-sentence "error" and nothing of a stack trace. */
    private static void assertError(int status, HttpResponse<String> response) throws IOException {
        assertEquals(status, response.statusCode(), response.body());
        assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
        JsonNode body = JSON.readTree(response.body());
        assertTrue(body.path("error").isTextual() && !body.get("error").asText().isBlank(), response.body());
        assertFalse(response.body().contains("Exception"), response.body());
        assertFalse(response.body().contains("at org."), response.body());
    }

    private static String servedVersion(DetectionServer target) throws Exception {
        HttpResponse<String> health = get(target, "/healthz");
        assertEquals(200, health.statusCode());
        return JSON.readTree(health.body()).get("model_version").asText();
    }

    private static URI uri(DetectionServer target, String path) {
        return URI.create("http://127.0.0.1:" + target.port() + path);
    }

    private static HttpRequest post(String path, String contentType, String body) {
        return HttpRequest.newBuilder(uri(server, path))
                .header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
    }

    private static HttpResponse<String> postJson(DetectionServer target, String body) throws Exception {
        return send(HttpRequest.newBuilder(uri(target, "/v1/detect"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build());
    }

    private static HttpResponse<String> get(DetectionServer target, String path) throws Exception {
        return send(HttpRequest.newBuilder(uri(target, path)).GET().build());
    }

    private static HttpResponse<String> send(HttpRequest request) throws Exception {
        return CLIENT.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }
}
