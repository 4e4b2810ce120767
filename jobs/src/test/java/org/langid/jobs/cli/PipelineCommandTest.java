package org.langid.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.langid.jobs.prepare.PrepareConfig;
import org.langid.model.train.TrainConfig;
import org.langid.model.TestConfigs;

/**
 * {@code langid pipeline}'s inputs (the committed sample's training sources and check sets) and the train
 * stage's line, which tells a user how the model is distilled.
 */
class PipelineCommandTest {

    private static final Path HOME = Path.of("..").toAbsolutePath().normalize();

    /** Sentences (lines) of a sample file, 0 when there is none. */
    private static long lines(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return 0;
        }
        try (var lines = Files.lines(file)) {
            return lines.count();
        }
    }

    /**
     * The default run covers every language of its profile: each of the model's languages has training
     * text in the sample's training sources and a UDHR check set, each of the und class's languages has
     * training text, and the games check set holds languages of both kinds.
     */
    @Test
    void theCommittedSampleCoversEveryLanguageOfThePipelinesProfile() throws IOException {
        PrepareConfig prepare = ProfileOptions.read(HOME.resolve(ProfileOptions.PIPELINE_PROFILE).toString(), new Configuration())
                .section("prepare", PrepareConfig.class);
        assertEquals(82, prepare.languages.size());
        assertEquals(29, prepare.otherLanguages.size());
        List<String> missing = new ArrayList<>();
        for (String language : prepare.languages) {
            long training = 0;
            for (String source : PipelineCommand.SAMPLE_TRAINING) {
                training += lines(HOME.resolve(PipelineCommand.SAMPLE + source).resolve(language + ".txt"));
            }
            if (training < 500) {
                missing.add(language + ": " + training + " training sentences");
            }
            if (lines(HOME.resolve(PipelineCommand.SAMPLE_CHECKS.get("udhr").get(0)).resolve(language + ".txt")) < 30) {
                missing.add(language + ": no UDHR");
            }
        }
        for (String language : prepare.otherLanguages) {
            long training = 0;
            for (String source : PipelineCommand.SAMPLE_TRAINING) {
                training += lines(HOME.resolve(PipelineCommand.SAMPLE + source).resolve(language + ".txt"));
            }
            if (training < 100) {
                missing.add(language + " (und): " + training + " training sentences");
            }
        }
        assertEquals(List.of(), missing);
        assertEquals(List.of("udhr", "games"), List.copyOf(PipelineCommand.SAMPLE_CHECKS.keySet()));
        long gamesLanguages = prepare.languages.stream().filter(language -> PipelineCommand.SAMPLE_CHECKS.get("games").stream()
                .anyMatch(dir -> Files.isRegularFile(HOME.resolve(dir).resolve(language + ".txt")))).count();
        assertTrue(gamesLanguages >= 50, gamesLanguages + " of the model's languages in the games check set");
    }

    @Test
    void checkSetsAreNamedInputsARepeatedNameGainingOne() {
        Map<String, List<String>> checks = PipelineCommand.checks(List.of("udhr=u", "games=a", "games=b", "x=c"), "d/");
        assertEquals(List.of("udhr", "games", "x"), List.copyOf(checks.keySet()));
        assertEquals(List.of("d/a", "d/b"), checks.get("games"));
        assertEquals(List.of("d/u"), checks.get("udhr"));
        for (String bad : new String[] {"udhr", "=path", "name=", "a b=path"}) {
            assertThrows(IllegalArgumentException.class, () -> PipelineCommand.checks(List.of(bad), ""), bad);
        }
    }

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
