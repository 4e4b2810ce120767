package org.langid.model.train;

import java.util.ArrayList;
import java.util.List;
import org.langid.model.graph.ModelConfig;
import org.langid.model.graph.ParameterLayout;
import org.nd4j.linalg.api.buffer.DataType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Trains the model on one machine, without Spark: epochs of shuffled minibatches through
 * {@link LocalSteps}, validation accuracy after each epoch. The estimator half of the pair:
 * {@link #fit} returns the fitted parameters with their history.
 */
public final class LocalTrainer {

    private static final Logger LOG = LoggerFactory.getLogger(LocalTrainer.class);

    /** What one epoch ended with. */
    public record EpochResult(int epoch, long step, double trainLoss, Evaluation validation, double seconds, double samplesPerSecond) {
    }

    /** The fitted state and how it got there. */
    public record Result(TrainingState state, List<EpochResult> history) {
        public EpochResult last() {
            return history.get(history.size() - 1);
        }
    }

    /** Hears about progress: a report every train.log_every_seconds, and each finished epoch. */
    public interface Listener {
        /** @param report 0-based count of reports in this epoch; loss and samples/s since the epoch began */
        void progress(int epoch, int report, long step, double loss, double samplesPerSecond);

        void epoch(EpochResult epoch);
    }

    private static final Listener SILENT = new Listener() {
        @Override
        public void progress(int epoch, int report, long step, double loss, double samplesPerSecond) {
        }

        @Override
        public void epoch(EpochResult epoch) {
        }
    };

    private final ModelConfig model;
    private final TrainConfig train;

    public LocalTrainer(ModelConfig model, TrainConfig train) {
        this.model = model.validated();
        this.train = train;
        train.requireValid();
    }

    /** Trains from the config's seeded initialisation. */
    public Result fit(LabelledWindows training, LabelledWindows validation) {
        return fit(TrainingState.start(ParameterLayout.of(model).initialise(train.seed, DataType.FLOAT)), training, validation);
    }

    /** Continues from {@code state} (its epoch and step say where). */
    public Result fit(TrainingState state, LabelledWindows training, LabelledWindows validation) {
        return fit(state, training, validation, SILENT);
    }

    /** As {@link #fit(TrainingState, LabelledWindows, LabelledWindows)}, reporting to {@code listener}. */
    public Result fit(TrainingState state, LabelledWindows training, LabelledWindows validation, Listener listener) {
        checkLabels(training);
        checkLabels(validation);
        NativeThreads.limit(train.nativeThreads);
        long stepsPerEpoch = (training.size() + train.batchSize - 1) / train.batchSize;
        long plannedSteps = train.maxSteps > 0 ? Math.min(train.maxSteps, stepsPerEpoch * train.epochs) : stepsPerEpoch * train.epochs;
        LocalSteps steps = new LocalSteps(model, train, state, plannedSteps, new CaseAugmentation(train.caseAugmentation, train.seed, model.alphabet),
                StepOptions.of(train));
        WeightAverage average = new WeightAverage(train.emaSpan, plannedSteps * train.batchSize);
        long windowsSinceAverage = 0;
        List<EpochResult> history = new ArrayList<>();
        long runStarted = System.nanoTime();
        long stepsAtStart = state.step;
        long lastLog = System.nanoTime();
        while (state.epoch < train.epochs && !(train.maxSteps > 0 && state.step >= train.maxSteps)) {
            long started = System.nanoTime();
            int[] order = Shuffle.permutation(training.size(), train.seed, state.epoch);
            double lossSum = 0;
            long batches = 0;
            long samples = 0;
            int reports = 0;
            for (int from = 0; from < order.length && !(train.maxSteps > 0 && state.step >= train.maxSteps); from += train.batchSize) {
                int to = Math.min(order.length, from + train.batchSize);
                lossSum += steps.step(training, order, from, to);
                batches++;
                samples += to - from;
                windowsSinceAverage += to - from;
                if (batches % train.averagingFrequency == 0) {   // counted within the epoch, as the Spark trainer's rounds
                    average.update(state, windowsSinceAverage);
                    windowsSinceAverage = 0;
                }
                if ((System.nanoTime() - lastLog) / 1e9 >= train.logEverySeconds) {
                    lastLog = System.nanoTime();
                    double elapsed = (lastLog - started) / 1e9;
                    LOG.info(String.format("epoch %d/%d step %d/%d: loss %.4f, %.0f samples/s, ETA %s (lr %.2e)",
                            state.epoch + 1, train.epochs, state.step, plannedSteps, lossSum / batches, samples / elapsed,
                            Durations.eta((lastLog - runStarted) / 1e9, state.step - stepsAtStart, plannedSteps - stepsAtStart),
                            steps.learningRate()));
                    listener.progress(state.epoch, reports++, state.step, lossSum / batches, samples / elapsed);
                }
            }
            if (windowsSinceAverage > 0) {   // the epoch's last steps, as the Spark trainer's last round of an epoch
                average.update(state, windowsSinceAverage);
                windowsSinceAverage = 0;
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            Evaluation evaluation = Evaluation.of(model, WeightAverage.current(state), validation, train.evaluationBatchSize,
                    Runtime.getRuntime().availableProcessors());
            state.epoch++;
            EpochResult result = new EpochResult(state.epoch, state.step, batches == 0 ? Double.NaN : lossSum / batches,
                    evaluation, seconds, samples / seconds);
            history.add(result);
            listener.epoch(result);
            LOG.info(String.format("epoch %d done: train loss %.4f, validation accuracy %.4f (loss %.4f) on %d windows, %.0f samples/s",
                    result.epoch(), result.trainLoss(), evaluation.accuracy(), evaluation.meanLoss(), evaluation.windows(), result.samplesPerSecond()));
        }
        WeightAverage.finish(state);
        steps.closeTeacher();
        return new Result(state, history);
    }

    private void checkLabels(LabelledWindows data) {
        if (!data.languages().equals(model.languages)) {
            throw new IllegalArgumentException("windows are labelled with " + data.languages() + ", the model predicts " + model.languages);
        }
        if (data.windowLength() != model.window) {
            throw new IllegalArgumentException("windows are " + data.windowLength() + " long, the model reads " + model.window);
        }
    }
}
