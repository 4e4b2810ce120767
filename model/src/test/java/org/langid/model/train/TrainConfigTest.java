package org.langid.model.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.langid.model.config.ConfigException;
import org.langid.model.config.ConfigTree;
import org.langid.model.graph.ModelConfig;

class TrainConfigTest {

    @Test
    void theExecutionOptionsAreReadTypedAndPassedToTheSteps() {
        assertEquals(StepOptions.DEFAULT, StepOptions.of(new TrainConfig()));
        TrainConfig train = ConfigTree.parse("train:\n  execution: samediff\n  profile_every_steps: 100\n", "p.yaml")
                .section("train", TrainConfig.class);
        assertEquals(TrainConfig.Execution.SAMEDIFF, train.execution());
        assertEquals(new StepOptions(TrainConfig.Execution.SAMEDIFF, 100, StepOptions.DEFAULT.rewrites()), StepOptions.of(train));
    }

    @Test
    void anUnknownExecutionIsAOneLineErrorNamingTheAllowedValues() {
        ConfigException unknown = assertThrows(ConfigException.class,
                () -> ConfigTree.parse("train:\n  execution: fast\n", "p.yaml").section("train", TrainConfig.class));
        assertEquals("p.yaml: section 'train': execution must be replay or samediff, got 'fast'", unknown.getMessage());
        ConfigException negative = assertThrows(ConfigException.class,
                () -> ConfigTree.parse("train:\n  profile_every_steps: -1\n", "p.yaml").section("train", TrainConfig.class));
        assertEquals("p.yaml: section 'train': profile_every_steps must be 0 (off) or more, got -1", negative.getMessage());
    }

    @Test
    void theRecipeIsPartOfTheTrainSectionAndCheckedThere() {
        TrainConfig train = ConfigTree.parse("train:\n  seed: 7\n  dropout: 0.1\n  optimizer:\n    learning_rate: 0.01\n"
                + "  distillation:\n    weight: 0.5\n    self_teachers: 1\n", "p.yaml").section("train", TrainConfig.class);
        assertEquals(7, train.seed);
        assertEquals(0.1, train.dropout);
        assertEquals(0.01, train.optimizer.learningRate);
        assertEquals(0.5, train.teacherWeight());
        ConfigException several = assertThrows(ConfigException.class,
                () -> ConfigTree.parse("train:\n  dropout: 1.5\n  optimizer:\n    decay: step\n", "p.yaml").section("train", TrainConfig.class));
        assertEquals("p.yaml: section 'train': dropout must be in [0, 1), got 1.5; optimizer.decay 'step' is not one of none, linear, cosine",
                several.getMessage());
    }

    /** Summaries, checkpoints and manifests written while the recipe was part of the model section. */
    @Test
    void aTrainSectionOfAnEarlierVersionGetsTheRecipeItsModelSectionHeld() throws Exception {
        ObjectNode model = (ObjectNode) ConfigTree.toJson(new ModelConfig());
        model.put("seed", 7);
        model.put("dropout", 0.1);
        model.put("ngram_dropout", 0.3);
        model.set("optimizer", ConfigTree.toJson(new TrainConfig.Optimizer()));
        model.set("distillation", ConfigTree.toJson(new TrainConfig.Distillation()));
        ObjectNode train = (ObjectNode) ConfigTree.toJson(new TrainConfig());
        for (String recipe : ModelConfig.MOVED_TO_TRAIN) {
            train.remove(recipe);
        }
        TrainConfig expected = new TrainConfig();
        expected.seed = 7;
        expected.dropout = 0.1;
        ObjectMapper json = new ObjectMapper();   // as read from a file: 7 is an int there, a long in the config
        assertEquals(json.readTree(ConfigTree.toJson(expected).toString()), json.readTree(TrainConfig.withRecipeFrom(train, model).toString()));
        assertEquals(ConfigTree.toJson(new ModelConfig()), ModelConfig.withoutRecipe(model));

        JsonNode current = ConfigTree.toJson(new TrainConfig());
        assertSame(current, TrainConfig.withRecipeFrom(current, ConfigTree.toJson(new ModelConfig())),
                "a train section of this version is left as it is");
    }
}
