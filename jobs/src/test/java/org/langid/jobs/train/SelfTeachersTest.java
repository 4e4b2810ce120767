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
import org.langid.model.graph.ModelConfig;
import org.langid.model.train.TrainConfig;
import org.langid.jobs.TestConfigs;

/** What the student is told about its teachers (the self-teachers' training: LangidCommandTest). */
class SelfTeachersTest {

    private static ModelConfig resolve(ModelConfig model) {
        return SelfTeachers.resolve(SparkTestSession.get(), "unused", "unused", model, TestConfigs.training(),
                new SelfTeachers.Trainer(false, 1), false, System.out);
    }

    @Test
    void listedTeachersAreQualifiedSoThatExecutorsElsewhereReadTheSameFiles() {
        ModelConfig model = TestConfigs.model();
        model.distillation.weight = 0.5;
        model.distillation.teachers = List.of("teachers/a", "file:/srv/models/b");
        ModelConfig student = resolve(model);
        String cwd = Path.of("").toAbsolutePath().toString();
        assertEquals(List.of("file:" + cwd + "/teachers/a", "file:/srv/models/b"), student.distillation.teachers);
        assertEquals(List.of("teachers/a", "file:/srv/models/b"), model.distillation.teachers, "the caller's config is left alone");
    }

    @Test
    void aModelThatDoesNotDistilIsLeftAsItIs() {
        ModelConfig model = TestConfigs.model();
        model.distillation.selfTeachers = 3;   // ignored at weight 0: nothing is trained
        assertSame(model, resolve(model));
    }

    @Test
    void aSelfTeacherIsTheStudentWithItsChangesOnTheNextSeedsAndNoDistillation() {
        ModelConfig student = TestConfigs.model();
        student.dModel = 128;
        student.ffn = 256;
        student.ngramBuckets = 4096;
        student.optimizer.learningRate = 0.002;
        student.distillation.weight = 0.5;
        student.distillation.selfTeachers = 2;
        student.distillation.selfTeacherModel = Map.of("d_model", 64, "ffn", 128, "optimizer", Map.of("warmup_steps", 7));

        ModelConfig teacher = student.validated().selfTeacher(2);

        assertEquals(64, teacher.dModel);
        assertEquals(128, teacher.ffn);
        assertEquals(7, teacher.optimizer.warmupSteps, "a nested setting is changed");
        assertEquals(0.002, teacher.optimizer.learningRate, "and its neighbours kept");
        assertEquals(4096, teacher.ngramBuckets, "what is not changed is the student's");
        assertEquals(student.heads, teacher.heads);
        assertEquals(student.seed + 2, teacher.seed);
        assertTrue(!teacher.distillation.enabled() && teacher.distillation.selfTeachers == 0 && teacher.distillation.selfTeacherModel.isEmpty());
        assertEquals(128, student.dModel, "the student's config is left alone");
    }

    @Test
    void aWrongTeacherSettingIsNamedBeforeAnythingTrains() {
        ModelConfig student = TestConfigs.model();
        student.distillation.weight = 0.5;
        student.distillation.selfTeachers = 1;
        student.distillation.selfTeacherModel = Map.of("d_modle", 64);
        assertTrue(assertThrows(IllegalArgumentException.class, student::validated).getMessage().contains("unknown key 'd_modle'"));
        student.distillation.selfTeacherModel = Map.of("d_model", 66);   // 4 heads
        assertTrue(assertThrows(IllegalArgumentException.class, student::validated).getMessage()
                .contains("distillation.self_teacher_model: d_model 66 is not divisible by heads 4"));
        student.distillation.selfTeacherModel = Map.of("window", 8);
        assertTrue(assertThrows(IllegalArgumentException.class, student::validated).getMessage()
                .contains("self_teacher_model cannot change window"));
    }
}
