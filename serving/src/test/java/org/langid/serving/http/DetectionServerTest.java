package org.langid.serving.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.langid.serving.Detection;
import org.langid.serving.ReleasedModel;
import org.langid.serving.ServingModel;
import org.langid.serving.TextDetector;

/** {@code langid serve}'s HTTP API on loopback, serving the released model. */
class DetectionServerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private static final int MAX_REQUEST_BYTES = 16 * 1024;
    private static final int MAX_TEXTS = 40;

    private static DetectionServer server;
    private static ServingModel reference;

    @BeforeAll
    static void serveTheRelease() {
        server = DetectionServer.start(ReleasedModel.REGISTRY, ReleasedModel.DEFAULTS, 2, "127.0.0.1", 0,
                new DetectionServer.Limits(MAX_REQUEST_BYTES, MAX_TEXTS, 3600));
        reference = ReleasedModel.load(true);
    }

    @AfterAll
    static void stop() {
        server.close();
        reference.close();
    }

    @Test
    void aTextIsAnsweredAsTheJavaApiAnswersIt() throws Exception {
        String version = reference.modelVersion();
        assertEquals(version, server.modelVersion());
        for (Map.Entry<String, List<String>> language : ReleasedModel.SENTENCES.entrySet()) {
            String sentence = language.getValue().get(1);
            HttpResponse<String> response = detect(server, JSON.writeValueAsString(Map.of("text", sentence)));
            assertEquals(200, response.statusCode(), response.body());
            assertEquals("application/json; charset=utf-8", response.headers().firstValue("Content-Type").orElse(""));
            JsonNode body = JSON.readTree(response.body());
            assertEquals(List.of("language", "confidence", "probabilities", "windows", "model_version"), fieldNames(body));
            assertEquals(language.getKey(), body.get("language").asText(), sentence);
            assertEquals(version, body.get("model_version").asText());
            assertDetection(reference.detector().detect(sentence), body);
        }
    }

    @Test
    void textsAreAnsweredInOrderWithUndForTextWithNothingToClassify() throws Exception {
        List<String> texts = new ArrayList<>(ReleasedModel.SENTENCES.get("sv"));
        texts.addAll(List.of("", "   ", "Привет мир", "日本語", "Grüße aus Köln, sagte sie.", "Até logo"));
        HttpResponse<String> response = detect(server, JSON.writeValueAsString(Map.of("texts", texts)));
        assertEquals(200, response.statusCode(), response.body());
        JsonNode body = JSON.readTree(response.body());
        assertEquals(List.of("model_version", "results"), fieldNames(body));
        assertEquals(reference.modelVersion(), body.get("model_version").asText());
        JsonNode results = body.get("results");
        assertEquals(texts.size(), results.size());
        List<Detection> expected = reference.detector().detectAll(texts);
        for (int i = 0; i < texts.size(); i++) {
            assertDetection(expected.get(i), results.get(i));
        }
        for (int i = 3; i < 7; i++) {
            assertEquals(TextDetector.UNDETERMINED, results.get(i).get("language").asText(), texts.get(i));
            assertEquals(0.0, results.get(i).get("confidence").asDouble());
            assertEquals(0, results.get(i).get("windows").asInt());
            assertTrue(results.get(i).get("probabilities").isEmpty());
        }
        assertEquals("de", results.get(7).get("language").asText(), "UTF-8 both ways");
        assertEquals(0, JSON.readTree(detect(server, "{\"texts\": []}").body()).get("results").size());
    }

    @Test
    void healthAndModelEndpointsNameTheServedRelease() throws Exception {
        HttpResponse<String> health = get(server, "/healthz");
        assertEquals(200, health.statusCode());
        assertEquals(JSON.readTree("{\"status\": \"ok\", \"model_version\": \"" + reference.modelVersion() + "\"}"), JSON.readTree(health.body()));
        HttpResponse<String> model = get(server, "/v1/model");
        assertEquals(200, model.statusCode());
        assertEquals(ReleasedModel.manifest(), JSON.readTree(model.body()));
    }

    @Test
    void aRequestMayNameTheLanguagesToAnswerFrom() throws Exception {
        List<String> texts = List.of("Até logo, meu amigo", "Hasta luego, amigo mío", "Goodbye");
        HttpResponse<String> response = detect(server, JSON.writeValueAsString(Map.of("texts", texts, "languages", List.of("pt", "es"))));
        assertEquals(200, response.statusCode(), response.body());
        JsonNode results = JSON.readTree(response.body()).get("results");
        List<Detection> expected = reference.detector().restrictedTo(List.of("pt", "es")).detectAll(texts);
        for (int i = 0; i < texts.size(); i++) {
            assertDetection(expected.get(i), results.get(i));
            assertEquals(List.of("es", "pt"), fieldNames(results.get(i).get("probabilities")), texts.get(i));
        }
        HttpResponse<String> refused = detect(server, "{\"text\": \"a\", \"languages\": [\"xx\"]}");
        assertError(400, refused, "a language the model lacks");
        assertTrue(refused.body().contains("'xx' is not one of the model's languages"), refused.body());
    }

    @Test
    void malformedRequestsAre400WithAReason() throws Exception {
        Map<String, String> bodies = new LinkedHashMap<>();
        bodies.put("truncated", "{\"text\": \"Hallo");
        bodies.put("empty", "");
        bodies.put("not an object", "[\"Hallo\"]");
        bodies.put("a bare string", "\"Hallo\"");
        bodies.put("null", "null");
        bodies.put("neither field", "{\"language\": \"de\"}");
        bodies.put("both fields", "{\"text\": \"a\", \"texts\": [\"b\"]}");
        bodies.put("text not a string", "{\"text\": 42}");
        bodies.put("text null", "{\"text\": null}");
        bodies.put("texts not an array", "{\"texts\": \"a\"}");
        bodies.put("texts with a number", "{\"texts\": [\"a\", 2]}");
        bodies.put("texts with null", "{\"texts\": [null]}");
        bodies.put("duplicate field", "{\"text\": \"a\", \"text\": \"b\"}");
        bodies.put("two objects", "{\"text\": \"a\"} {\"text\": \"b\"}");
        bodies.put("languages not an array", "{\"text\": \"a\", \"languages\": \"de\"}");
        bodies.put("languages empty", "{\"text\": \"a\", \"languages\": []}");
        bodies.put("languages the model lacks", "{\"text\": \"a\", \"languages\": [\"de\", \"el\"]}");
        bodies.put("deeply nested", "{\"text\": " + "[".repeat(3000) + "]".repeat(3000) + "}");
        for (Map.Entry<String, String> body : bodies.entrySet()) {
            assertError(400, detect(server, body.getValue()), body.getKey());
        }
        byte[] notUtf8 = {'{', '"', 't', 'e', 'x', 't', '"', ':', ' ', '"', 'c', 'a', 'f', (byte) 0xC3, '(', '"', '}'};
        assertError(400, send(HttpRequest.newBuilder(uri(server, "/v1/detect")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(notUtf8)).build()), "bytes that are not UTF-8");
    }

    @Test
    void requestsOverTheLimitsAre413() throws Exception {
        byte[] large = JSON.writeValueAsBytes(Map.of("text", "Der Zug fährt um sieben ab. ".repeat(MAX_REQUEST_BYTES / 20)));
        assertError(413, send(HttpRequest.newBuilder(uri(server, "/v1/detect")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(large)).build()), "declared length");
        assertError(413, send(HttpRequest.newBuilder(uri(server, "/v1/detect")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(large))).build()), "chunked");
        HttpResponse<String> tooMany = detect(server, JSON.writeValueAsString(Map.of("texts", Collections.nCopies(MAX_TEXTS + 1, "Hej"))));
        assertError(413, tooMany, "texts");
        assertTrue(tooMany.body().contains("at most " + MAX_TEXTS), tooMany.body());
        assertEquals(200, detect(server, JSON.writeValueAsString(Map.of("texts", Collections.nCopies(MAX_TEXTS, "Hej")))).statusCode());
    }

    @Test
    void wrongContentTypeMethodOrPathGetsItsStatus() throws Exception {
        String body = "{\"text\": \"Hallo\"}";
        assertError(415, send(post("/v1/detect", "text/plain", body)), "text/plain");
        assertError(415, send(post("/v1/detect", "application/json; charset=ISO-8859-1", body)), "another charset");
        assertError(415, send(HttpRequest.newBuilder(uri(server, "/v1/detect")).POST(HttpRequest.BodyPublishers.ofString(body)).build()),
                "no Content-Type");
        assertEquals(200, send(post("/v1/detect", "Application/JSON; charset=\"utf-8\"", body)).statusCode());

        HttpResponse<String> getDetect = get(server, "/v1/detect");
        assertError(405, getDetect, "GET /v1/detect");
        assertEquals("POST", getDetect.headers().firstValue("Allow").orElse(""));
        for (String path : List.of("/healthz", "/v1/model")) {
            HttpResponse<String> posted = send(post(path, "application/json", "{}"));
            assertError(405, posted, "POST " + path);
            assertEquals("GET", posted.headers().firstValue("Allow").orElse(""));
        }
        for (String path : List.of("/", "/v1/detect/", "/v2/detect", "/healthz/extra")) {
            HttpResponse<String> missing = get(server, path);
            assertError(404, missing, path);
            assertTrue(missing.body().contains("POST /v1/detect"), "names the endpoints: " + missing.body());
        }
    }

    @Test
    void concurrentRequestsGetTheAnswersOfSequentialOnes() throws Exception {
        List<String> texts = ReleasedModel.withShortAndMixedTexts();
        List<JsonNode> sequential = new ArrayList<>();
        for (String text : texts) {
            sequential.add(JSON.readTree(detect(server, JSON.writeValueAsString(Map.of("text", text))).body()));
        }
        ExecutorService clients = Executors.newFixedThreadPool(12);
        try {
            List<Future<JsonNode>> answers = new ArrayList<>();
            for (int round = 0; round < 4; round++) {
                for (String text : texts) {
                    answers.add(clients.submit(() -> {
                        HttpResponse<String> response = detect(server, JSON.writeValueAsString(Map.of("text", text)));
                        assertEquals(200, response.statusCode(), response.body());
                        return JSON.readTree(response.body());
                    }));
                }
            }
            for (int i = 0; i < answers.size(); i++) {
                String text = texts.get(i % texts.size());
                // Requests that arrive together share a model call, whose int8 quantisation moves the probabilities a little.
                ReleasedModel.assertAgree(detection(sequential.get(i % texts.size())), detection(answers.get(i).get()), text);
            }
        } finally {
            clients.shutdownNow();
        }
    }

    @Test
    void moreWaitingRequestsThanAllowedGet503WithRetryAfterAndTheServerRecovers() throws Exception {
        String heavy = JSON.writeValueAsString(Map.of("texts", Collections.nCopies(8,
                String.join(" ", ReleasedModel.SENTENCES.get("nl")).repeat(8))));
        try (DetectionServer busy = DetectionServer.start(ReleasedModel.REGISTRY, ReleasedModel.DEFAULTS, 1, "127.0.0.1", 0,
                new DetectionServer.Limits(64 * 1024, 8, 3600, 1))) {
            ExecutorService clients = Executors.newFixedThreadPool(16);
            int answered = 0;
            int refused = 0;
            try {
                List<Future<HttpResponse<String>>> responses = new ArrayList<>();
                for (int i = 0; i < 64; i++) {
                    responses.add(clients.submit(() -> detect(busy, heavy)));
                }
                for (Future<HttpResponse<String>> future : responses) {
                    HttpResponse<String> response = future.get();
                    if (response.statusCode() == 503) {
                        refused++;
                        assertError(503, response, "busy");
                        assertEquals("1", response.headers().firstValue("Retry-After").orElse(""));
                    } else {
                        assertEquals(200, response.statusCode(), response.body());
                        JsonNode results = JSON.readTree(response.body()).get("results");
                        assertEquals(8, results.size());
                        results.forEach(result -> assertEquals("nl", result.get("language").asText()));
                        answered++;
                    }
                }
            } finally {
                clients.shutdownNow();
            }
            assertTrue(refused > 0, "64 requests from 16 clients, one inference thread and one waiting place: some are refused");
            assertTrue(answered > 0, "and the others are answered");
            assertEquals(200, detect(busy, "{\"text\": \"Tot ziens\"}").statusCode(), "answered again once the queue drains");
        }
    }

    @Test
    void aNewlyPublishedVersionIsServedAfterAReloadAndADamagedOneIsNot(@TempDir Path registry) throws Exception {
        String first = "20261201T000000Z-aaaaaaaa";
        String second = "20261202T000000Z-bbbbbbbb";
        ReleasedModel.publishRelabelled(registry, first);
        try (DetectionServer reloading = DetectionServer.start(registry, ReleasedModel.DEFAULTS, 1, "127.0.0.1", 0,
                new DetectionServer.Limits(MAX_REQUEST_BYTES, MAX_TEXTS, 3600))) {
            assertEquals(first, servedVersion(reloading));
            assertFalse(reloading.reloadNow(), "nothing new was published");

            String damaged = "20261201T120000Z-cccccccc";
            ReleasedModel.copyWithInt8(registry.resolve(ServingModel.VERSIONS).resolve(damaged), bytes -> {
                bytes[bytes.length / 3] ^= 0x20;
                return bytes;
            });
            Files.writeString(registry.resolve(ServingModel.CURRENT), damaged);
            assertFalse(reloading.reloadNow(), "a damaged version is not loaded");
            assertEquals(first, servedVersion(reloading));
            JsonNode stillServing = JSON.readTree(detect(reloading, "{\"text\": \"Vi ses i morgon, hälsningar från Lund.\"}").body());
            assertEquals(first, stillServing.get("model_version").asText());
            assertEquals("sv", stillServing.get("language").asText());

            ReleasedModel.publishRelabelled(registry, second);
            assertTrue(reloading.reloadNow());
            assertEquals(second, servedVersion(reloading));
            assertEquals(second, JSON.readTree(detect(reloading, "{\"texts\": [\"Hasta luego\"]}").body()).get("model_version").asText());
        }
    }

    @Test
    void theServerFollowsTheRegistryByItself(@TempDir Path registry) throws Exception {
        String first = "20261201T000000Z-dddddddd";
        String second = "20261202T000000Z-eeeeeeee";
        ReleasedModel.publishRelabelled(registry, first);
        try (DetectionServer following = DetectionServer.start(registry, ReleasedModel.DEFAULTS, 1, "127.0.0.1", 0,
                new DetectionServer.Limits(MAX_REQUEST_BYTES, MAX_TEXTS, 1))) {
            assertEquals(first, servedVersion(following));
            ReleasedModel.publishRelabelled(registry, second);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (!second.equals(servedVersion(following)) && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertEquals(second, servedVersion(following), "checked every second, for up to a minute");
        }
    }

    private static void assertDetection(Detection expected, JsonNode actual) {
        assertEquals(expected.language(), actual.get("language").asText());
        assertEquals(expected.confidence(), actual.get("confidence").asDouble());
        assertEquals(expected.windows(), actual.get("windows").asInt());
        assertEquals(List.copyOf(expected.probabilities().keySet()), fieldNames(actual.get("probabilities")));
        expected.probabilities().forEach((language, p) -> assertEquals(p, actual.get("probabilities").get(language).asDouble(), language));
    }

    private static Detection detection(JsonNode json) {
        Map<String, Double> probabilities = new LinkedHashMap<>();
        json.get("probabilities").fields().forEachRemaining(e -> probabilities.put(e.getKey(), e.getValue().asDouble()));
        return new Detection(json.get("language").asText(), json.get("confidence").asDouble(), probabilities, json.get("windows").asInt());
    }

    /** A JSON body {"error": one line} with the given status, and nothing of a stack trace. */
    private static void assertError(int status, HttpResponse<String> response, String what) throws IOException {
        assertEquals(status, response.statusCode(), what + ": " + response.body());
        assertEquals("application/json; charset=utf-8", response.headers().firstValue("Content-Type").orElse(""), what);
        JsonNode body = JSON.readTree(response.body());
        assertEquals(List.of("error"), fieldNames(body), what + ": " + response.body());
        String error = body.get("error").asText();
        assertFalse(error.isBlank(), what);
        assertFalse(error.contains("\n"), what + ": one line: " + error);
        for (String internal : List.of("Exception", "at org.", "at com.", "at java.", ".java:")) {
            assertFalse(error.contains(internal), what + ": " + error);
        }
    }

    private static String servedVersion(DetectionServer target) throws Exception {
        HttpResponse<String> health = get(target, "/healthz");
        assertEquals(200, health.statusCode(), health.body());
        return JSON.readTree(health.body()).get("model_version").asText();
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static URI uri(DetectionServer target, String path) {
        return URI.create("http://127.0.0.1:" + target.port() + path);
    }

    private static HttpRequest post(String path, String contentType, String body) {
        return HttpRequest.newBuilder(uri(server, path)).header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private static HttpResponse<String> detect(DetectionServer target, String body) throws Exception {
        return send(HttpRequest.newBuilder(uri(target, "/v1/detect")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    private static HttpResponse<String> get(DetectionServer target, String path) throws Exception {
        return send(HttpRequest.newBuilder(uri(target, path)).GET().build());
    }

    private static HttpResponse<String> send(HttpRequest request) throws Exception {
        return CLIENT.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }
}
