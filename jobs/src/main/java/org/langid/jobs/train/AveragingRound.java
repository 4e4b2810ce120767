package org.langid.jobs.train;

import java.io.Serializable;
import java.util.Iterator;
import java.util.List;
import org.langid.model.config.ConfigTree;
import org.langid.model.graph.BulkArrays;
import org.langid.model.graph.ModelConfig;
import org.langid.model.train.CaseAugmentation;
import org.langid.model.train.LocalSteps;
import org.langid.model.train.NativeThreads;
import org.langid.model.train.Shuffle;
import org.langid.model.train.StepOptions;
import org.langid.model.train.TrainConfig;
import org.langid.model.train.TrainingState;

/**
 * The worker side of one synchronous parameter-averaging round: start from the state the driver sent,
 * take the round's minibatches of the worker's shard (round r of an epoch takes batches
 * r·averagingFrequency onwards of the shard's shuffled order), return the resulting
 * parameters and Adam state (as sums, to be added across workers and divided on the driver).
 * A function of its inputs only, so a task Spark re-runs gives the same result.
 */
public final class AveragingRound {

    /** What the driver sends each round. */
    record Input(PackedFloats parameters, PackedFloats updaterState, long step, int epoch, int roundInEpoch,
                 int averagingFrequency, int stepsThisRound, int batchSize, long plannedSteps, double caseAugmentation,
                 long simulatedStepNanos)
            implements Serializable {

        static Input of(TrainingState state, int roundInEpoch, int averagingFrequency, int stepsThisRound, int batchSize,
                        long plannedSteps, double caseAugmentation, long simulatedStepNanos) {
            return new Input(PackedFloats.of(state.parameters), PackedFloats.of(state.updaterState),
                    state.step, state.epoch, roundInEpoch, averagingFrequency, stepsThisRound, batchSize, plannedSteps,
                    caseAugmentation, simulatedStepNanos);
        }

        /** Serialized size, about: the state's floats. */
        long bytes() {
            return PackedFloats.bytes(parameters) + PackedFloats.bytes(updaterState);
        }

        /** The sent state as the worker's own arrays. */
        TrainingState state() {
            return new TrainingState(BulkArrays.floats(parameters.values()), BulkArrays.floats(updaterState.values()), step, epoch);
        }
    }

    /** A worker's contribution, or the sum of several. */
    public record Sum(PackedFloats parameters, PackedFloats updaterState, double lossSum, long steps, long samples, int workers)
            implements Serializable {

        /** The identity of {@link #add}: no workers yet. */
        static final Sum NONE = new Sum(null, null, 0, 0, 0, 0);

        /** One worker's state after its steps. */
        static Sum of(TrainingState state, double lossSum, long steps, long samples) {
            return new Sum(PackedFloats.of(state.parameters), PackedFloats.of(state.updaterState),
                    lossSum, steps, samples, 1);
        }

        static Sum add(Sum a, Sum b) {
            if (a.workers == 0) {
                return b;
            }
            if (b.workers == 0) {
                return a;
            }
            return new Sum(PackedFloats.sum(a.parameters, b.parameters), PackedFloats.sum(a.updaterState, b.updaterState),
                    a.lossSum + b.lossSum, a.steps + b.steps, a.samples + b.samples, a.workers + b.workers);
        }
    }

    /** Steps per executor thread, built once per model and reused across tasks (a graph per task is waste). */
    private static final ThreadLocal<Cached> STEPS = new ThreadLocal<>();

    private record Cached(String key, LocalSteps steps) {
    }

    private AveragingRound() {
    }

    /**
     * The shuffled visiting order of a worker's shard in an epoch (shared, not to be modified).
     * A function of (size, seed, worker, epoch) only, so it is computed once per epoch and kept
     * on the executor: shuffled afresh every round, a full-corpus shard (6.6 M windows) cost
     * 120 ms and a 27 MB allocation each round, a fifth of a round's time.
     */
    static int[] order(WorkerShard shard, long seed, int epoch) {
        long workerSeed = seed + 7919L * shard.worker();
        Order cached = ORDERS.get(shard.worker());
        if (cached != null && cached.order().length == shard.size() && cached.seed() == workerSeed && cached.epoch() == epoch) {
            return cached.order();
        }
        int[] order = Shuffle.permutation(shard.size(), workerSeed, epoch);
        ORDERS.put(shard.worker(), new Order(workerSeed, epoch, order));
        return order;
    }

