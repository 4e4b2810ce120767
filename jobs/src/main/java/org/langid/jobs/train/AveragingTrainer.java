package org.langid.jobs.train;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.langid.model.graph.BulkArrays;
import org.langid.model.graph.ModelConfig;
import org.langid.model.train.Durations;
import org.langid.model.train.EarlyStopping;
import org.langid.model.train.Evaluation;
import org.langid.model.train.LabelledWindows;
import org.langid.model.train.LocalTrainer;
import org.langid.model.train.TrainConfig;
import org.langid.model.train.TrainingState;
import org.langid.model.train.WeightAverage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Synchronous parameter averaging on Spark. Each round the driver sends parameters, Adam
 * state and step; every worker (one cached shard per partition) takes
 * {@code averaging_frequency} minibatches of {@code batch_size} from its shard
 * ({@link AveragingRound}); the driver adds the results ({@link RoundJobs}) and divides.
 * Spark schedules the tasks, keeps the shards where they were cached and retries failed tasks;
 * a round is a function of its inputs, so a retried task contributes what the first would have.
 */
public final class AveragingTrainer {

    private static final Logger LOG = LoggerFactory.getLogger(AveragingTrainer.class);

    /** Told of every round and every epoch: progress, the metrics log and checkpoints hang off this. */
    public interface Listener {
        /** After a job of rounds (one, or with a lone worker several: {@link JobSizes}) that ended with {@code round}. */
        default void round(int epoch, int round, int rounds, long step, double loss, long samples, double seconds) {
        }

        /** After epoch {@code state.epoch} is complete and validated; {@code state} may be saved, not kept. */
        default void epoch(TrainingState state, LocalTrainer.EpochResult result) {
        }

        /**
         * Inside an epoch, after a round, once train.checkpoint_every_minutes have passed since the
         * run started or the last checkpoint; {@code state} may be saved, not kept.
         */
        default void withinEpoch(TrainingState state) {
        }
    }

    /** Measures validation accuracy and loss of a state after each epoch. */
    public interface Validator {
        Evaluation evaluate(TrainingState state);
    }

    /** Validation on the driver, on windows held there. */
    public static Validator onDriver(ModelConfig model, LabelledWindows windows, int batchSize) {
        return state -> Evaluation.of(model, WeightAverage.current(state), windows, batchSize, Runtime.getRuntime().availableProcessors());
    }

    /** Validation on the workers: each evaluates its shard with the broadcast parameters; the counts are added. */
    public static Validator distributed(JavaSparkContext spark, JavaRDD<WorkerShard> shards, ModelConfig model, int batchSize) {
        return state -> {
            Broadcast<float[]> parameters = spark.broadcast(BulkArrays.floatValues(WeightAverage.current(state)));
            try {
                spark.setJobDescription(String.format("train: validation after epoch %d", state.epoch));
                return shards.map(shard -> Evaluation.of(model, BulkArrays.floats(parameters.value()), shard.windows(model.languages), batchSize,
                                org.apache.spark.TaskContext.get().cpus()))   // the cores Spark gave the task (spark.task.cpus)
                        .fold(new Evaluation(0, 0, 0), Evaluation::combine);
            } finally {
                parameters.destroy();
            }
        };
    }

    private final ModelConfig model;
    private final TrainConfig train;
    private final long simulatedStepNanos;
    private final boolean residentRounds;
    private final double loneWorkerJobSeconds;
    /** In local mode, rounds pass their input and results by reference (RoundJobs); false: through Spark's serialization. */
    private final boolean roundsInProcess;

    public AveragingTrainer(ModelConfig model, TrainConfig train) {
        this(model, train, 0, true, JobSizes.LONE_WORKER_JOB_SECONDS, true);
    }

    private AveragingTrainer(ModelConfig model, TrainConfig train, long simulatedStepNanos, boolean residentRounds,
                             double loneWorkerJobSeconds, boolean roundsInProcess) {
        this.model = model.validated();
        this.train = train;
        this.simulatedStepNanos = simulatedStepNanos;
        this.residentRounds = residentRounds;
        this.loneWorkerJobSeconds = loneWorkerJobSeconds;
        this.roundsInProcess = roundsInProcess;
        train.requireValid();
    }

    /** Tests: a trainer that broadcasts and collects the full state every round, whatever the model. */
    AveragingTrainer exchangingFullState() {
        return new AveragingTrainer(model, train, simulatedStepNanos, false, loneWorkerJobSeconds, roundsInProcess);
    }

