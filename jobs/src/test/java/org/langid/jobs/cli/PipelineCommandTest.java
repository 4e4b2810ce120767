package org.langid.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.langid.model.train.TrainConfig;
import org.langid.model.TestConfigs;

/** The train stage's line of {@code langid pipeline}, which tells a user how the model is distilled. */
class PipelineCommandTest {

    @Test
    void aTeachersChangesAreShownAsAProfileWouldWriteThem() {
        TrainConfig train = TestConfigs.training();
        train.distillation.weight = 0.5;
        train.distillation.temperature = 4.0;
        train.distillation.selfTeachers = 1;
        Map<String, Object> changes = new LinkedHashMap<>();
        changes.put("d_model", 64);
        changes.put("ffn", 128);
        train.distillation.selfTeacherModel = changes;

        assertEquals(", distilled from 1 teacher of its configuration with {d_model: 64, ffn: 128} "
                + "trained first (weight 0.5, temperature 4.0)", PipelineCommand.distilled(train));
    }

    @Test
    void selfTeachersOfTheStudentsOwnConfigurationAndListedTeachersAreCounted() {
        TrainConfig train = TestConfigs.training();
        train.distillation.weight = 0.5;
        train.distillation.selfTeachers = 3;
        assertEquals(", distilled from 3 teachers of its own configuration trained first (weight 0.5, temperature "
                + train.distillation.temperature + ")", PipelineCommand.distilled(train));

        train.distillation.teachers = List.of("a", "b");
        assertEquals(", distilled from 2 teacher(s) (weight 0.5, temperature " + train.distillation.temperature + ")",
                PipelineCommand.distilled(train));
    }

    @Test
    void aModelThatIsNotDistilledAddsNothing() {
        assertEquals("", PipelineCommand.distilled(TestConfigs.training()));
    }
}