    /** The latest visiting order computed for each worker on this executor. */
    private static final java.util.concurrent.ConcurrentHashMap<Integer, Order> ORDERS = new java.util.concurrent.ConcurrentHashMap<>();

    private record Order(long seed, int epoch, int[] order) {
    }

    /** Tests only: called at the start of every round task with (worker, step); may throw to simulate a lost task. */
    static volatile java.util.function.BiConsumer<Integer, Long> beforeRoundForTests;

    static Iterator<Sum> run(Iterator<WorkerShard> shards, Input input, ModelConfig model, TrainConfig train) {
        if (!shards.hasNext()) {
            return List.<Sum>of().iterator();
        }
        WorkerShard shard = shards.next();
        if (beforeRoundForTests != null) {
            beforeRoundForTests.accept(shard.worker(), input.step());
        }
        if (input.simulatedStepNanos() > 0) {
            return simulated(input);
        }
        NativeThreads.limit(train.nativeThreads);
        GpuBinding.bindCurrentTask();
        TrainingState state = input.state();
        Taken taken = takeSteps(shard, state, input, model, train, steps -> { });
        return List.of(Sum.of(state, taken.lossSum(), taken.steps(), taken.samples())).iterator();
    }

    /** What a worker's steps in one round added up to. */
    record Taken(double lossSum, long steps, long samples) {
    }

    /**
     * Takes the round's minibatches of {@code shard} (round r of an epoch: batches
     * r·averagingFrequency onwards of the epoch's order) on {@code state}, in place;
     * {@code afterStep} sees the steps after each one.
     */
    static Taken takeSteps(WorkerShard shard, TrainingState state, Input input, ModelConfig model, TrainConfig train,
                           java.util.function.Consumer<LocalSteps> afterStep) {
        // Each worker draws its own windows to change, as it has its own visiting order.
        CaseAugmentation augmentation = new CaseAugmentation(input.caseAugmentation(), train.seed + 7919L * shard.worker(), model.alphabet);
        LocalSteps steps = steps(model, train, state, input.plannedSteps(), augmentation);
        int[] order = order(shard, train.seed, input.epoch());
        var windows = shard.windows(model.languages);
        double lossSum = 0;
        long taken = 0;
        long samples = 0;
        long first = (long) input.roundInEpoch() * input.averagingFrequency() * input.batchSize();
        for (int k = 0; k < input.stepsThisRound(); k++) {
            long from = first + (long) k * input.batchSize();
            if (from >= order.length) {
                break;
            }
            int to = (int) Math.min(order.length, from + input.batchSize());
            lossSum += steps.step(windows, order, (int) from, to);
            afterStep.accept(steps);
            taken++;
            samples += to - from;
        }
        return new Taken(lossSum, taken, samples);
    }

    /**
     * bench rounds: a round whose steps cost a fixed time each instead of the graph (what a GPU's
     * step would take), the state passed through unchanged; everything Spark does around the steps
     * (the input, the task, arrays in and out, the adding up) is the real thing.
     */
    private static Iterator<Sum> simulated(Input input) {
        TrainingState state = input.state();
        long started = System.nanoTime();
        for (int k = 1; k <= input.stepsThisRound(); k++) {
            long due = started + k * input.simulatedStepNanos();
            for (long left = due - System.nanoTime(); left > 0; left = due - System.nanoTime()) {
                java.util.concurrent.locks.LockSupport.parkNanos(left);
            }
        }
        return List.of(Sum.of(state, 0, input.stepsThisRound(), (long) input.stepsThisRound() * input.batchSize())).iterator();
    }

    static LocalSteps steps(ModelConfig model, TrainConfig train, TrainingState state, long plannedSteps, CaseAugmentation augmentation) {
        // Not keyed on the augmentation: its seed differs per worker, and an executor thread runs
        // whichever worker's task comes next; a graph rebuilt per task would cost a second each.
        String key = ConfigTree.toJson(model) + "/" + ConfigTree.toJson(train) + "/" + plannedSteps;
        Cached cached = STEPS.get();
        if (cached == null || !cached.key().equals(key)) {
            if (cached != null) {
                cached.steps().closeTeacher();   // another model now: its teachers' native sessions go
            }
            cached = new Cached(key, new LocalSteps(model, train, state, plannedSteps, augmentation, StepOptions.of(train)));
            STEPS.set(cached);
        } else {
            cached.steps().load(state);
            cached.steps().augment(augmentation);
        }
        return cached.steps();
    }
}
