package org.langid.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.langid.model.graph.ModelConfig;
import org.langid.jobs.TestConfigs;

/** The train stage's line of {@code langid pipeline}, which tells a user how the model is distilled. */
class PipelineCommandTest {

    @Test
    void aTeachersChangesAreShownAsAProfileWouldWriteThem() {
        ModelConfig model = TestConfigs.model();
        model.distillation.weight = 0.5;
        model.distillation.temperature = 4.0;
        model.distillation.selfTeachers = 1;
        Map<String, Object> changes = new LinkedHashMap<>();
        changes.put("d_model", 64);
        changes.put("optimizer", Map.of("warmup_steps", 7));
        model.distillation.selfTeacherModel = changes;

        assertEquals(", distilled from 1 teacher of its configuration with {d_model: 64, optimizer: {warmup_steps: 7}} "
                + "trained first (weight 0.5, temperature 4.0)", PipelineCommand.distilled(model));
    }

    @Test
    void selfTeachersOfTheStudentsOwnConfigurationAndListedTeachersAreCounted() {
        ModelConfig model = TestConfigs.model();
        model.distillation.weight = 0.5;
        model.distillation.selfTeachers = 3;
        assertEquals(", distilled from 3 teachers of its own configuration trained first (weight 0.5, temperature "
                + model.distillation.temperature + ")", PipelineCommand.distilled(model));

        model.distillation.teachers = List.of("a", "b");
        assertEquals(", distilled from 2 teacher(s) (weight 0.5, temperature " + model.distillation.temperature + ")",
                PipelineCommand.distilled(model));
    }

    @Test
    void aModelThatIsNotDistilledAddsNothing() {
        assertEquals("", PipelineCommand.distilled(TestConfigs.model()));
    }
}