    /** Tests: a lone worker's jobs last about {@code seconds} (0: one round a job, as with several workers). */
    AveragingTrainer withLoneWorkerJobSeconds(double seconds) {
        return new AveragingTrainer(model, train, simulatedStepNanos, residentRounds, seconds, roundsInProcess);
    }

    /** Tests: rounds through Spark's serialization, as on a cluster, even in local mode. */
    AveragingTrainer throughSerialization() {
        return new AveragingTrainer(model, train, simulatedStepNanos, residentRounds, loneWorkerJobSeconds, false);
    }

    /**
     * How many averaging rounds one Spark job takes. With one worker a round's average is the
     * worker's own state, so synchronising it is nothing but Spark's fixed cost per job (~30 ms
     * at local[1], 4% of a round of five steps at batch 1024; bench/EXPERIMENTS.md, "Spark rounds"): its rounds are
     * taken several to a job, as many as fill about {@link #LONE_WORKER_JOB_SECONDS}, and the
     * result is bit for bit that of one round a job (AveragingTrainerTest). With several workers
     * every round is a job of its own.
     */
    public static final class JobSizes {
        /** Long enough that a job's fixed cost is under 1% of it, short enough for progress lines and checkpoints. */
        static final double LONE_WORKER_JOB_SECONDS = 4;

        private final double jobSeconds;
        private double secondsPerRound = Double.NaN;

        private JobSizes(double jobSeconds) {
            this.jobSeconds = jobSeconds;
        }

        /** The sizes for {@code workers} workers: one round a job, unless there is one worker. */
        public static JobSizes of(int workers) {
            return of(workers, LONE_WORKER_JOB_SECONDS);
        }

        static JobSizes of(int workers, double loneWorkerJobSeconds) {
            return new JobSizes(workers == 1 ? loneWorkerJobSeconds : 0);
        }

        /** Rounds for the next job: one until a job has been timed, then as many as fill the job's time. */
        public int next() {
            if (!(jobSeconds > 0 && secondsPerRound > 0)) {
                return 1;
            }
            return (int) Math.max(1, Math.floor(jobSeconds / secondsPerRound));   // the cast saturates
        }

        /** The last job took {@code rounds} rounds in {@code seconds}. */
        public void took(int rounds, double seconds) {
            secondsPerRound = seconds / rounds;
        }
    }

    /**
     * For {@code langid bench rounds} only: a trainer whose workers wait {@code stepSeconds} per
     * step instead of running the graph (a GPU's step time), so a round costs what Spark adds.
     */
    public AveragingTrainer simulatingSteps(double stepSeconds) {
        if (!(stepSeconds > 0)) {
            throw new IllegalArgumentException("a simulated step takes a positive time, not " + stepSeconds);
        }
        return new AveragingTrainer(model, train, Math.round(stepSeconds * 1e9), residentRounds, loneWorkerJobSeconds, roundsInProcess);
    }

    /** The round of its epoch that {@code state} starts: 0, or the one after a checkpoint made within the epoch. */
    static int firstRound(TrainingState state, long stepsPerEpoch, int frequency) {
        long stepInEpoch = state.step - state.epoch * stepsPerEpoch;
        if (stepInEpoch < 0 || stepInEpoch >= stepsPerEpoch || stepInEpoch % frequency != 0) {
            throw new IllegalArgumentException("cannot continue from step " + state.step + " of epoch " + (state.epoch + 1)
                    + ": with " + stepsPerEpoch + " steps an epoch and averaging every " + frequency
                    + " steps, no round starts there (other training data or another batch size?)");
        }
        return (int) (stepInEpoch / frequency);
    }

    /** Minibatch steps each worker takes per epoch: enough to pass once over the smallest shard. */
    static long stepsPerEpoch(List<Integer> shardSizes, int batchSize) {
        int smallest = shardSizes.stream().mapToInt(Integer::intValue).min().orElse(0);
        return (smallest + batchSize - 1) / batchSize;
    }

    public LocalTrainer.Result fit(JavaSparkContext spark, JavaRDD<WorkerShard> shards, TrainingState state, LabelledWindows validation) {
        return fit(spark, shards, state, validation, new Listener() { });
    }

    public LocalTrainer.Result fit(JavaSparkContext spark, JavaRDD<WorkerShard> shards, TrainingState state, LabelledWindows validation,
                                   Listener listener) {
        return fit(spark, shards, state, onDriver(model, validation, train.evaluationBatchSize), listener);
    }

