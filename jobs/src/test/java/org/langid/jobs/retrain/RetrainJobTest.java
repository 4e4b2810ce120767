package org.langid.jobs.retrain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.langid.jobs.SparkTestSession;
import org.langid.jobs.prepare.PrepareConfig;
import org.langid.jobs.prepare.PrepareJob;
import org.langid.model.artefact.ModelArtefact;
import org.langid.model.artefact.ModelRegistry;
import org.langid.model.graph.ModelConfig;
import org.langid.model.schema.JsonSchemas;
import org.langid.model.train.TrainConfig;
import org.langid.model.TestConfigs;

/** Snapshots arriving one after another, a no-op re-run, a worse candidate kept out, and the lock. */
class RetrainJobTest {

    private static final String[] EN = {"the", "house", "is", "small", "and", "we", "like", "green", "trees", "over", "there",
            "water", "people", "would", "think", "about", "little", "before"};
    private static final String[] DE = {"das", "Haus", "ist", "klein", "und", "wir", "mögen", "grüne", "Bäume", "dort", "drüben",
            "Wasser", "Leute", "würden", "denken", "über", "wenig", "vorher"};
    private static final Configuration CONF = new Configuration();

    @TempDir
    Path temp;

    @Test
    void snapshotsArePublishedInTurnARerunIsANoOpAndAWorseCandidateIsKeptOut() throws IOException {
        Path corpus = temp.resolve("corpus");
        String registry = temp.resolve("registry").toString();
        String evaluation = fixedEvaluationSet();
        RetrainJob.Settings settings = settings(corpus, registry, evaluation);

        writeSnapshot(corpus.resolve("2026-11-01"), 150, 1, false);
        RetrainJob.Outcome first = RetrainJob.run(SparkTestSession.get(), settings);
        assertTrue(first.trained(), first.message());
        assertEquals("promoted", first.decision().path("decision").asText());
        assertTrue(first.decision().path("current").isNull(), "the registry's first model");
        String v1 = new ModelRegistry(registry, CONF).currentVersion().orElseThrow();
        assertEquals(v1, first.decision().path("candidate").path("version").asText());
        assertEquals(List.of("2026-11-01"), snapshots(v1, registry));

        RetrainJob.Outcome again = RetrainJob.run(SparkTestSession.get(), settings);
        assertFalse(again.trained());
        assertTrue(again.message().startsWith("nothing to do"), again.message());
        assertEquals(1, RetrainJob.decisions(registry, CONF).size(), "a no-op writes no decision");
        assertEquals(v1, new ModelRegistry(registry, CONF).currentVersion().orElseThrow());

        writeSnapshot(corpus.resolve("2026-11-08"), 150, 2, false);
        // The profile gains an n-gram filter: made from the data, not a parameter, so the warm start stays.
        settings.model().ngramFilterBits = 1 << 16;
        // And v1 as written while the recipe was part of the model section: its shape is read without it.
        withTheRecipeInTheModelSection(Path.of(new ModelRegistry(registry, CONF).versionLocation(v1), ModelArtefact.MANIFEST));
        RetrainJob.Outcome second = RetrainJob.run(SparkTestSession.get(), settings);
        assertEquals("promoted", second.decision().path("decision").asText(), second.decision().toString());
        assertEquals("warm start from " + v1, second.decision().path("candidate").path("start").asText());
        assertEquals(v1, second.decision().path("current").path("version").asText());
        String v2 = new ModelRegistry(registry, CONF).currentVersion().orElseThrow();
        assertEquals(second.decision().path("candidate").path("version").asText(), v2);
        assertEquals(List.of("2026-11-01", "2026-11-08"), snapshots(v2, registry));
        ModelArtefact secondModel = ModelArtefact.load(new ModelRegistry(registry, CONF).versionLocation(v2), CONF);
        assertEquals(v1, secondModel.manifest().training().path("warm_start_from").asText());
        assertEquals(1 << 16, secondModel.ngramFilter().size(), "the candidate carries the filter of its training windows");
        JsonNode recipe = secondModel.manifest().training().path("train");
        assertEquals(settings.train().optimizer.decay, recipe.path("optimizer").path("decay").asText(), "trained by the profile's recipe");
        assertEquals(settings.train().seed, recipe.path("seed").asLong());
        assertFalse(secondModel.manifest().toJson().path("model").has("optimizer"));

        // A corrupted snapshot: the languages of its files swapped, three times the clean data.
        writeSnapshot(corpus.resolve("2026-11-15"), 900, 3, true);
        RetrainJob.Outcome corrupted = RetrainJob.run(SparkTestSession.get(), settings);
        JsonNode decision = corrupted.decision();
        assertEquals("rejected", decision.path("decision").asText(), decision.toString());
        assertTrue(decision.path("reasons").get(0).asText().contains("below the current model's"), decision.toString());
        assertEquals(v2, new ModelRegistry(registry, CONF).currentVersion().orElseThrow(), "the current model keeps serving");
        assertEquals(List.of("2026-11-15"), List.of(decision.path("snapshots").path("new").get(0).asText()));
        assertTrue(corrupted.message().contains("rejected"), corrupted.message());

        RetrainJob.Outcome judged = RetrainJob.run(SparkTestSession.get(), settings);
        assertFalse(judged.trained(), "a rejected snapshot set is not retrained on every run");
        assertTrue(judged.message().contains("already judged"), judged.message());

        List<JsonNode> decisions = RetrainJob.decisions(registry, CONF);
        assertEquals(3, decisions.size());
        for (JsonNode record : decisions) {
            assertEquals(List.of(), JsonSchemas.problems(RetrainJob.SCHEMA_FILE, record), record.toString());
        }
        assertFalse(Files.exists(Path.of(registry, RetrainLock.FILE)), "the lock is released");
    }

