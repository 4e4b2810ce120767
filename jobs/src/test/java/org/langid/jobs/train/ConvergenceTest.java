package org.langid.jobs.train;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.pmod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.langid.jobs.SparkTestSession;
import org.langid.jobs.prepare.PrepareConfig;
import org.langid.jobs.prepare.PrepareJob;
import org.langid.model.graph.ModelConfig;
import org.langid.model.train.LocalTrainer;
import org.langid.model.train.TrainConfig;
import org.langid.model.TestConfigs;

/**
 * Training learns, and parameter averaging does not cost accuracy: 1 worker (the local trainer,
 * batch 256) and 2 workers (the Spark trainer, batch 128 each, averaging every 5 steps: the
 * defaults) train the default model for one epoch of the same windows, so both take about the
 * same number of steps at the same global batch and see every window once. The windows are half
 * of the committed sample's training sentences (those whose id is even: 526,331 windows, 2,056
 * steps of 256 against 2,050 rounds of 2 × 128), scored on a quarter of its validation sentences
 * (id 0 mod 4: 32,823 windows). Sentence ids are seeded hashes, so these are fair subsets.
 *
 * <p>Half an epoch of the sample is earlier in training than the README's full epoch (gap 0.49
 * points, the "within 1 point"), so the thresholds are this size's own. Validation
 * accuracy of 1 worker / 2 workers / gap in points, measured on 2 cores under Surefire with
 * OMP_NUM_THREADS=1 (the pom sets it, as ./langid does) on the plain nd4j-native build of
 * 1d0030b (before the oneDNN build; figures with it below), for the default train.seed 12345 and,
 * to see how far the figures move when only the initialisation and the order of the windows
 * change (as another BLAS or summation order would move them), for seeds 1 and 4:
 * <pre>
 *   seed 12345  0.8884 / 0.8754 / 1.30
 *   seed 1      0.8884 / 0.8819 / 0.65
 *   seed 4      0.8866 / 0.8840 / 0.26
 * </pre>
 * What fails it, measured the same way (seed 12345): 2 workers of batch 256 each, not halved (half
 * the sequential updates; the README table's first row): 0.8457, gap 4.27; averaging without
 * taking the workers' Adam moments back (each round restarts them from zero): 0.8337, gap 5.47;
 * keeping only one worker's parameters and moments each round: 0.8454, gap 4.30 (the last two
 * were mutations of AveragingTrainer, not kept). A trainer that stops learning stays near
 * chance (12.5%). Asserted: 1 worker at least 0.87 (measured 0.8866-0.8884), and 2 workers
 * within 2.5 points of it (the widest gap measured plus 1.2 points). On a quarter of the
 * training sentences (1,021 steps) the test took 3.3 minutes, but there the gap moved between
 * 1.4 and 3.7 points over five seeds and 1 worker between 0.80 and 0.83: too loose to catch a
 * loss of 2 points.
 *
 * <p>About 4.5 minutes on an idle 2-core machine with the oneDNN build (265 and 275 s: 1 worker
 * 0.8882-0.8884, 2 workers 0.8763-0.8764, gap 1.18-1.21 points; it was 17 minutes alone and
 * 23-25 in CI for an epoch of the whole sample):
 * {@code ./mvnw -B -pl model,jobs verify -Dtest=ConvergenceTest -Dsurefire.failIfNoSpecifiedTests=false}.
 * On the plain build it took 6 minutes idle (prepare 11 s, 1 worker 175-195 s, 2 workers
 * 137-143 s), 8 with another job on the cores.
 * The full-size comparison behind the README's 1-point claim is {@code bench/convergence.sh}.
 */
class ConvergenceTest {

    private static final Path SAMPLE = Path.of("..", "data", "sample", "libreoffice");
    /** Keeps the training sentences whose id is 0 mod this: half of them. */
    private static final int TRAIN_SUBSET = 2;
    /** Keeps the validation sentences whose id is 0 mod this: a quarter. */
    private static final int VALIDATION_SUBSET = 4;
    private static final double SINGLE_AT_LEAST = 0.87;
    private static final double GAP_AT_MOST = 0.025;

    @Test
    void twoWorkersReachTheAccuracyOfOneOnTheSameSamples(@TempDir Path temp) {
        assertTrue(Files.isDirectory(SAMPLE), "the committed sample corpus is at " + SAMPLE.toAbsolutePath());
        SparkSession spark = SparkTestSession.get();
        long started = System.nanoTime();
        String prepared = temp.resolve("prepared").toString();
        new PrepareJob(spark, new PrepareConfig()).run(List.of(SAMPLE.toString()), prepared, false);
        String subset = temp.resolve("subset").toString();
        for (String split : List.of("train", "validation")) {
            spark.read().parquet(prepared + "/windows/split=" + split)
                    .filter(pmod(col("sentence_id"), lit(split.equals("train") ? TRAIN_SUBSET : VALIDATION_SUBSET)).equalTo(0))
                    .write().parquet(subset + "/windows/split=" + split);
        }
        long trainingWindows = spark.read().parquet(subset + "/windows/split=train").count();
        System.out.printf("convergence: prepared, %d training windows, %.0f s%n", trainingWindows, seconds(started));
        ModelConfig model = TestConfigs.model();

        long oneStarted = System.nanoTime();
        TrainConfig oneWorker = TestConfigs.training();
        oneWorker.batchSize = 256;
        oneWorker.epochs = 1;
        oneWorker.logEverySeconds = 60;
        LocalTrainer.Result one = TrainJob.runLocal(spark, subset, temp.resolve("one").toString(), model, oneWorker);
        System.out.printf("convergence: 1 worker trained, %.0f s%n", seconds(oneStarted));

        long twoStarted = System.nanoTime();
        TrainConfig twoWorkers = TestConfigs.training();
        twoWorkers.batchSize = 128;
        twoWorkers.epochs = 1;
        twoWorkers.averagingFrequency = 5;
        twoWorkers.logEverySeconds = 60;
        LocalTrainer.Result two = TrainJob.runSpark(spark, subset, temp.resolve("two").toString(), model, twoWorkers, 2, false);
        System.out.printf("convergence: 2 workers trained, %.0f s%n", seconds(twoStarted));

        assertEquals((trainingWindows + 255) / 256, one.state().step, "1 worker: one epoch of the subset");
        long samplesOne = one.state().step * 256;
        long samplesTwo = two.state().step * 2 * 128;
        assertTrue(Math.abs(samplesOne - samplesTwo) <= 0.01 * samplesOne, "same samples: " + samplesOne + " and " + samplesTwo);
        double single = one.last().validation().accuracy();
        double averaged = two.last().validation().accuracy();
        System.out.printf("convergence: 1 worker %.4f, 2 workers %.4f, gap %.2f points, %.0f s in all%n",
                single, averaged, 100 * (single - averaged), seconds(started));
        assertTrue(single >= SINGLE_AT_LEAST, "1 worker learnt as measured (0.8866-0.8884): " + single);
        assertTrue(averaged >= single - GAP_AT_MOST, "2 workers " + averaged + " vs 1 worker " + single
                + ": averaging lost more than " + 100 * GAP_AT_MOST + " points (measured 0.26-1.30)");
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }
}