    /**
     * Trains from {@code state} (a fresh one, or a checkpoint: it continues at its epoch and, for a
     * checkpoint made within an epoch, at the round after its step) to train.epochs.
     */
    public LocalTrainer.Result fit(JavaSparkContext spark, JavaRDD<WorkerShard> shards, TrainingState state, Validator validator,
                                   Listener listener) {
        List<Integer> sizes = shards.map(WorkerShard::size).collect();
        long stepsPerEpoch = stepsPerEpoch(sizes, train.batchSize);
        if (stepsPerEpoch == 0) {
            throw new IllegalArgumentException("a worker has no training windows (shard sizes " + sizes + ")");
        }
        long plannedSteps = train.maxSteps > 0 ? Math.min(train.maxSteps, stepsPerEpoch * train.epochs) : stepsPerEpoch * train.epochs;
        if (state.epoch >= train.epochs || state.step >= plannedSteps) {
            // Only a resumed checkpoint can be here; going on would write an empty history over the finished run's summary.
            throw new IllegalArgumentException("nothing to resume: the latest checkpoint (epoch " + state.epoch + ", step " + state.step
                    + ") already ends this run's " + plannedSteps + " steps; its outputs stay as they are");
        }
        int frequency = train.averagingFrequency;
        int roundsPerEpoch = (int) ((stepsPerEpoch + frequency - 1) / frequency);
        List<LocalTrainer.EpochResult> history = new ArrayList<>();
        EarlyStopping earlyStopping = new EarlyStopping(train.earlyStoppingPatience, train.earlyStoppingMinImprovement);
        long runStarted = System.nanoTime();
        long stepsAtStart = state.step;
        long lastLog = System.nanoTime();
        long lastCheckpoint = System.nanoTime();
        int firstRound = state.epoch < train.epochs && state.step < plannedSteps ? firstRound(state, stepsPerEpoch, frequency) : 0;
        Rounds rounds = rounds();
        // The weight average is updated once a job: with it, a lone worker's jobs stay one round each, so that
        // the average does not depend on how long rounds took (retries and resumes end bit for bit alike).
        WeightAverage average = new WeightAverage(train.emaSpan, plannedSteps * train.batchSize * sizes.size());
        JobSizes jobSizes = JobSizes.of(sizes.size(), average.enabled() ? 0 : loneWorkerJobSeconds);
        while (state.epoch < train.epochs && state.step < plannedSteps) {
            long started = System.nanoTime();
            double lossSum = 0;
            long steps = 0;
            long samples = 0;
            for (int round = firstRound; round < roundsPerEpoch && state.step < plannedSteps; ) {
                long jobStarted = System.nanoTime();
                // A job of several rounds takes their minibatches in one go: round r's start to the last one's end.
                int jobRounds = Math.min(jobSizes.next(), roundsPerEpoch - round);
                int jobSteps = (int) Math.min((long) jobRounds * frequency,
                        Math.min(plannedSteps - state.step, stepsPerEpoch - (long) round * frequency));
                AveragingRound.Sum sum = rounds.round(spark, shards, state, round, roundsPerEpoch, jobSteps, plannedSteps);
                average.update(state, sum.samples());
                double jobSeconds = (System.nanoTime() - jobStarted) / 1e9;
                jobSizes.took(jobRounds, jobSeconds);
                int last = round + jobRounds - 1;
                round += jobRounds;
                lossSum += sum.lossSum();
                steps += sum.steps();
                samples += sum.samples();
                listener.round(state.epoch, last, roundsPerEpoch, state.step, sum.lossSum() / Math.max(1, sum.steps()), sum.samples(),
                        jobSeconds);
                if ((System.nanoTime() - lastLog) / 1e9 >= train.logEverySeconds || last == roundsPerEpoch - 1) {
                    lastLog = System.nanoTime();
                    LOG.info(String.format("epoch %d/%d step %d/%d (round %d): loss %.4f, %.0f samples/s, ETA %s",
                            state.epoch + 1, train.epochs, state.step, plannedSteps, last + 1,
                            lossSum / Math.max(1, steps), samples / ((lastLog - started) / 1e9),
                            Durations.eta((lastLog - runStarted) / 1e9, state.step - stepsAtStart, plannedSteps - stepsAtStart)));
                }
                if (train.checkpointEveryMinutes > 0 && last < roundsPerEpoch - 1 && state.step < plannedSteps
                        && (System.nanoTime() - lastCheckpoint) / 60e9 >= train.checkpointEveryMinutes) {
                    listener.withinEpoch(state);
                    lastCheckpoint = System.nanoTime();
                }
            }
            firstRound = 0;
            double seconds = (System.nanoTime() - started) / 1e9;
            Evaluation evaluation = validator.evaluate(state);
            state.epoch++;
            LocalTrainer.EpochResult result = new LocalTrainer.EpochResult(state.epoch, state.step, steps == 0 ? Double.NaN : lossSum / steps, evaluation,
                    seconds, samples / seconds);
            history.add(result);
            listener.epoch(state, result);
            if (earlyStopping.shouldStop(evaluation.accuracy())) {
                LOG.info(String.format("early stopping after epoch %d: no validation accuracy above %.4f for %d epochs",
                        state.epoch, earlyStopping.best(), train.earlyStoppingPatience));
                break;
            }
            LOG.info(String.format("epoch %d done: %d workers, step %d, train loss %.4f, validation accuracy %.4f, %.0f samples/s",
                    result.epoch(), sizes.size(), state.step, result.trainLoss(), evaluation.accuracy(), result.samplesPerSecond()));
        }
        WeightAverage.finish(state);
        return new LocalTrainer.Result(state, history);
    }

