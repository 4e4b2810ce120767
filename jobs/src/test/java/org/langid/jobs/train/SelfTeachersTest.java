package org.langid.jobs.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.langid.jobs.SparkTestSession;
import org.langid.model.config.ConfigException;
import org.langid.model.graph.ModelConfig;
import org.langid.model.train.TrainConfig;
import org.langid.model.TestConfigs;

/** What the student is told about its teachers (the self-teachers' training: LangidCommandTest). */
class SelfTeachersTest {

    private static TrainConfig resolve(TrainConfig train) {
        return SelfTeachers.resolve(SparkTestSession.get(), "unused", "unused", TestConfigs.model(), train,
                new SelfTeachers.Trainer(false, 1), false, System.out);
    }

    @Test
    void listedTeachersAreQualifiedSoThatExecutorsElsewhereReadTheSameFiles() {
        TrainConfig train = TestConfigs.training();
        train.distillation.weight = 0.5;
        train.distillation.teachers = List.of("teachers/a", "file:/srv/models/b");
        TrainConfig student = resolve(train);
        String cwd = Path.of("").toAbsolutePath().toString();
        assertEquals(List.of("file:" + cwd + "/teachers/a", "file:/srv/models/b"), student.distillation.teachers);
        assertEquals(List.of("teachers/a", "file:/srv/models/b"), train.distillation.teachers, "the caller's config is left alone");
    }

    @Test
    void aModelThatDoesNotDistilIsLeftAsItIs() {
        TrainConfig train = TestConfigs.training();
        train.distillation.selfTeachers = 3;   // ignored at weight 0: nothing is trained
        assertSame(train, resolve(train));
    }

    @Test
    void aSelfTeacherIsTheStudentWithItsChangesOnTheNextSeedsAndNoDistillation() {
        ModelConfig student = TestConfigs.model();
        student.dModel = 128;
        student.ffn = 256;
        student.ngramBuckets = 4096;
        TrainConfig train = TestConfigs.training();
        train.optimizer.learningRate = 0.003;
        train.distillation.weight = 0.5;
        train.distillation.selfTeachers = 2;
        train.distillation.selfTeacherModel = Map.of("d_model", 64, "ffn", 128);

        ModelConfig teacher = train.validatedFor(student).selfTeacherModel(student);
        TrainConfig teacherTraining = train.selfTeacherTraining(2);

        assertEquals(64, teacher.dModel);
        assertEquals(128, teacher.ffn);
        assertEquals(4096, teacher.ngramBuckets, "what is not changed is the student's");
        assertEquals(student.heads, teacher.heads);
        assertEquals(train.seed + 2, teacherTraining.seed);
        assertEquals(0.003, teacherTraining.optimizer.learningRate, "the student's recipe");
        assertTrue(!teacherTraining.distillation.enabled() && teacherTraining.distillation.selfTeachers == 0
                && teacherTraining.distillation.selfTeacherModel.isEmpty());
        assertEquals(128, student.dModel, "the student's config is left alone");
        assertEquals(0.5, train.distillation.weight);
    }

    @Test
    void aWrongTeacherSettingIsNamedBeforeAnythingTrains() {
        ModelConfig student = TestConfigs.model();
        TrainConfig train = TestConfigs.training();
        train.distillation.weight = 0.5;
        train.distillation.selfTeachers = 1;
        train.distillation.selfTeacherModel = Map.of("d_modle", 64);
        assertTrue(assertThrows(ConfigException.class, () -> train.validatedFor(student)).getMessage().contains("unknown key 'd_modle'"));
        train.distillation.selfTeacherModel = Map.of("d_model", 66);   // 4 heads
        assertTrue(assertThrows(ConfigException.class, () -> train.validatedFor(student)).getMessage()
                .contains("distillation.self_teacher_model: d_model 66 is not divisible by heads 4"));
        train.distillation.selfTeacherModel = Map.of("window", 8);
        assertTrue(assertThrows(ConfigException.class, () -> train.validatedFor(student)).getMessage()
                .contains("self_teacher_model cannot change window"));
        train.distillation.selfTeacherModel = Map.of("optimizer", Map.of("warmup_steps", 7));
        assertTrue(assertThrows(ConfigException.class, () -> train.validatedFor(student)).getMessage()
                .contains("'optimizer'"), "the recipe is the student's: a teacher differs in model: settings only");
    }
}
