package org.langid.model.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.langid.model.TestConfigs;
import org.langid.model.artefact.ModelArtefact;
import org.langid.model.artefact.TestArtefacts;
import org.langid.model.graph.ModelConfig;
import org.langid.model.graph.ParameterLayout;
import org.langid.model.predict.LanguageDetector;
import org.langid.text.Alphabet;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** {@code train.distillation}: training targets that mix exported teachers' probabilities into the labels. */
class DistillationTest {

    @TempDir
    Path temp;

    /** Two windows of 16 symbols, the second padded. */
    private static final int[] SYMBOLS = new int[32];

    static {
        for (int i = 0; i < 16; i++) {
            SYMBOLS[i] = (7 * i + 3) % 68;
            SYMBOLS[16 + i] = i < 11 ? (5 * i + 20) % 68 : Alphabet.SEED.pad();
        }
    }

    private String teacher(long seed) {
        ModelConfig config = TestArtefacts.smallConfig();
        String dir = temp.resolve("teacher-" + seed).toString();
        TestArtefacts.create(config, TestArtefacts.parameters(config, seed), Instant.parse("2026-11-26T00:00:00Z"))
                .writeTo(dir, new Configuration());
        return dir;
    }

    private static TrainConfig student(double weight, List<String> teachers) {
        TrainConfig train = TestConfigs.training();
        train.optimizer.warmupSteps = 0;
        train.distillation.weight = weight;
        train.distillation.teachers = teachers;
        return train;
    }

    /** The student's parameters after three steps on the two windows with {@code labels}. */
    private static INDArray trained(TrainConfig train, int... labels) {
        ModelConfig config = TestArtefacts.smallConfig();
        TrainingState state = TrainingState.start(ParameterLayout.of(config).initialise(9, DataType.FLOAT));
        LocalSteps steps = new LocalSteps(config, train, state, 10);
        INDArray windows = Nd4j.createFromArray(SYMBOLS).reshape(2, 16).castTo(DataType.INT32);
        for (int i = 0; i < 3; i++) {
            steps.step(windows, Nd4j.createFromArray(labels).castTo(DataType.INT32));
        }
        return state.parameters;
    }

    @Test
    void theTeachersMeanProbabilitiesTemperedAreTheSoftTarget() {
        String first = teacher(1);
        String second = teacher(2);
        ModelConfig config = TestArtefacts.smallConfig();
        float[] p1;
        float[] p2;
        Configuration conf = new Configuration();
        char[] symbols = new char[SYMBOLS.length];
        for (int i = 0; i < symbols.length; i++) {
            symbols[i] = (char) SYMBOLS[i];
        }
        // The SameDiff graphs: another engine than the teacher's ONNX Runtime, for an independent reference.
        LanguageDetector.Options sameDiff = LanguageDetector.Options.defaults().withEngine(LanguageDetector.Engine.SAMEDIFF);
        try (LanguageDetector a = new LanguageDetector(ModelArtefact.load(first, conf), sameDiff);
             LanguageDetector b = new LanguageDetector(ModelArtefact.load(second, conf), sameDiff)) {
            p1 = a.windowProbabilities(symbols);
            p2 = b.windowProbabilities(symbols);
        }
        int c = config.classes();
        try (Teacher plain = new Teacher(List.of(first, second), config.languages, 16, 1);
             Teacher tempered = new Teacher(List.of(first, second), config.languages, 16, 2)) {
            double[] mean = plain.probabilities(SYMBOLS, 2);
            double[] soft = tempered.probabilities(SYMBOLS, 2);
            for (int row = 0; row < 2; row++) {
                double sum = 0;
                for (int k = 0; k < c; k++) {
                    sum += Math.sqrt((p1[row * c + k] + p2[row * c + k]) / 2);
                }
                for (int k = 0; k < c; k++) {
                    int i = row * c + k;
                    assertEquals((p1[i] + p2[i]) / 2, mean[i], 1e-5, "mean of the two engines' probabilities");
                    assertEquals(Math.sqrt((p1[i] + p2[i]) / 2) / sum, soft[i], 1e-5, "raised to 1/T and renormalised");
                }
            }
        }
    }

    @Test
    void withAllTheWeightOnTheTeacherTheLabelsNoLongerMatterAndWithHalfTheyDo() {
        List<String> teachers = List.of(teacher(1));
        assertArrayEquals(trained(student(1, teachers), 0, 1).toFloatVector(), trained(student(1, teachers), 5, 7).toFloatVector());
        assertFalse(trained(student(0.5, teachers), 0, 1).equals(trained(student(0.5, teachers), 5, 7)));
        assertFalse(trained(student(1, teachers), 0, 1).equals(trained(student(0, List.of()), 0, 1)), "the teacher moves training");
    }

    @Test
    void aTeacherOfOtherLanguagesOrNoTeacherIsAClearError() {
        String teacher = teacher(1);
        ModelConfig other = TestArtefacts.smallConfig();
        other.languages = List.of("en", "de", "fr", "es", "it", "pt", "nl", "da");
        IllegalArgumentException languages = assertThrows(IllegalArgumentException.class,
                () -> Teacher.of(other, student(0.5, List.of(teacher)).distillation));
        assertTrue(languages.getMessage().contains("has languages [en, de, fr, es, it, pt, nl, sv]"), languages.getMessage());

        TrainConfig none = student(0.5, List.of());
        none.distillation.selfTeachers = 2;
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> Teacher.of(TestArtefacts.smallConfig(), none.distillation));
        assertTrue(missing.getMessage().contains("lists no teachers"), missing.getMessage());
        none.distillation.selfTeachers = 0;
        assertTrue(String.join("; ", none.problems()).contains("distillation.weight 0.5 needs distillation.teachers or distillation.self_teachers"));
    }
}
