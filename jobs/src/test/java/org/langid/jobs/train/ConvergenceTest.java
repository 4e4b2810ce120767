package org.langid.jobs.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.langid.jobs.SparkTestSession;
import org.langid.jobs.prepare.PrepareConfig;
import org.langid.jobs.prepare.PrepareJob;
import org.langid.model.graph.ModelConfig;
import org.langid.model.train.LocalTrainer;
import org.langid.model.train.TrainConfig;

/**
 * Parameter averaging must not cost accuracy: on the committed sample corpus, 2 workers reach
 * a validation accuracy within 1 point of 1 worker (the local trainer) that saw the same
 * number of samples. Each worker takes half the batch, so both runs take the same number of
 * steps at the same global batch; workers average every 5 steps.
 */
class ConvergenceTest {

    private static final Path SAMPLE = Path.of("..", "data", "sample", "libreoffice");
    private static final int STEPS = 2000;

    @Test
    void twoWorkersReachTheAccuracyOfOneOnTheSameSamples(@TempDir Path temp) {
        assertTrue(Files.isDirectory(SAMPLE), "the committed sample corpus is at " + SAMPLE.toAbsolutePath());
        PrepareConfig prepare = new PrepareConfig();
        prepare.languages = List.of("en", "de", "fr", "es", "it", "pt", "nl", "sv");
        prepare.maxWindowsPerLanguage = 25_000;   // per split: 200k training windows, ≤ 200k validation
        String prepared = temp.resolve("prepared").toString();
        new PrepareJob(SparkTestSession.get(), prepare).run(List.of(SAMPLE.toString()), prepared, false);

        ModelConfig model = new ModelConfig();
        model.dModel = 32;
        model.heads = 2;
        model.layers = 1;
        model.ffn = 64;

        TrainConfig oneWorker = new TrainConfig();
        oneWorker.batchSize = 64;
        oneWorker.epochs = 10;
        oneWorker.maxSteps = STEPS;
        oneWorker.logEverySeconds = 60;
        LocalTrainer.Result one = TrainJob.runLocal(SparkTestSession.get(), prepared, temp.resolve("one").toString(), model, oneWorker);

        TrainConfig twoWorkers = new TrainConfig();
        twoWorkers.batchSize = 32;
        twoWorkers.epochs = 10;
        twoWorkers.maxSteps = STEPS;
        twoWorkers.averagingFrequency = 5;
        twoWorkers.logEverySeconds = 60;
        LocalTrainer.Result two = TrainJob.runSpark(SparkTestSession.get(), prepared, temp.resolve("two").toString(), model,
                twoWorkers, 2, false);

        assertEquals(STEPS, one.state().step);
        assertEquals(STEPS, two.state().step, "each worker took as many steps as the single worker");
        double single = one.last().validation().accuracy();
        double averaged = two.last().validation().accuracy();
        System.out.printf("convergence: 1 worker %.4f, 2 workers %.4f%n", single, averaged);
        // Measured: see the README's convergence section (deterministic for a given machine's BLAS).
        assertTrue(single > 0.6, "the single worker learned something: " + single);
        assertTrue(averaged >= single - 0.01, "2 workers " + averaged + " vs 1 worker " + single);
    }
}
