package org.langid.jobs.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.langid.jobs.SparkTestSession;
import org.langid.model.graph.ModelConfig;
import org.langid.model.train.TrainConfig;

/** What the student is told about its teachers (the self-teachers' training: LangidCommandTest). */
class SelfTeachersTest {

    private static ModelConfig resolve(ModelConfig model) {
        return SelfTeachers.resolve(SparkTestSession.get(), "unused", "unused", model, new TrainConfig(),
                new SelfTeachers.Trainer(false, 1), false, System.out);
    }

    @Test
    void listedTeachersAreQualifiedSoThatExecutorsElsewhereReadTheSameFiles() {
        ModelConfig model = new ModelConfig();
        model.distillation.weight = 0.5;
        model.distillation.teachers = List.of("teachers/a", "file:/srv/models/b");
        ModelConfig student = resolve(model);
        String cwd = Path.of("").toAbsolutePath().toString();
        assertEquals(List.of("file:" + cwd + "/teachers/a", "file:/srv/models/b"), student.distillation.teachers);
        assertEquals(List.of("teachers/a", "file:/srv/models/b"), model.distillation.teachers, "the caller's config is left alone");
    }

    @Test
    void aModelThatDoesNotDistilIsLeftAsItIs() {
        ModelConfig model = new ModelConfig();
        model.distillation.selfTeachers = 3;   // ignored at weight 0: nothing is trained
        assertSame(model, resolve(model));
    }
}
