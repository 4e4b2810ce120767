package org.langid.model.artefact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.langid.model.graph.ModelConfig;

class ModelRegistryTest {

    private static final Configuration CONF = new Configuration();

    @TempDir
    Path dir;

    @AfterEach
    void removeHook() {
        ModelRegistry.beforePointerUpdateForTests = () -> { };
    }

    @Test
    void publishedVersionsSitSideBySideAndTheLastIsCurrent() throws Exception {
        Files.createDirectories(dir.resolve(ModelRegistry.VERSIONS));   // a registry nothing was published to yet
        ModelRegistry registry = new ModelRegistry(dir.toString(), CONF);
        assertTrue(registry.currentVersion().isEmpty());
        ArtefactException empty = assertThrows(ArtefactException.class, () -> ModelRegistry.resolve(registry.root(), CONF));
        assertTrue(empty.getMessage().contains("has no current model yet"), empty.getMessage());

        ModelArtefact first = artefact(1, "2026-11-20T08:00:00Z");
        ModelArtefact second = artefact(2, "2026-11-21T08:00:00Z");
        registry.publish(first);
        registry.publish(second);

        assertEquals(List.of(first.manifest().modelVersion(), second.manifest().modelVersion()), registry.versions());
        assertEquals(second.manifest().modelVersion(), registry.currentVersion().orElseThrow());
        assertEquals(registry.versionLocation(second.manifest().modelVersion()), ModelRegistry.resolve(dir.toString(), CONF));
        assertEquals(second.manifest().modelVersion(),
                ModelArtefact.load(ModelRegistry.resolve(dir.toString(), CONF), CONF).manifest().modelVersion());

        registry.setCurrent(first.manifest().modelVersion());   // rollback
        assertEquals(first.manifest().modelVersion(), registry.currentVersion().orElseThrow());
        ArtefactException again = assertThrows(ArtefactException.class, () -> registry.publish(first));
        assertTrue(again.getMessage().contains("already in the registry"), again.getMessage());
    }

    @Test
    void aCrashMidPublishLeavesThePreviousModelServing() throws Exception {
        ModelRegistry registry = new ModelRegistry(dir.toString(), CONF);
        ModelArtefact serving = artefact(1, "2026-11-20T08:00:00Z");
        registry.publish(serving);

        ModelRegistry.beforePointerUpdateForTests = () -> {
            throw new IllegalStateException("simulated crash before the pointer moved");
        };
        assertThrows(IllegalStateException.class, () -> registry.publish(artefact(2, "2026-11-21T08:00:00Z")));
        // What a crash while writing leaves: a half-written temporary directory.
        Path partial = dir.resolve("versions/._tmp.20261122T080000Z-0123abcd.1");
        Files.createDirectories(partial);
        Files.writeString(partial.resolve("graph.fb"), "half");

        assertEquals(serving.manifest().modelVersion(), registry.currentVersion().orElseThrow());
        assertEquals(serving.manifest().modelVersion(),
                ModelArtefact.load(ModelRegistry.resolve(dir.toString(), CONF), CONF).manifest().modelVersion());
        assertEquals(2, registry.versions().size(), "the complete second version is listed, the partial one is not");
        try (Stream<Path> files = Files.list(dir)) {
            assertTrue(files.noneMatch(p -> p.getFileName().toString().startsWith("._tmp.current")), "no pointer temporaries left");
        }
    }

    @Test
    void aCurrentPointerToNothingIsAClearError() throws Exception {
        Files.createDirectories(dir.resolve("versions"));
        Files.writeString(dir.resolve("current"), "not-a-version\n");
        ArtefactException e = assertThrows(ArtefactException.class, () -> ModelRegistry.resolve(dir.toString(), CONF));
        assertTrue(e.getMessage().contains("which is not a model version"), e.getMessage());
    }

    private static ModelArtefact artefact(long seed, String created) {
        ModelConfig config = TestArtefacts.smallConfig();
        return TestArtefacts.create(config, TestArtefacts.parameters(config, seed), Instant.parse(created));
    }
}
