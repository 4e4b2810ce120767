package org.langid.jobs.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.langid.model.TestConfigs;
import org.langid.model.config.ConfigTree;
import org.langid.model.graph.ModelConfig;
import org.langid.model.train.TrainConfig;
import org.langid.model.train.TrainingState;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

/** Which checkpoints a run resumes from (resuming itself: AveragingTrainerTest). */
class CheckpointsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path temp;

    @Test
    void aCheckpointWrittenWithTheRecipeInTheModelSectionResumesAndOneOfAnotherRecipeIsRefused() throws IOException {
        ModelConfig model = TestConfigs.model();
        TrainConfig train = TestConfigs.training();
        Checkpoints checkpoints = new Checkpoints(temp.toString(), new Configuration());
        Checkpoints.Identity identity = new Checkpoints.Identity(ConfigTree.toJson(model), ConfigTree.toJson(train), "sha256:test");
        checkpoints.write(new TrainingState(Nd4j.ones(DataType.FLOAT, 4), Nd4j.zeros(DataType.FLOAT, 8), 6, 1), identity);

        // As a version that kept the recipe in the model section wrote it.
        Path record = temp.resolve("epoch-0001/checkpoint.json");
        ObjectNode json = (ObjectNode) JSON.readTree(record.toFile());
        ObjectNode earlierModel = (ObjectNode) json.get("model");
        ObjectNode earlierTrain = (ObjectNode) json.get("train");
        for (String key : ModelConfig.MOVED_TO_TRAIN) {
            earlierModel.set(key, earlierTrain.remove(key));
        }
        JSON.writeValue(record.toFile(), json);
        Files.deleteIfExists(temp.resolve("epoch-0001/.checkpoint.json.crc"));

        assertEquals(6, checkpoints.latest(identity).orElseThrow().step);
        train.dropout = 0.1;
        Checkpoints.Identity otherRecipe = new Checkpoints.Identity(ConfigTree.toJson(model), ConfigTree.toJson(train), "sha256:test");
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> checkpoints.latest(otherRecipe));
        assertTrue(refused.getMessage().contains("was made with another model or train config"), refused.getMessage());
    }
}
