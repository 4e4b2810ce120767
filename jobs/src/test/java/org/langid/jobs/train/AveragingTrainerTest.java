package org.langid.jobs.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;
import org.langid.jobs.SparkTestSession;
import org.langid.model.TestConfigs;
import org.langid.model.graph.ModelConfig;
import org.langid.model.graph.ParameterLayout;
import org.langid.model.train.LabelledWindows;
import org.langid.model.train.LocalSteps;
import org.langid.model.train.LocalTrainer;
import org.langid.model.train.Shuffle;
import org.langid.model.train.TrainConfig;
import org.langid.model.train.TrainingState;
import org.langid.text.Alphabet;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

class AveragingTrainerTest {

    private static final List<String> LANGUAGES = List.of("en", "de", "fr");
    private final JavaSparkContext spark = JavaSparkContext.fromSparkContext(SparkTestSession.get().sparkContext());

    private static ModelConfig model() {
        ModelConfig config = TestConfigs.model();
        config.languages = LANGUAGES;
        config.dModel = 16;
        config.heads = 2;
        config.layers = 1;
        config.ffn = 32;
        return config;
    }

    private static TrainConfig training() {
        TrainConfig train = TestConfigs.training();
        train.optimizer.warmupSteps = 2;
        return train;
    }

    private static WorkerShard shard(int worker, int size, long seed) {
        return WorkerShard.of(worker, LabelledWindows.random(size, 16, LANGUAGES, seed));
    }

    private static TrainingState start(ModelConfig model) {
        return TrainingState.start(ParameterLayout.of(model).initialise(training().seed, DataType.FLOAT));
    }

    /** Two workers' results are added on the driver; six workers' by treeAggregate on the executors first (RoundJobs). */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(ints = {2, 6})
    void workersAverageToTheMeanOfEachWorkersOwnSteps(int workers) {
        assertEquals(workers > 5, RoundJobs.treeAddsALevel(workers), "the case this count is meant to cover");
        ModelConfig model = model();
        TrainConfig train = training();
        train.batchSize = 16;
        train.averagingFrequency = 3;
        train.maxSteps = 3;
        List<WorkerShard> data = new java.util.ArrayList<>();
        for (int w = 0; w < workers; w++) {
            data.add(shard(w, 100, w + 1));
        }
        JavaRDD<WorkerShard> shards = spark.parallelize(data, workers).cache();
        TrainingState initial = start(model);

        TrainingState averaged = new AveragingTrainer(model, train).fit(spark, shards, initial.copy(), data.get(0).windows(LANGUAGES)).state();

        float[][] parameters = new float[workers][];
        float[][] moments = new float[workers][];
        int i = 0;
        for (WorkerShard shard : data) {
            TrainingState alone = initial.copy();
            LocalSteps steps = new LocalSteps(model, train, alone, 3);
            int[] order = AveragingRound.order(shard, train.seed, 0);
            for (int k = 0; k < 3; k++) {
                steps.step(shard.windows(LANGUAGES), order, k * 16, (k + 1) * 16);
            }
            parameters[i] = alone.parameters.toFloatVector();
            moments[i++] = alone.updaterState.toFloatVector();
        }
        assertArrayEquals(mean(parameters), averaged.parameters.toFloatVector(), 1e-6f);
        assertArrayEquals(mean(moments), averaged.updaterState.toFloatVector(), 1e-6f);
        assertEquals(3, averaged.step, "each worker took 3 steps; the averaged state is 3 steps on");
    }

    @Test
    void eachWorkerVisitsItsShardInTheEpochsOrderComputedOncePerEpoch() {
        WorkerShard first = shard(0, 500, 1);
        WorkerShard second = shard(1, 500, 2);
        long seed = 12345;
        int[] epoch0 = AveragingRound.order(first, seed, 0);
        assertArrayEquals(Shuffle.permutation(500, seed, 0), epoch0, "worker 0, epoch 0");
        assertTrue(epoch0 == AveragingRound.order(first, seed, 0), "later rounds of the epoch reuse the order");
        assertArrayEquals(Shuffle.permutation(500, seed + 7919, 0), AveragingRound.order(second, seed, 0),
                "worker 1 has its own order");
        int[] epoch1 = AveragingRound.order(first, seed, 1);
        assertArrayEquals(Shuffle.permutation(500, seed, 1), epoch1, "a new epoch, a new order");
        assertFalse(Arrays.equals(epoch0, epoch1));
        assertArrayEquals(Shuffle.permutation(400, seed, 1), AveragingRound.order(shard(0, 400, 3), seed, 1),
                "a shard of another size is not served a stale order");
    }