    /** Rounds of one run, in order: what {@link #fit} takes, and what {@code langid bench train --trainer spark} times. */
    @FunctionalInterface
    public interface Rounds {
        /**
         * One synchronous round on {@code state}, in place (with a lone worker, {@code steps} may
         * span several rounds from {@code round} on: {@link JobSizes}); returns the workers' summed
         * loss, steps and samples.
         */
        AveragingRound.Sum round(JavaSparkContext spark, JavaRDD<WorkerShard> shards, TrainingState state, int round, int rounds,
                                 int steps, long plannedSteps);
    }

    /**
     * The rounds {@link #fit} runs: resident ({@link ResidentRound}: after the first round only
     * what changed travels) when the n-gram table's updates are sparse, since they then change
     * only the rows a minibatch selected; otherwise the full state every round ({@link #round}).
     */
    public Rounds rounds() {
        if (residentRounds && simulatedStepNanos == 0 && train.sparseTableUpdates(model)) {
            return new Resident()::round;
        }
        return this::round;
    }

    /**
     * One synchronous round: broadcast {@code state}, let every worker take {@code steps}
     * minibatches, average parameters and Adam moments back into {@code state}, advance its step.
     * Returns the workers' summed loss, steps and samples.
     */
    public AveragingRound.Sum round(JavaSparkContext spark, JavaRDD<WorkerShard> shards, TrainingState state, int round, int rounds,
                                    int steps, long plannedSteps) {
        AveragingRound.Input input = AveragingRound.Input.of(state, round, train.averagingFrequency, steps, train.batchSize,
                plannedSteps, train.caseAugmentation, simulatedStepNanos);
        RoundJobs.Carried<AveragingRound.Input> carried = RoundJobs.carry(spark, roundsInProcess, input, input.bytes());
        spark.setJobDescription(String.format("train: epoch %d/%d, round %d/%d", state.epoch + 1, train.epochs, round + 1, rounds));
        ModelConfig modelConfig = model;
        TrainConfig trainConfig = train;
        try {
            AveragingRound.Sum sum = RoundJobs.sum(spark, roundsInProcess, shards, it -> AveragingRound.run(it, carried.get(), modelConfig, trainConfig),
                    AveragingRound.Sum.NONE, AveragingRound.Sum::add);
            float[] parameters = sum.parameters().values();
            float[] updater = sum.updaterState().values();
            for (int i = 0; i < parameters.length; i++) {
                parameters[i] /= sum.workers();
            }
            for (int i = 0; i < updater.length; i++) {
                updater[i] /= sum.workers();
            }
            state.parameters.assign(BulkArrays.floats(parameters));
            state.updaterState.assign(BulkArrays.floats(updater));
            state.step += sum.steps() / sum.workers();
            return sum;
        } finally {
            carried.release();
        }
    }

