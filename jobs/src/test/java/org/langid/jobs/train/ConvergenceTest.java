package org.langid.jobs.train;

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
 * samples: one epoch each, the default model. Each worker takes half the batch (128 of 256),
 * so both runs take the same number of steps at the same global batch; workers average every
 * 5 steps. Compared after a whole epoch, not early: after 1,500 steps the gap is 1.5 points
 * (85.7% against 84.2%), and it closes as training converges (README, convergence section).
 * About 17 minutes on 2 cores (23 in a full CI run): the slowest test, and the one the issue asks for.
 */
class ConvergenceTest {

    private static final Path SAMPLE = Path.of("..", "data", "sample", "libreoffice");

    @Test
    void twoWorkersReachTheAccuracyOfOneOnTheSameSamples(@TempDir Path temp) {
        assertTrue(Files.isDirectory(SAMPLE), "the committed sample corpus is at " + SAMPLE.toAbsolutePath());
        String prepared = temp.resolve("prepared").toString();
        new PrepareJob(SparkTestSession.get(), new PrepareConfig()).run(List.of(SAMPLE.toString()), prepared, false);
        ModelConfig model = new ModelConfig();

        TrainConfig oneWorker = new TrainConfig();
        oneWorker.batchSize = 256;
        oneWorker.epochs = 1;
        oneWorker.logEverySeconds = 60;
        LocalTrainer.Result one = TrainJob.runLocal(SparkTestSession.get(), prepared, temp.resolve("one").toString(), model, oneWorker);

        TrainConfig twoWorkers = new TrainConfig();
        twoWorkers.batchSize = 128;
        twoWorkers.epochs = 1;
        twoWorkers.averagingFrequency = 5;
        twoWorkers.logEverySeconds = 60;
        LocalTrainer.Result two = TrainJob.runSpark(SparkTestSession.get(), prepared, temp.resolve("two").toString(), model,
                twoWorkers, 2, false);

        long samplesOne = one.state().step * 256;
        long samplesTwo = two.state().step * 2 * 128;
        assertTrue(Math.abs(samplesOne - samplesTwo) <= 0.01 * samplesOne, "same samples: " + samplesOne + " and " + samplesTwo);
        double single = one.last().validation().accuracy();
        double averaged = two.last().validation().accuracy();
        System.out.printf("convergence: 1 worker %.4f, 2 workers %.4f%n", single, averaged);
        // Measured on 2 cores: 1 worker 0.9084, 2 workers 0.9035 through ./langid (one OpenMP thread);
        // 0.9064 and 0.9033 under Surefire (BLAS threads differ, so the summation order does).
        assertTrue(single > 0.88, "the single worker trained as measured: " + single);
        assertTrue(averaged >= single - 0.01, "2 workers " + averaged + " vs 1 worker " + single);
    }
}
