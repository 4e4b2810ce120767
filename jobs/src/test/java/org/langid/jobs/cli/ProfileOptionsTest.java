package org.langid.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.langid.jobs.prepare.PrepareConfig;
import org.langid.model.config.ConfigException;
import org.langid.model.config.ConfigTree;
import org.langid.model.graph.ModelConfig;
import org.langid.model.train.TrainConfig;

/** Profiles read through the Hadoop FileSystem, written on top of others with {@code base:}. */
class ProfileOptionsTest {

    private static final Path CONF = Path.of("..").toAbsolutePath().normalize().resolve("conf");
    private static final Configuration HADOOP = new Configuration();

    @Test
    void aProfileIsReadOverItsBasesEachNamedRelativeToItsOwnDirectory(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("shared"));
        Files.writeString(dir.resolve("shared/root.yaml"), "model:\n  d_model: 32\n  heads: 2\n  layers: 3\n");
        Files.writeString(dir.resolve("shared/middle.yaml"), "base: root.yaml\nmodel:\n  heads: 4\n");
        Files.writeString(dir.resolve("top.yaml"), "base: shared/middle.yaml\nmodel:\n  layers: 1\n");

        ModelConfig model = ProfileOptions.read(dir.resolve("top.yaml").toString(), HADOOP).section("model", ModelConfig.class);
        assertEquals(32, model.dModel, "from the root");
        assertEquals(4, model.heads, "from the middle, over the root");
        assertEquals(1, model.layers, "from the top, over both");
    }

    @Test
    void aMissingBaseOrALoopOfBasesIsAOneLineError(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("orphan.yaml"), "base: gone.yaml\n");
        ConfigException missing = assertThrows(ConfigException.class, () -> ProfileOptions.read(dir.resolve("orphan.yaml").toString(), HADOOP));
        assertTrue(missing.getMessage().matches("configuration file .*gone\\.yaml does not exist"), missing.getMessage());

        Files.writeString(dir.resolve("a.yaml"), "base: b.yaml\n");
        Files.writeString(dir.resolve("b.yaml"), "base: a.yaml\n");
        ConfigException loop = assertThrows(ConfigException.class, () -> ProfileOptions.read(dir.resolve("a.yaml").toString(), HADOOP));
        assertTrue(loop.getMessage().contains("loop"), loop.getMessage());
        for (String message : new String[] {missing.getMessage(), loop.getMessage()}) {
            assertTrue(!message.contains("\n"), "one line: " + message);
        }
    }

    /**
     * What the README promises of ./langid pipeline's profile: many.yaml's model (its languages, und class,
     * alphabet and shape), trained on fewer windows a label; every other setting many.yaml's.
     */
    @Test
    void thePipelinesProfileIsTheManyLanguageOneSizedForTheSample() {
        ConfigTree many = ProfileOptions.read(CONF.resolve("many.yaml").toString(), HADOOP);
        ConfigTree pipeline = ProfileOptions.read(CONF.resolve("pipeline.yaml").toString(), HADOOP);
        ModelConfig model = pipeline.section("model", ModelConfig.class);
        TrainConfig train = pipeline.section("train", TrainConfig.class).validatedFor(model);
        PrepareConfig prepare = pipeline.section("prepare", PrepareConfig.class);
        assertEquals(ConfigTree.toJson(many.section("model", ModelConfig.class)), ConfigTree.toJson(model), "many.yaml's model");
        assertEquals(83, model.languages.size(), "82 languages and und");
        assertEquals("scripts", prepare.alphabet);
        assertEquals(29, prepare.otherLanguages.size(), "the und class's languages");
        PrepareConfig manyPrepare = many.section("prepare", PrepareConfig.class);
        assertTrue(prepare.maxWindowsPerLanguage > 0 && prepare.maxWindowsPerLanguage < manyPrepare.maxWindowsPerLanguage,
                "fewer windows a label than the full corpus's " + manyPrepare.maxWindowsPerLanguage);
        ObjectNode expected = (ObjectNode) ConfigTree.toJson(manyPrepare);
        ObjectNode actual = (ObjectNode) ConfigTree.toJson(prepare);
        expected.remove("max_windows_per_language");
        actual.remove("max_windows_per_language");
        assertEquals(expected, actual, "every other prepare setting is many.yaml's");
        ObjectNode expectedTrain = (ObjectNode) ConfigTree.toJson(many.section("train", TrainConfig.class));
        ObjectNode actualTrain = (ObjectNode) ConfigTree.toJson(train);
        expectedTrain.remove("epochs");
        actualTrain.remove("epochs");
        assertEquals(expectedTrain, actualTrain, "every other train setting is many.yaml's");
        assertEquals(0.0, train.distillation.weight, "not distilled");
    }
}
