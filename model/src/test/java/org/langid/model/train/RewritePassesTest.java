package org.langid.model.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.langid.model.graph.ModelConfig;
import org.langid.model.graph.ParameterLayout;
import org.langid.model.train.trace.passes.Rewrites;
import org.langid.text.Alphabet;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Every rewrite pass fires on the default model's training step. A pass matches a pattern of the
 * graph that LanguageIdGraph builds (each named there); when a change to the graph breaks the
 * pattern, the pass stops firing and training gets slower without any other test failing.
 */
class RewritePassesTest {

    @Test
    void everyPassFiresOnTheDefaultModelsStep() {
        // The defaults' graph (the release's shape), its n-gram table small: the table is an input of the step, not part of its graph.
        ModelConfig config = new ModelConfig();
        config.ngramBuckets = 4096;
        TrainConfig train = new TrainConfig();
        LocalSteps steps = new LocalSteps(config, train, TrainingState.start(ParameterLayout.of(config).initialise(train.seed, DataType.FLOAT)), 10,
                CaseAugmentation.NONE, StepOptions.replay(Rewrites.DEFAULT.withKernels(Rewrites.Kernels.EVERYWHERE)));
        Random random = new Random(3);
        int rows = 8;
        int[][] windows = new int[rows][config.window];
        int[] labels = new int[rows];
        for (int row = 0; row < rows; row++) {
            int real = 4 + random.nextInt(config.window - 3);   // some windows padded at the end
            for (int j = 0; j < config.window; j++) {
                windows[row][j] = j < real ? random.nextInt(Alphabet.SEED.pad()) : Alphabet.SEED.pad();
            }
            labels[row] = random.nextInt(config.classes());
        }
        steps.step(Nd4j.createFromArray(windows), Nd4j.createFromArray(labels));

        assertEquals(Set.of(rows), steps.replayedBatchSizes(), "the step was recorded and replayed");
        Map<Rewrites.Pass, Integer> changed = steps.lastRewrites();
        for (Rewrites.Pass pass : Rewrites.Pass.values()) {
            assertTrue(changed.getOrDefault(pass, 0) > 0, pass + " changed no call of the default model's step: the graph no longer has "
                    + "the pattern it matches (see where LanguageIdGraph builds it); calls each pass changed: " + changed);
        }
    }
}