    @Test
    void oneWorkerAveragingEveryStepIsTheLocalTrainer() {
        ModelConfig model = model();
        TrainConfig train = training();
        train.batchSize = 16;
        train.averagingFrequency = 1;
        train.maxSteps = 6;
        OneWorker run = oneWorkerAndLocal(model, train, shard(0, 120, 3));

        assertEquals(run.local().step, run.viaSpark().step);
        assertArrayEquals(run.local().parameters.toFloatVector(), run.viaSpark().parameters.toFloatVector(), 1e-6f);
        assertArrayEquals(run.local().updaterState.toFloatVector(), run.viaSpark().updaterState.toFloatVector(), 1e-6f);
    }

    /**
     * The weight average is the same in both trainers (updated after each round, or every
     * averaging_frequency steps locally, and at an epoch's end), and what the run ends with; one
     * pass and a half, so that an epoch's last round is short.
     */
    @Test
    void oneWorkerWithTheWeightAverageEndsWithTheLocalTrainersAverage() {
        ModelConfig model = model();
        TrainConfig train = training();
        train.batchSize = 16;
        train.averagingFrequency = 3;
        train.epochs = 2;
        train.maxSteps = 12;                    // 120 windows: 8 steps an epoch, rounds of 3, 3 and 2, then 3 and 1
        TrainingState last = oneWorkerAndLocal(model, train, shard(0, 120, 3)).viaSpark();
        train.emaSpan = 0.5;
        OneWorker run = oneWorkerAndLocal(model, train, shard(0, 120, 3));

        assertEquals(run.local().step, run.viaSpark().step);
        assertArrayEquals(run.local().parameters.toFloatVector(), run.viaSpark().parameters.toFloatVector(), 1e-6f);
        assertEquals(null, run.viaSpark().average, "the average became the parameters");
        double distance = org.nd4j.linalg.ops.transforms.Transforms.abs(run.viaSpark().parameters.sub(last.parameters)).maxNumber().doubleValue();
        assertTrue(distance > 1e-4, "the run ends with the average, not its last step's parameters: " + distance);
        assertArrayEquals(last.updaterState.toFloatVector(), run.viaSpark().updaterState.toFloatVector(), 1e-6f,
                "the average changes what is exported, not the steps");
    }

    /** The end states of one Spark worker and of the local trainer, each from {@code model}'s start over {@code everything}. */
    private record OneWorker(TrainingState viaSpark, TrainingState local) {
    }