    /**
     * The rounds of one {@link #fit} by {@link ResidentRound}: the full state in the first round,
     * then only what changed; workers without a current replica get the full state again.
     */
    private final class Resident {
        private final long run = java.util.concurrent.ThreadLocalRandom.current().nextLong();
        private final ResidentRound.Split split = ResidentRound.Split.of(model, train);
        private long version;
        /** The change since the last round's start (null: send the full state). */
        private ResidentRound.Dense dense;
        private ResidentRound.TableChange table;
        /**
         * The share of the table's rows from which a worker sends it whole instead of its changed
         * rows. In one JVM only the driver's arithmetic counts: at a million rows on random windows
         * (~85% changed a round) adding and averaging whole tables took 12 + 15 ms a round against
         * 20 + 31 ms for sorted rows, so from half the rows. Through Spark's serialization bytes
         * count too, and a whole table is no larger than its changed rows from ~94% of them (68 bytes a
         * table row, 72 a changed row).
         */
        private double wholeTableFrom(JavaSparkContext spark) {
            return RoundJobs.inProcess(spark, roundsInProcess) ? 0.5 : 0.94;
        }
        /**
         * One worker took the last round: the average is its own state, which its replica holds,
         * so the change is not sent back (at a million table rows a round's changed rows are
         * ~15 MB each way, a tenth of a round at batch 1024).
         */
        private boolean replicaIsAverage;

        AveragingRound.Sum round(JavaSparkContext spark, JavaRDD<WorkerShard> shards, TrainingState state, int round, int rounds,
                                 int steps, long plannedSteps) {
            spark.setJobDescription(String.format("train: epoch %d/%d, round %d/%d", state.epoch + 1, train.epochs, round + 1, rounds));
            double wholeTableFrom = wholeTableFrom(spark);
            // The full state is packed only when it is sent: at a table of a million rows it is 800 MB.
            java.util.function.Supplier<AveragingRound.Input> full = () -> AveragingRound.Input.of(state, round, train.averagingFrequency,
                    steps, train.batchSize, plannedSteps, train.caseAugmentation, 0);
            AveragingRound.Input settings = new AveragingRound.Input(null, null, state.step, state.epoch,
                    round, train.averagingFrequency, steps, train.batchSize, plannedSteps, train.caseAugmentation, 0);
            ResidentRound.Sum sum = dense == null
                    ? job(spark, shards, new ResidentRound.Input(run, version, full.get(), null, null, null, wholeTableFrom))
                    : job(spark, shards, replicaIsAverage
                            ? ResidentRound.Input.replicaIsCurrent(run, version, settings, wholeTableFrom)
                            : new ResidentRound.Input(run, version, settings, dense, table, null, wholeTableFrom));
            if (sum.stale().length > 0) {
                java.util.Set<Integer> stale = java.util.Arrays.stream(sum.stale()).boxed().collect(java.util.stream.Collectors.toSet());
                LOG.info("round {}: workers {} hold no replica of the last round; sending them the full state", version, stale);
                ResidentRound.Sum rerun = job(spark, shards, new ResidentRound.Input(run, version, full.get(), null, null, stale, wholeTableFrom));
                ResidentRound.Sum taken = new ResidentRound.Sum(sum.dense(), sum.table(), sum.lossSum(), sum.steps(), sum.samples(),
                        sum.workers(), new int[0]);
                sum = ResidentRound.Sum.add(taken, rerun, split.width());
            }
            if (sum.workers() == 0 || sum.stale().length > 0) {
                throw new IllegalStateException("round " + version + ": no worker could take it (stale: "
                        + java.util.Arrays.toString(sum.stale()) + ")");
            }
            ResidentRound.average(state, sum, split);
            state.step += sum.steps() / sum.workers();
            dense = sum.dense();
            table = sum.table();
            replicaIsAverage = sum.workers() == 1;
            version++;
            return new AveragingRound.Sum(null, null, sum.lossSum(), sum.steps(), sum.samples(), sum.workers());
        }

        private ResidentRound.Sum job(JavaSparkContext spark, JavaRDD<WorkerShard> shards, ResidentRound.Input input) {
            RoundJobs.Carried<ResidentRound.Input> carried = RoundJobs.carry(spark, roundsInProcess, input, input.bytes());
            ModelConfig modelConfig = model;
            TrainConfig trainConfig = train;
            ResidentRound.Split layout = split;
            int width = split.width();
            try {
                return RoundJobs.sum(spark, roundsInProcess, shards, it -> ResidentRound.run(it, carried.get(), modelConfig, trainConfig, layout),
                        ResidentRound.Sum.NONE, (a, b) -> ResidentRound.Sum.add(a, b, width));
            } finally {
                carried.release();
            }
        }
    }
}
