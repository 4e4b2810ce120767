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

    /** What the README promises of ./langid pipeline's profile: local.yaml's, but for the model's width and its teacher. */
    @Test
    void thePipelinesProfileIsTheLocalOneWithAWiderModelAndOneTeacher() {
        ConfigTree local = ProfileOptions.read(CONF.resolve("local.yaml").toString(), HADOOP);
        ConfigTree pipeline = ProfileOptions.read(CONF.resolve("pipeline.yaml").toString(), HADOOP);
        ModelConfig model = pipeline.section("model", ModelConfig.class);
        TrainConfig train = pipeline.section("train", TrainConfig.class).validatedFor(model);
        assertEquals(128, model.dModel);
        assertEquals(256, model.ffn);
        assertEquals(0.5, train.distillation.weight);
        assertEquals(1, train.distillation.selfTeachers);
        assertTrue(train.distillation.teachers.isEmpty(), "its teacher is trained by the pipeline itself");
        assertEquals(64, train.selfTeacherModel(model).dModel, "a teacher of local.yaml's width");

        ObjectNode expected = (ObjectNode) ConfigTree.toJson(local.section("model", ModelConfig.class));
        ObjectNode actual = (ObjectNode) ConfigTree.toJson(model);
        for (String changed : new String[] {"d_model", "ffn"}) {
            expected.remove(changed);
            actual.remove(changed);
        }
        assertEquals(expected, actual, "every other model setting is local.yaml's");
        ObjectNode expectedTrain = (ObjectNode) ConfigTree.toJson(local.section("train", TrainConfig.class));
        ObjectNode actualTrain = (ObjectNode) ConfigTree.toJson(train);
        expectedTrain.remove("distillation");
        actualTrain.remove("distillation");
        assertEquals(expectedTrain, actualTrain, "every other train setting is local.yaml's");
        assertEquals(ConfigTree.toJson(local.section("prepare", PrepareConfig.class)), ConfigTree.toJson(pipeline.section("prepare", PrepareConfig.class)));
    }
}