    private OneWorker oneWorkerAndLocal(ModelConfig model, TrainConfig train, WorkerShard everything) {
        LabelledWindows windows = everything.windows(LANGUAGES);
        TrainingState viaSpark = new AveragingTrainer(model, train)
                .fit(spark, spark.parallelize(List.of(everything), 1).cache(), start(model), windows).state();
        return new OneWorker(viaSpark, new LocalTrainer(model, train).fit(start(model), windows, windows).state());
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"lazy", "sgd"})
    void oneWorkerWithSparseTableUpdatesIsTheLocalTrainerWhateverTheAveragingFrequency(String updates) {
        ModelConfig model = ngramModel();
        TrainConfig train = training(updates);
        train.batchSize = 8;
        train.averagingFrequency = 3;
        train.maxSteps = 10;
        OneWorker run = oneWorkerAndLocal(model, train, shard(0, 100, 4));

        assertEquals(10, run.viaSpark().step);
        assertArrayEquals(run.local().parameters.toFloatVector(), run.viaSpark().parameters.toFloatVector(), 0f);
        assertArrayEquals(run.local().updaterState.toFloatVector(), run.viaSpark().updaterState.toFloatVector(), 0f);
    }

    /** A lone worker's rounds, several to a Spark job, end bit for bit where one round a job ends. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"dense", "sgd"})
    void aLoneWorkersRoundsTakenSeveralToAJobEndWhereOneRoundAJobEnds(String table) {
        ModelConfig model = "dense".equals(table) ? model() : ngramModel();
        TrainConfig train = training(table);
        train.batchSize = 8;
        train.averagingFrequency = 2;
        train.maxSteps = 12;
        train.caseAugmentation = 0.3;   // drawn per step, not per job
        JavaRDD<WorkerShard> shards = spark.parallelize(List.of(shard(0, 100, 4)), 1).cache();
        LabelledWindows validation = shard(0, 100, 4).windows(LANGUAGES);
        List<Integer> jobsEndingAt = new java.util.ArrayList<>();
        AveragingTrainer.Listener jobs = new AveragingTrainer.Listener() {
            @Override
            public void round(int epoch, int round, int rounds, long step, double loss, long samples, double seconds) {
                jobsEndingAt.add(round);
            }
        };

        TrainingState merged = new AveragingTrainer(model, train).fit(spark, shards, start(model), validation, jobs).state();
        int mergedJobs = jobsEndingAt.size();
        jobsEndingAt.clear();
        TrainingState oneByOne = new AveragingTrainer(model, train).withLoneWorkerJobSeconds(0)
                .fit(spark, shards, start(model), validation, jobs).state();

        assertEquals(List.of(0, 1, 2, 3, 4, 5), jobsEndingAt, "one round a job");
        assertTrue(mergedJobs < 6, "rounds of milliseconds, several to a job: " + mergedJobs + " jobs");
        assertEquals(12, merged.step);
        assertArrayEquals(oneByOne.parameters.toFloatVector(), merged.parameters.toFloatVector(), 0f);
        assertArrayEquals(oneByOne.updaterState.toFloatVector(), merged.updaterState.toFloatVector(), 0f);
    }

    /** A lone worker is not sent back its own changes; one whose replica was lost gets the full state. */
    @Test
    void aLoneWorkerThatLostItsReplicaGetsTheFullStateAndEndsWhereTheLocalTrainerEnds() {
        ModelConfig model = ngramModel();
        TrainConfig train = training("sgd");
        train.batchSize = 8;
        train.averagingFrequency = 2;
        train.maxSteps = 10;
        java.util.concurrent.atomic.AtomicInteger dropped = new java.util.concurrent.atomic.AtomicInteger();
        AveragingRound.beforeRoundForTests = (worker, step) -> {
            if (step > 0 && dropped.getAndIncrement() == 0) {
                ResidentRound.dropReplicasForTests();                 // as if the executor had been replaced
            }
        };
        OneWorker run;
        try {
            run = oneWorkerAndLocal(model, train, shard(0, 100, 4));
        } finally {
            AveragingRound.beforeRoundForTests = null;
        }

        assertEquals(2, dropped.get(), "the second job ran, found no replica, and ran again on the full state");
        assertArrayEquals(run.local().parameters.toFloatVector(), run.viaSpark().parameters.toFloatVector(), 0f);
        assertArrayEquals(run.local().updaterState.toFloatVector(), run.viaSpark().updaterState.toFloatVector(), 0f);
    }

    @Test
    void aTaskThatFailsOnceIsRetriedAndTheRunEndsAsAnUndisturbedOne() {
        ModelConfig model = model();
        TrainConfig train = training();
        train.batchSize = 16;
        train.averagingFrequency = 2;
        train.maxSteps = 6;
        // The retried task must draw the same case-changed windows as the first attempt.
        train.caseAugmentation = 0.3;
        List<WorkerShard> data = List.of(shard(0, 80, 4), shard(1, 80, 5));
        TrainingState undisturbed = new AveragingTrainer(model, train)
                .fit(spark, spark.parallelize(data, 2).cache(), start(model), data.get(0).windows(LANGUAGES)).state();

        java.util.concurrent.atomic.AtomicInteger failures = new java.util.concurrent.atomic.AtomicInteger();
        AveragingRound.beforeRoundForTests = (worker, step) -> {
            if (worker == 1 && step == 2 && failures.getAndIncrement() == 0) {
                throw new IllegalStateException("injected: worker 1 lost in the round from step 2");
            }
        };
        TrainingState disturbed;
        try {
            disturbed = new AveragingTrainer(model, train)
                    .fit(spark, spark.parallelize(data, 2).cache(), start(model), data.get(0).windows(LANGUAGES)).state();
        } finally {
            AveragingRound.beforeRoundForTests = null;
        }
        assertEquals(2, failures.get(), "the hook ran twice for that task: the failure and Spark's retry");
        assertEquals(undisturbed.step, disturbed.step);
        assertArrayEquals(undisturbed.parameters.toFloatVector(), disturbed.parameters.toFloatVector(), 0f);
        assertArrayEquals(undisturbed.updaterState.toFloatVector(), disturbed.updaterState.toFloatVector(), 0f);

        train.caseAugmentation = 0;
        TrainingState plain = new AveragingTrainer(model, train)
                .fit(spark, spark.parallelize(data, 2).cache(), start(model), data.get(0).windows(LANGUAGES)).state();
        assertFalse(Arrays.equals(plain.parameters.toFloatVector(), undisturbed.parameters.toFloatVector()),
                "the augmentation reached the workers' minibatches");
    }

    @Test
    void shardsAreBuiltFromPreparedWindowsDeterministically(@org.junit.jupiter.api.io.TempDir java.nio.file.Path temp) throws Exception {
        java.nio.file.Path corpus = temp.resolve("corpus");
        java.nio.file.Files.createDirectories(corpus);
        for (String language : LANGUAGES) {
            List<String> lines = new java.util.ArrayList<>();
            for (int i = 0; i < 40; i++) {
                lines.add("Sentence " + i + " in the " + language + " file, long enough for windows.");
            }
            java.nio.file.Files.write(corpus.resolve(language + ".txt"), lines);
        }
        String prepared = temp.resolve("prepared").toString();
        new org.langid.jobs.prepare.PrepareJob(SparkTestSession.get(), new org.langid.jobs.prepare.PrepareConfig())
                .run(List.of(corpus.toString()), prepared, false);
        List<WorkerShard> first = Shards.of(SparkTestSession.get(), prepared, 2, LANGUAGES, 16, Alphabet.SEED).collect();
        List<WorkerShard> second = Shards.of(SparkTestSession.get(), prepared, 2, LANGUAGES, 16, Alphabet.SEED).collect();
        assertEquals(2, first.size());
        long windows = SparkTestSession.get().read().parquet(prepared + "/windows/split=train").count();
        assertEquals(windows, first.get(0).size() + first.get(1).size(), "every training window is in exactly one shard");
        for (int w = 0; w < 2; w++) {
            assertEquals(w, first.get(w).worker());
            assertArrayEquals(first.get(w).symbols(), second.get(w).symbols());
            assertArrayEquals(first.get(w).labels(), second.get(w).labels());
        }
    }

    /** With the weight average too: a checkpoint carries it, and the resumed run exports the same average. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(doubles = {0, 0.5})
    void resumingFromACheckpointMadeWithinAnEpochEndsWhereAnUninterruptedRunEnds(double emaSpan, @org.junit.jupiter.api.io.TempDir java.nio.file.Path temp)
            throws Exception {
        ModelConfig model = model();
        TrainConfig train = training();
        train.emaSpan = emaSpan;
        train.batchSize = 16;
        train.averagingFrequency = 2;
        train.epochs = 2;                       // 96 windows a worker: 6 steps an epoch, 3 rounds of 2
        train.checkpointEveryMinutes = 1e-9;    // after every round that does not end an epoch
        List<WorkerShard> data = List.of(shard(0, 96, 8), shard(1, 96, 9));
        LabelledWindows validation = data.get(0).windows(LANGUAGES);
        TrainingState uninterrupted = new AveragingTrainer(model, train)
                .fit(spark, spark.parallelize(data, 2).cache(), start(model), validation).state();

        java.nio.file.Path root = temp.resolve("checkpoints");
        Checkpoints checkpoints = new Checkpoints(root.toString(), new org.apache.hadoop.conf.Configuration());
        Checkpoints.Identity identity = new Checkpoints.Identity(org.langid.model.config.ConfigTree.toJson(model),
                org.langid.model.config.ConfigTree.toJson(train), "sha256:test");
        AveragingTrainer.Listener saving = saving(checkpoints, identity);
        stopsAtStep(10, model, train, data, validation, saving);
        try (var names = java.nio.file.Files.list(root)) {
            assertEquals(List.of("epoch-0001", "epoch-0001-step-0000000010"),
                    names.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith(".")).sorted().toList(),
                    "the epoch's end and the newest checkpoint within epoch 2; the older ones within an epoch are gone");
        }
        TrainingState restored = checkpoints.latest(identity).orElseThrow();
        assertEquals(1, restored.epoch);
        assertEquals(10, restored.step);
        assertEquals(emaSpan > 0, restored.average != null, "the checkpoint holds the average when the run keeps one");
        TrainingState resumed = new AveragingTrainer(model, train)
                .fit(spark, spark.parallelize(data, 2).cache(), restored, validation, saving).state();

        assertEquals(uninterrupted.step, resumed.step);
        assertEquals(2, resumed.epoch);
        assertArrayEquals(uninterrupted.parameters.toFloatVector(), resumed.parameters.toFloatVector(), 0f);
        assertArrayEquals(uninterrupted.updaterState.toFloatVector(), resumed.updaterState.toFloatVector(), 0f);
    }

    @Test
    void aStateThatNoRoundStartsAtIsRefused() {
        TrainingState odd = new TrainingState(Nd4j.zeros(DataType.FLOAT, 4), Nd4j.zeros(DataType.FLOAT, 8), 7, 1);
        IllegalArgumentException refused = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> AveragingTrainer.firstRound(odd, 6, 2));
        assertTrue(refused.getMessage().contains("step 7 of epoch 2"), refused.getMessage());
        assertEquals(2, AveragingTrainer.firstRound(new TrainingState(Nd4j.zeros(DataType.FLOAT, 4), Nd4j.zeros(DataType.FLOAT, 8), 10, 1), 6, 2));
    }

    @Test
    void resumingFromTheLatestCheckpointEndsWhereAnUninterruptedRunEnds(@org.junit.jupiter.api.io.TempDir java.nio.file.Path temp) {
        ModelConfig model = model();
        TrainConfig train = training();
        train.batchSize = 16;
        train.averagingFrequency = 2;
        train.epochs = 3;                       // 48 windows a worker: 3 steps an epoch, in rounds of 2 and 1
        List<WorkerShard> data = List.of(shard(0, 48, 6), shard(1, 48, 7));
        LabelledWindows validation = data.get(0).windows(LANGUAGES);
        TrainingState uninterrupted = new AveragingTrainer(model, train)
                .fit(spark, spark.parallelize(data, 2).cache(), start(model), validation).state();

        Checkpoints checkpoints = new Checkpoints(temp.resolve("checkpoints").toString(), new org.apache.hadoop.conf.Configuration());
        Checkpoints.Identity identity = new Checkpoints.Identity(org.langid.model.config.ConfigTree.toJson(model),
                org.langid.model.config.ConfigTree.toJson(train), "sha256:test");
        AveragingTrainer.Listener saving = saving(checkpoints, identity);
        stopsAtStep(6, model, train, data, validation, saving);
        TrainingState restored = checkpoints.latest(identity).orElseThrow();
        assertEquals(2, restored.epoch);
        assertEquals(6, restored.step);
        TrainingState resumed = new AveragingTrainer(model, train)
                .fit(spark, spark.parallelize(data, 2).cache(), restored, validation, saving).state();

        assertEquals(uninterrupted.step, resumed.step);
        assertEquals(3, resumed.epoch);
        assertArrayEquals(uninterrupted.parameters.toFloatVector(), resumed.parameters.toFloatVector(), 0f);
        assertArrayEquals(uninterrupted.updaterState.toFloatVector(), resumed.updaterState.toFloatVector(), 0f);

        Checkpoints.Identity otherData = new Checkpoints.Identity(identity.model(), identity.train(), "sha256:other");
        IllegalArgumentException refused = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> checkpoints.latest(otherData));
        org.junit.jupiter.api.Assertions.assertTrue(refused.getMessage().contains("was made from other training data"), refused.getMessage());
    }

    @Test
    void validationOnTheWorkersCountsWhatValidationOnTheDriverCounts() {
        ModelConfig model = model();
        WorkerShard first = shard(0, 70, 8);
        WorkerShard second = shard(1, 50, 9);
        char[] symbols = new char[(70 + 50) * 16];
        System.arraycopy(first.symbols(), 0, symbols, 0, first.symbols().length);
        System.arraycopy(second.symbols(), 0, symbols, first.symbols().length, second.symbols().length);
        int[] labels = java.util.stream.IntStream.concat(java.util.Arrays.stream(first.labels()), java.util.Arrays.stream(second.labels())).toArray();
        TrainingState state = start(model);
        var onDriver = AveragingTrainer.onDriver(model, new LabelledWindows(symbols, labels, 16, LANGUAGES), 32).evaluate(state);
        var onWorkers = AveragingTrainer.distributed(spark, spark.parallelize(List.of(first, second), 2), model, 32).evaluate(state);
        assertEquals(120, onWorkers.windows());
        assertEquals(onDriver.correct(), onWorkers.correct());
        // Float32 probabilities from differently composed batches: equal to float precision, not bit for bit.
        assertEquals(onDriver.meanLoss(), onWorkers.meanLoss(), 1e-6);
    }

    @Test
    void aSimulatedRoundWaitsItsStepsAndPassesTheStateThroughUnchanged() {
        ModelConfig model = model();
        TrainConfig train = training();
        train.batchSize = 64;
        train.averagingFrequency = 4;
        JavaRDD<WorkerShard> shards = spark.parallelize(List.of(shard(0, 10, 1), shard(1, 10, 2)), 2).cache();
        TrainingState state = start(model);
        float[] before = state.parameters.toFloatVector();

        long started = System.nanoTime();
        AveragingRound.Sum sum = new AveragingTrainer(model, train).simulatingSteps(0.025).round(spark, shards, state, 0, 1, 4, 100);
        double seconds = (System.nanoTime() - started) / 1e9;

        assertTrue(seconds >= 4 * 0.025, "4 steps of 25 ms each, took " + seconds + " s");
        assertArrayEquals(before, state.parameters.toFloatVector());
        assertEquals(2, sum.workers());
        assertEquals(2 * 4 * 64, sum.samples(), "each worker accounts for its steps' batches");
        assertEquals(4, state.step);
    }

    /**
     * A small model with an n-gram table whose rows Adam updates only where a minibatch selected
     * them; large enough that a round's minibatches (at most 2 x 8 x 16 x 2 n-grams) leave most
     * rows alone and change many in one worker only.
     */
    private static ModelConfig ngramModel() {
        ModelConfig config = model();
        config.ngramBuckets = 4096;
        config.ngramMaxOrder = 3;
        return config;
    }

    /** Training with {@code updates} (dense or lazy: Adam; sgd: plain SGD) on the table's selected rows. */
    private static TrainConfig training(String updates) {
        TrainConfig train = training();
        train.optimizer.ngramUpdates = updates;
        train.optimizer.ngramLearningRate = "sgd".equals(updates) ? 5 : 0;
        return train;
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"lazy", "sgd"})
    void withSparseTableUpdatesRoundsThatMoveOnlyChangedRowsEndBitForBitWhereFullRoundsEnd(String updates) {
        ModelConfig model = ngramModel();
        TrainConfig train = training(updates);
        train.batchSize = 8;
        train.averagingFrequency = 2;
        train.maxSteps = 8;
        WorkerShard first = shard(0, 100, 1);
        WorkerShard second = shard(1, 100, 2);
        JavaRDD<WorkerShard> shards = spark.parallelize(List.of(first, second), 2).cache();
        LabelledWindows validation = first.windows(LANGUAGES);

        TrainingState resident = new AveragingTrainer(model, train).fit(spark, shards, start(model), validation).state();
        TrainingState full = new AveragingTrainer(model, train).exchangingFullState().fit(spark, shards, start(model), validation).state();

        assertEquals(8, resident.step);
        assertArrayEquals(full.parameters.toFloatVector(), resident.parameters.toFloatVector(), 0f);
        assertArrayEquals(full.updaterState.toFloatVector(), resident.updaterState.toFloatVector(), 0f);
        assertFalse(Arrays.equals(start(model).parameters.toFloatVector(), resident.parameters.toFloatVector()), "training moved");
    }

    private static TrainConfig eightStepsAveragingEveryTwo(String updates) {
        TrainConfig train = training(updates);
        train.batchSize = 8;
        train.averagingFrequency = 2;
        train.maxSteps = 8;
        return train;
    }

    /** In local mode a round's input and results pass by reference (RoundJobs); Spark's serialized path must end the same. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"resident", "full"})
    void roundsInTheDriversJvmEndBitForBitWhereRoundsThroughSparksSerializationEnd(String rounds) {
        ModelConfig model = ngramModel();
        TrainConfig train = eightStepsAveragingEveryTwo("lazy");
        JavaRDD<WorkerShard> shards = spark.parallelize(List.of(shard(0, 100, 1), shard(1, 100, 2)), 2).cache();
        LabelledWindows validation = shard(0, 100, 1).windows(LANGUAGES);
        java.util.function.Supplier<AveragingTrainer> trainer = () -> "full".equals(rounds)
                ? new AveragingTrainer(model, train).exchangingFullState() : new AveragingTrainer(model, train);

        long inProcessJobs = RoundJobs.inProcessJobsForTests();
        TrainingState serialized = trainer.get().throughSerialization().fit(spark, shards, start(model), validation).state();
        assertEquals(inProcessJobs, RoundJobs.inProcessJobsForTests(), "switched off, no round passes by reference");
        TrainingState byReference = trainer.get().fit(spark, shards, start(model), validation).state();

        assertEquals(4, RoundJobs.inProcessJobsForTests() - inProcessJobs, "each of the four rounds passed by reference");
        assertTrue(RoundJobs.inProcessHandoversReleasedForTests(), "no input or result left behind");
        assertEquals(8, byReference.step);
        assertArrayEquals(serialized.parameters.toFloatVector(), byReference.parameters.toFloatVector(), 0f);
        assertArrayEquals(serialized.updaterState.toFloatVector(), byReference.updaterState.toFloatVector(), 0f);
        assertFalse(Arrays.equals(start(model).parameters.toFloatVector(), byReference.parameters.toFloatVector()), "training moved");
    }

    @Test
    void aWorkerWithoutAReplicaOfTheLastRoundGetsTheFullStateAndTheRunEndsAsAnUndisturbedOne() {
        ModelConfig model = ngramModel();
        TrainConfig train = eightStepsAveragingEveryTwo("lazy");
        JavaRDD<WorkerShard> shards = spark.parallelize(List.of(shard(0, 100, 1), shard(1, 100, 2)), 2).cache();
        LabelledWindows validation = shard(0, 100, 1).windows(LANGUAGES);
        TrainingState undisturbed = new AveragingTrainer(model, train).fit(spark, shards, start(model), validation).state();

        java.util.concurrent.atomic.AtomicInteger dropped = new java.util.concurrent.atomic.AtomicInteger();
        AveragingRound.beforeRoundForTests = (worker, step) -> {
            if (step == 4 && dropped.getAndIncrement() == 0) {
                ResidentRound.dropReplicasForTests();                 // as if the executor had been replaced
            }
        };
        TrainingState disturbed;
        try {
            disturbed = new AveragingTrainer(model, train).fit(spark, shards, start(model), validation).state();
        } finally {
            AveragingRound.beforeRoundForTests = null;
        }

        assertTrue(dropped.get() >= 3, "the round at step 4 ran (2 tasks), then again for the workers without a replica: " + dropped.get());
        assertEquals(undisturbed.step, disturbed.step);
        assertArrayEquals(undisturbed.parameters.toFloatVector(), disturbed.parameters.toFloatVector(), 0f);
        assertArrayEquals(undisturbed.updaterState.toFloatVector(), disturbed.updaterState.toFloatVector(), 0f);
    }

    /**
     * A worker that changed most of the table sends all of it (ResidentRound.Table); whichever form
     * each worker sends, the round must end bit for bit alike. Three workers, so that rows changed by
     * some workers and not others take their old value in the average.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"lazy", "sgd"})
    void workersThatSendTheirWholeTableEndBitForBitWhereWorkersThatSendChangedRowsEnd(String updates) {
        ModelConfig model = ngramModel();
        TrainConfig train = eightStepsAveragingEveryTwo(updates);
        JavaRDD<WorkerShard> shards = spark.parallelize(List.of(shard(0, 100, 1), shard(1, 100, 2), shard(2, 100, 3)), 3).cache();
        LabelledWindows validation = shard(0, 100, 1).windows(LANGUAGES);
        java.util.function.BiFunction<AveragingTrainer, java.util.function.IntPredicate, TrainingState> trainWhole = (trainer, whole) -> {
            ResidentRound.wholeTableForTests = whole;
            try {
                return trainer.fit(spark, shards, start(model), validation).state();
            } finally {
                ResidentRound.wholeTableForTests = null;
            }
        };
        AveragingTrainer trainer = new AveragingTrainer(model, train);

        long wholeBefore = ResidentRound.wholeTablesForTests();
        TrainingState rows = trainWhole.apply(trainer, worker -> false);
        assertEquals(wholeBefore, ResidentRound.wholeTablesForTests(), "no worker sent its whole table");
        for (java.util.function.IntPredicate whole : List.<java.util.function.IntPredicate>of(
                worker -> true, worker -> worker == 1, worker -> worker != 1)) {
            long before = ResidentRound.wholeTablesForTests();
            TrainingState mixed = trainWhole.apply(trainer, whole);
            assertTrue(ResidentRound.wholeTablesForTests() > before, "some worker sent its whole table");
            assertEquals(8, mixed.step);
            assertArrayEquals(rows.parameters.toFloatVector(), mixed.parameters.toFloatVector(), 0f);
            assertArrayEquals(rows.updaterState.toFloatVector(), mixed.updaterState.toFloatVector(), 0f);
        }
        // Whole tables through Spark's serialization, as on a cluster.
        TrainingState serialized = trainWhole.apply(trainer.throughSerialization(), worker -> worker != 1);
        assertArrayEquals(rows.parameters.toFloatVector(), serialized.parameters.toFloatVector(), 0f);
        assertArrayEquals(rows.updaterState.toFloatVector(), serialized.updaterState.toFloatVector(), 0f);
        assertFalse(Arrays.equals(start(model).parameters.toFloatVector(), rows.parameters.toFloatVector()), "training moved");
    }

    @Test
    void aWholeTableAddsRowsAsTheRowsItWasChangedInAddAndCountsTheirChanges() {
        ResidentRound.Rows first = new ResidentRound.Rows(new int[] {1, 3}, floats(1, 2, 3, 4), PackedFloats.EMPTY, PackedFloats.EMPTY,
                new int[] {1, 1});
        // Rows 3 and 5 changed; the others hold old values, which a sum must not add.
        ResidentRound.Table second = new ResidentRound.Table(floats(9, 9, 9, 9, 9, 9, 100, 200, 9, 9, 300, 400),
                PackedFloats.EMPTY, PackedFloats.EMPTY, new int[] {0, 0, 0, 1, 0, 1});
        ResidentRound.Table sum = (ResidentRound.Table) ResidentRound.TableChange.add(first, second, 2);
        assertArrayEquals(new int[] {0, 1, 0, 2, 0, 1}, sum.changes());
        float[] values = sum.parameters().values();
        assertArrayEquals(new float[] {1, 2}, Arrays.copyOfRange(values, 2, 4), "a row only the rows changed: theirs");
        assertArrayEquals(new float[] {103, 204}, Arrays.copyOfRange(values, 6, 8), "a row both changed: the sum");
        assertArrayEquals(new float[] {300, 400}, Arrays.copyOfRange(values, 10, 12), "a row only the table changed: its own");
        ResidentRound.Rows rowsAlone = first.plus(new ResidentRound.Rows(new int[] {3, 5}, floats(100, 200, 300, 400), PackedFloats.EMPTY,
                PackedFloats.EMPTY, new int[] {1, 1}), 2);
        for (int i = 0; i < rowsAlone.rows().length; i++) {
            int row = rowsAlone.rows()[i];
            assertArrayEquals(Arrays.copyOfRange(rowsAlone.parameters().values(), 2 * i, 2 * i + 2), Arrays.copyOfRange(values, 2 * row, 2 * row + 2));
        }
    }

    @Test
    void rowSetsAddAsAUnionWithTheValuesOfSharedRowsSummedAndTheirChangesCounted() {
        ResidentRound.Rows a = new ResidentRound.Rows(new int[] {1, 3}, floats(1, 2, 3, 4), floats(10, 20, 30, 40), floats(5, 6, 7, 8),
                new int[] {1, 1});
        ResidentRound.Rows b = new ResidentRound.Rows(new int[] {3, 5}, floats(100, 200, 300, 400), floats(1, 1, 1, 1),
                floats(2, 2, 2, 2), new int[] {1, 1});
        ResidentRound.Rows sum = a.plus(b, 2);
        assertArrayEquals(new int[] {1, 3, 5}, sum.rows());
        assertArrayEquals(new float[] {1, 2, 103, 204, 300, 400}, sum.parameters().values());
        assertArrayEquals(new float[] {10, 20, 31, 41, 1, 1}, sum.first().values());
        assertArrayEquals(new float[] {5, 6, 9, 10, 2, 2}, sum.second().values());
        assertArrayEquals(new int[] {1, 2, 1}, sum.changes());
        assertArrayEquals(new int[] {1, 3, 5}, ResidentRound.Rows.NONE.plus(sum, 2).rows(), "no rows is the identity");
    }

    @Test
    void aTableTrainedBySgdMovesItsRowsWithoutAdamMomentsAndLazyAdamWithThem() {
        int[] rows = {2, 7, 4095};
        int[] changes = {1, 1, 1};
        ModelConfig sgd = ngramModel();
        ResidentRound.Split sgdSplit = ResidentRound.Split.of(sgd, training("sgd"));
        ResidentRound.Rows bare = sgdSplit.rows(start(sgd), rows, changes);
        assertEquals(rows.length * sgdSplit.width(), bare.parameters().length());
        assertEquals(0, bare.first().length(), "SGD never reads the table's first moments");
        assertEquals(0, bare.second().length());
        ResidentRound.Rows union = bare.plus(sgdSplit.rows(start(sgd), new int[] {7, 9}, new int[] {1, 1}), sgdSplit.width());
        assertArrayEquals(new int[] {2, 7, 9, 4095}, union.rows());
        assertEquals(4 * sgdSplit.width(), union.parameters().length());
        assertEquals(0, union.first().length());

        ModelConfig lazy = ngramModel();
        ResidentRound.Split lazySplit = ResidentRound.Split.of(lazy, training("lazy"));
        ResidentRound.Rows withMoments = lazySplit.rows(start(lazy), rows, changes);
        assertEquals(rows.length * lazySplit.width(), withMoments.first().length());
        assertEquals(rows.length * lazySplit.width(), withMoments.second().length());
    }

    private static PackedFloats floats(float... values) {
        return new PackedFloats(values);
    }

    private static float[] mean(float[]... vectors) {
        float[] m = new float[vectors[0].length];
        for (float[] v : vectors) {
            for (int i = 0; i < m.length; i++) {
                m[i] += v[i];
            }
        }
        for (int i = 0; i < m.length; i++) {
            m[i] /= vectors.length;
        }
        return m;
    }

    /** Checkpoints at every epoch's end and, when train.checkpoint_every_minutes asks, within epochs. */
    private static AveragingTrainer.Listener saving(Checkpoints checkpoints, Checkpoints.Identity identity) {
        return new AveragingTrainer.Listener() {
            @Override
            public void epoch(TrainingState state, LocalTrainer.EpochResult result) {
                checkpoints.write(state, identity);
            }

            @Override
            public void withinEpoch(TrainingState state) {
                checkpoints.writeWithinEpoch(state, identity);
            }
        };
    }

    /** A run from the start that dies (every retry too) in the round that begins at {@code step}. */
    private void stopsAtStep(long step, ModelConfig model, TrainConfig train, List<WorkerShard> data,
                                    LabelledWindows validation, AveragingTrainer.Listener listener) {
        AveragingRound.beforeRoundForTests = (worker, roundStep) -> {
            if (roundStep >= step) {
                throw new IllegalStateException("injected: the run stops at step " + step);
            }
        };
        try {
            org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> new AveragingTrainer(model, train)
                    .fit(spark, spark.parallelize(data, 2).cache(), start(model), validation, listener));
        } finally {
            AveragingRound.beforeRoundForTests = null;
        }
    }
}