    @Test
    void aSecondRunIsRefusedWhileTheLockIsHeld() throws IOException {
        Path corpus = temp.resolve("corpus");
        writeSnapshot(corpus.resolve("2026-11-01"), 50, 1, false);
        String registry = temp.resolve("registry").toString();
        try (RetrainLock held = RetrainLock.acquire(registry, CONF)) {
            RetrainLockedException refused = assertThrows(RetrainLockedException.class,
                    () -> RetrainJob.run(SparkTestSession.get(), settings(corpus, registry, null)));
            assertTrue(refused.getMessage().contains("another retraining run holds"), refused.getMessage());
            assertTrue(refused.getMessage().contains("owner: "), "names the holder: " + refused.getMessage());
        }
        assertTrue(new ModelRegistry(registry, CONF).currentVersion().isEmpty(), "the refused run published nothing");
        assertTrue(RetrainJob.decisions(registry, CONF).isEmpty());
    }

    private RetrainJob.Settings settings(Path corpus, String registry, String evaluation) {
        ModelConfig model = TestConfigs.model();
        model.languages = List.of("en", "de");
        model.dModel = 16;
        model.heads = 2;
        model.layers = 1;
        model.ffn = 32;
        model.ngramBuckets = 512;
        TrainConfig train = TestConfigs.training();
        train.batchSize = 32;
        train.epochs = 1;
        train.maxSteps = 300;
        return new RetrainJob.Settings(corpus.toString(), registry, temp.resolve("work").toString(), new PrepareConfig(), model, train,
                "local", 1, 0.02, evaluation, 0);
    }

    /** Rewrites {@code manifest} as a version that kept the training recipe in the model section wrote it. */
    private static void withTheRecipeInTheModelSection(Path manifest) throws IOException {
        ObjectMapper json = new ObjectMapper();
        ObjectNode document = (ObjectNode) json.readTree(manifest.toFile());
        ObjectNode model = (ObjectNode) document.get("model");
        ObjectNode train = (ObjectNode) document.get("training").get("train");
        for (String key : ModelConfig.MOVED_TO_TRAIN) {
            model.set(key, train.remove(key));
        }
        json.writeValue(manifest.toFile(), document);
    }

    /** Clean held-out windows, the same for every run (the fixed evaluation set). */
    private String fixedEvaluationSet() throws IOException {
        Path corpus = temp.resolve("evaluation-corpus");
        writeSnapshot(corpus, 120, 99, false);
        String prepared = temp.resolve("evaluation").toString();
        new PrepareJob(SparkTestSession.get(), new PrepareConfig()).run(List.of(corpus.toString()), prepared, false);
        return prepared + "/windows";
    }

    private static List<String> snapshots(String version, String registry) {
        List<String> names = new ArrayList<>();
        ModelArtefact.load(new ModelRegistry(registry, CONF).versionLocation(version), CONF).manifest().training()
                .path("snapshots").forEach(n -> names.add(n.asText()));
        return names;
    }

    private static void writeSnapshot(Path dir, int sentences, long seed, boolean swapLanguages) throws IOException {
        Files.createDirectories(dir);
        Files.write(dir.resolve(swapLanguages ? "de.txt" : "en.txt"), sentences(EN, sentences, seed));
        Files.write(dir.resolve(swapLanguages ? "en.txt" : "de.txt"), sentences(DE, sentences, seed + 1000));
    }

    private static List<String> sentences(String[] words, int n, long seed) {
        Random random = new Random(seed);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            StringBuilder s = new StringBuilder(words[random.nextInt(words.length)]);
            for (int w = 1; w < 6 + random.nextInt(10); w++) {
                s.append(' ').append(words[random.nextInt(words.length)]);
            }
            lines.add(s.append('.').toString());   // letters only: digits would be windows of no language
        }
        return lines;
    }
}
