package org.langid.model.train;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.langid.model.graph.BulkArrays;
import org.langid.model.graph.CharacterNgrams;
import org.langid.model.graph.HostMemory;
import org.langid.model.graph.LanguageIdGraph;
import org.langid.model.graph.ModelConfig;
import org.langid.model.graph.TableRows;
import org.langid.model.train.trace.Call;
import org.langid.model.train.trace.passes.Rewrites;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.impl.updaters.AdamUpdater;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;

/**
 * Minibatch steps of Adam on one training graph, reading and writing a {@link TrainingState}.
 * Gradients come from SameDiff; the update is ND4J's native Adam op applied to the whole flat
 * parameter vector at once. The local trainer runs these steps over a dataset; the Spark
 * trainer runs them on each worker between averaging rounds. Not thread-safe: one per thread.
 */
public final class LocalSteps {

    private final ModelConfig config;
    /** The recipe: dropout, seed, optimiser, distillation. */
    private final TrainConfig train;
    private final LanguageIdGraph graph;
    private final SameDiff sd;
    private final List<String> parameterNames;
    private final Map<String, INDArray> gradientViews;
    private final INDArray gradient;
    private final WarmupDecaySchedule schedule;
    private final SameDiffExecution sameDiff;
    /** How steps run: {@link #sameDiff}, or steps replayed from recordings made through it. */
    private StepExecution execution;
    /** Where the n-gram table starts in the flat parameters, to be placed on a cache line; -1: no table. */
    private final long tableOffset;
    private CaseAugmentation augmentation;
    private Teacher teacher;
    private TrainingState state;
    private Map<String, INDArray> parameterViews;
    private INDArray firstMoment;
    private INDArray secondMoment;
    /** The n-gram table's part of each moment, (buckets, d) views (lazy updates gather rows from them). */
    private INDArray firstMomentTable;
    private INDArray secondMomentTable;
    /** The n-gram table rows the last minibatch selected (lazy updates touch only these). */
    private int[] lastNgramRows;
    /** Their gradients, (rows, e) row-major: lazy and sgd updates step from these, not from the table-sized gradient. */
    private double[] lastRowGradients;

    /**
     * @param totalSteps the run's planned number of steps, for a decay schedule whose decay_steps is 0
     */
    public LocalSteps(ModelConfig config, TrainConfig train, TrainingState state, long totalSteps) {
        this(config, train, state, totalSteps, CaseAugmentation.NONE);
    }

    /**
     * @param totalSteps   the run's planned number of steps, for a decay schedule whose decay_steps is 0
     * @param augmentation applied to the minibatches of {@link #step(LabelledWindows, int[], int, int)}
     */
    public LocalSteps(ModelConfig config, TrainConfig train, TrainingState state, long totalSteps, CaseAugmentation augmentation) {
        this(config, train, state, totalSteps, augmentation, StepOptions.DEFAULT);
    }

    /**
     * @param totalSteps   the run's planned number of steps, for a decay schedule whose decay_steps is 0
     * @param augmentation applied to the minibatches of {@link #step(LabelledWindows, int[], int, int)}
     * @param options      how steps run (train.execution); replay only on the CPU backend: on CUDA the
     *                     recorded calls would run on device arrays whose host copies SameDiff's session
     *                     keeps in step, which has not been run on a GPU here
     */
    public LocalSteps(ModelConfig config, TrainConfig train, TrainingState state, long totalSteps, CaseAugmentation augmentation,
                      StepOptions options) {
        this.config = config.validated();
        train.requireValid();
        this.train = train;
        this.augmentation = augmentation;
        this.schedule = WarmupDecaySchedule.of(train.optimizer, totalSteps);
        this.graph = LanguageIdGraph.buildForTraining(config, state.parameters.dup(),
                new LanguageIdGraph.Training(train.dropout, train.teacherWeight()));
        this.sd = graph.sameDiff();
        this.parameterNames = graph.parameterNames();
        this.gradient = Nd4j.zeros(state.parameters.dataType(), state.parameters.length());
        this.gradientViews = graph.layout().views(gradient);
        this.sameDiff = new SameDiffExecution(sd);
        this.execution = options.execution() == TrainConfig.Execution.REPLAY && HostMemory.cpuBackend()
                ? new ReplayedExecution(sameDiff, options.rewrites(), options.profileEverySteps())
                : sameDiff;
        this.tableOffset = config.ngrams()
                ? graph.layout().params().stream().filter(p -> LanguageIdGraph.NGRAM_TABLE.equals(p.name())).findFirst().orElseThrow().offset()
                : -1;
        load(state);
    }

    /** Continues from {@code state} (the same object is then updated in place by each step). */
    public void load(TrainingState state) {
        if (state.parameters.length() != graph.layout().size()) {
            throw new IllegalArgumentException("state has " + state.parameters.length() + " parameters, the model "
                    + graph.layout().size());
        }
        this.state = state;
        if (tableOffset >= 0) {
            state.placeParameters(tableOffset);
        }
        this.parameterViews = graph.layout().views(state.parameters);
        long n = state.parameters.length();
        this.firstMoment = state.updaterState.get(NDArrayIndex.interval(0, n));
        this.secondMoment = state.updaterState.get(NDArrayIndex.interval(n, 2 * n));
        if (config.ngrams()) {
            this.firstMomentTable = graph.layout().views(firstMoment).get(LanguageIdGraph.NGRAM_TABLE);
            this.secondMomentTable = graph.layout().views(secondMoment).get(LanguageIdGraph.NGRAM_TABLE);
        }
        pushParameters();
    }

    /** Releases the distillation teachers' ONNX sessions, if any (a later step would open them again). */
    public void closeTeacher() {
        if (teacher != null) {
            teacher.close();
            teacher = null;
        }
    }

    /** Replaces the augmentation of later steps (a cached graph serves several Spark workers). */
    public void augment(CaseAugmentation augmentation) {
        this.augmentation = augmentation;
    }

    public TrainingState state() {
        return state;
    }

    /** Adds a SameDiff listener to the training graph (e.g. a ProfilingListener, for bench train --trace). */
    public void addListener(org.nd4j.autodiff.listeners.Listener listener) {
        sameDiff.addListener(listener);
        stopReplaying();   // a replayed step runs no SameDiff op for the listener to see
    }

    /** The batch sizes whose steps are replayed now. */
    Set<Integer> replayedBatchSizes() {
        return execution instanceof ReplayedExecution replayed ? replayed.batchSizes() : Set.of();
    }

    /** Calls of the replayed steps, all kinds. */
    int replayedCalls() {
        return replayedCalls(null);
    }

    /** Calls of the replayed steps that {@code kernel} runs. */
    int replayedCalls(Call.Kernel kernel) {
        return execution instanceof ReplayedExecution replayed ? replayed.calls(kernel) : 0;
    }

    /** The calls each rewrite pass changed when the last replayed batch size was recorded. */
    Map<Rewrites.Pass, Integer> lastRewrites() {
        return execution instanceof ReplayedExecution replayed ? replayed.lastRewrites() : Map.of();
    }

    /** From now on every step runs through SameDiff's session. */
    void stopReplaying() {
        if (execution instanceof ReplayedExecution replayed) {
            replayed.close();
            execution = sameDiff;
        }
    }

    /** One step on the windows {@code indices[from, to)} of {@code data}, augmented; returns the minibatch loss. */
    public double step(LabelledWindows data, int[] indices, int from, int to) {
        Batch batch = Batch.of(data, indices, from, to, augmentation, state.step);
        return step(batch.windows(), batch.labels());
    }

    /**
     * One step: gradients of the mean cross-entropy on the batch, then Adam.
     *
     * @param windows (B, T) INT32 symbol indices
     * @param labels  (B) INT32 language indices
     */
    public double step(INDArray windows, INDArray labels) {
        double loss = computeGradient(windows, labels);
        double rate = schedule.at(state.step);
        if (changesOnlySelectedTableRows()) {
            // The table is last in the layout: everything before it is updated densely.
            denseStep(NDArrayIndex.interval(0, state.parameters.length() - firstMomentTable.length()), rate);
            if ("sgd".equals(train.optimizer.ngramUpdates)) {
                TableRows.sgd(parameterViews.get(LanguageIdGraph.NGRAM_TABLE), lastNgramRows, lastRowGradients,
                        rate * train.optimizer.ngramLearningRate / train.optimizer.learningRate);
            } else {
                adamOnTableRows(lastNgramRows, rate);
            }
        } else {
            denseStep(null, rate);
        }
        state.step++;
        pushParameters();
        return loss;
    }

    /**
     * The optimizer's step on a range of the flat vector (null: all of it), in place. Adam: the
     * gradient becomes the update, the moments advance.
     */
    private void denseStep(org.nd4j.linalg.indexing.INDArrayIndex range, double rate) {
        INDArray update = range == null ? gradient : gradient.get(range);
        Nd4j.exec(new AdamUpdater(update, range == null ? secondMoment : secondMoment.get(range),
                range == null ? firstMoment : firstMoment.get(range), rate,
                train.optimizer.beta1, train.optimizer.beta2, train.optimizer.epsilon, Math.toIntExact(state.step)));
        (range == null ? state.parameters : state.parameters.get(range)).subi(update);
    }

    /** Adam on the n-gram table's rows {@code rows} only (lazy updates); the other rows and their moments stay. */
    private void adamOnTableRows(int[] rows, double rate) {
        if (rows == null || rows.length == 0) {
            return;
        }
        INDArray[] tables = {null, secondMomentTable, firstMomentTable, parameterViews.get(LanguageIdGraph.NGRAM_TABLE)}; // each (buckets, d)
        INDArray[] selected = new INDArray[tables.length];                                                     // each (u, d)
        selected[0] = BulkArrays.of(lastRowGradients, state.parameters.dataType())
                .reshape(rows.length, config.ngramWidth());                                                    // the rows' gradients
        for (int i = 1; i < tables.length; i++) {
            selected[i] = Nd4j.pullRows(tables[i], 1, rows);
        }
        Nd4j.exec(new AdamUpdater(selected[0], selected[1], selected[2], rate,
                train.optimizer.beta1, train.optimizer.beta2, train.optimizer.epsilon, Math.toIntExact(state.step)));
        selected[3].subi(selected[0]);
        for (int i = 1; i < tables.length; i++) {
            TableRows.assign(tables[i], rows, BulkArrays.doubles(selected[i]));
        }
    }

    /**
     * Whether a step changes only the n-gram table rows its minibatch selected ({@link #lastTableRows()}),
     * values and moments alike: lazy updates. Otherwise (dense Adam) every row moves every step.
     */
    public boolean changesOnlySelectedTableRows() {
        return train.sparseTableUpdates(config);
    }

    /** The distinct n-gram table rows the last step's minibatch selected (empty before the first step). */
    public int[] lastTableRows() {
        return lastNgramRows == null ? new int[0] : lastNgramRows;
    }

    /**
     * The flat gradient the last {@link #computeGradient} left (Adam then turns it into the
     * update). With lazy or sgd table updates the table's part is written here only when asked
     * (the step itself reads the compact row gradients): its selected rows, the others as before.
     */
    INDArray gradient() {
        if (changesOnlySelectedTableRows() && lastNgramRows != null) {
            TableRows.assign(gradientViews.get(LanguageIdGraph.NGRAM_TABLE), lastNgramRows, lastRowGradients);
        }
        return gradient;
    }

    /**
     * The gradient of the mean cross-entropy on the batch into {@link #gradient()}, laid out as
     * the parameters are (the n-gram table's part scattered from its placeholder's gradient).
     *
     * @return the minibatch loss
     */
    double computeGradient(INDArray windows, INDArray labels) {
        if (train.dropout > 0) {
            // Dropout masks are a function of (seed, step): a re-run step draws the same ones.
            Nd4j.getRandom().setSeed(train.seed * 1_000_003L + state.step);
        }
        Map<String, INDArray> placeholders = new HashMap<>();
        int batchRows = (int) windows.size(0);
        // The batch's symbols, row-major, read once for both the teachers and the n-gram lookup.
        int[] symbols = train.distillation.enabled() || config.ngrams() ? windows.dup('c').data().asInt() : null;
        INDArray teacherTargets = null;
        if (train.distillation.enabled()) {
            if (teacher == null) {
                teacher = Teacher.of(config, train.distillation);
            }
            teacherTargets = BulkArrays.of(teacher.probabilities(symbols, batchRows), state.parameters.dataType())
                    .reshape(batchRows, config.classes());                                              // (B, C)
        }
        placeholders.put(LanguageIdGraph.WINDOWS, windows);
        placeholders.put(LanguageIdGraph.LABELS, labels);
        int rows = (int) windows.size(0);
        if (teacherTargets != null) {
            placeholders.put(LanguageIdGraph.TEACHER, teacherTargets);                                   // (rows, C)
        }
        for (String mask : graph.dropoutMasks()) {
            placeholders.put(mask, LanguageIdGraph.dropoutMask(state.parameters.dataType(), windows.size(0) * config.window,
                    config.dModel, train.dropout));                                                      // (B·T, d)
        }
        List<String> wanted = parameterNames;
        int[] ngramIds = null;
        int[] ngramRows = null;
        double[] ngramMask = null;
        if (config.ngrams()) {
            // The rows this batch selects are gathered here and their gradient scattered back
            // below (see CharacterNgrams); with dropout, the n-gram input is dropped out too. No
            // n-gram filter: it is made of the training windows' n-grams, so it would pass them all.
            INDArray table = parameterViews.get(LanguageIdGraph.NGRAM_TABLE);
            int[] ids = CharacterNgrams.buckets(config.alphabet, symbols, rows, config.window, config.ngramMaxOrder, (int) table.size(0), null);
            if (train.ngramDropout > 0) {   // drawn from (seed, step), as the dropout masks: a re-run step drops the same
                CharacterNgrams.dropNgrams(ids, train.ngramDropout, new java.util.SplittableRandom(train.seed * 1_000_003L + state.step));
            }
            CharacterNgrams.Lookup lookup = CharacterNgrams.lookup(ids, rows * config.window, config.ngramMaxOrder - 1, table);
            ngramIds = lookup.ids();
            ngramRows = lookup.tableRows();
            lastNgramRows = ngramRows;
            double[] summed = lookup.summed();                                                             // (B·T, e)
            if (train.dropout > 0) {
                ngramMask = LanguageIdGraph.dropoutMask(DataType.DOUBLE, (long) rows * config.window, config.ngramWidth(), train.dropout)
                        .data().asDouble();                                                                 // (B·T, e)
                for (int i = 0; i < summed.length; i++) {
                    summed[i] *= ngramMask[i];
                }
            }
            placeholders.put(LanguageIdGraph.NGRAMS, BulkArrays.of(summed, state.parameters.dataType())
                    .reshape(rows * config.window, config.ngramWidth()));                                    // (B·T, e)
            wanted = new java.util.ArrayList<>(parameterNames);
            wanted.add(LanguageIdGraph.NGRAMS);
        }
        Map<String, INDArray> gradients = execution.run(placeholders, wanted, rows);
        if (ngramIds != null) {
            double[] inputGradient = BulkArrays.doubles(gradients.get(LanguageIdGraph.NGRAMS));           // (B·T, e)
            if (ngramMask != null) {
                for (int i = 0; i < inputGradient.length; i++) {
                    inputGradient[i] *= ngramMask[i];
                }
            }
            int e = config.ngramWidth();
            double[] rowGradients = new double[ngramRows.length * e];                                         // (u, e)
            CharacterNgrams.scatter(ngramIds, rows * config.window, config.ngramMaxOrder - 1, inputGradient, e, rowGradients);
            lastRowGradients = rowGradients;
            if (!changesOnlySelectedTableRows()) {
                // Dense Adam reads every row of the table-sized gradient (64M values at a million
                // buckets); lazy and sgd updates step from the compact row gradients instead.
                INDArray tableGradient = gradientViews.get(LanguageIdGraph.NGRAM_TABLE);
                tableGradient.assign(0);
                TableRows.assign(tableGradient, ngramRows, rowGradients);
            }
        }
        for (String name : parameterNames) {
            INDArray g = gradients.get(name);
            if (g == null) {
                throw new IllegalStateException("SameDiff returned no gradient for parameter " + name + ": it does not reach the loss");
            }
            gradientViews.get(name).assign(g);
        }
        return gradients.get(StepExecution.LOSS).getDouble(0);
    }

    /** The learning rate the next step will use. */
    public double learningRate() {
        return schedule.at(state.step);
    }

    /** Copies the state's parameters into the graph's variables. */
    private void pushParameters() {
        for (String name : parameterNames) {
            INDArray variable = sd.getArrForVarName(name);
            INDArray value = parameterViews.get(name);
            if (variable != value) {
                variable.assign(value);
            }
        }
    }

    /** A minibatch as the graph's placeholders. */
    public record Batch(INDArray windows, INDArray labels) {

        public static Batch of(LabelledWindows data, int[] indices, int from, int to) {
            return of(data, indices, from, to, CaseAugmentation.NONE, 0);
        }

        /** The windows {@code indices[from, to)}, with {@code augmentation} drawn for {@code step}. */
        public static Batch of(LabelledWindows data, int[] indices, int from, int to, CaseAugmentation augmentation, long step) {
            int t = data.windowLength();
            int b = to - from;
            int[] symbols = new int[b * t];
            int[] labels = new int[b];
            char[] source = data.symbols();
            for (int row = 0; row < b; row++) {
                int index = indices[from + row];
                for (int j = 0; j < t; j++) {
                    symbols[row * t + j] = source[index * t + j];
                }
                labels[row] = data.labels()[index];
            }
            if (augmentation.share() > 0) {
                augmentation.apply(symbols, t, Arrays.copyOfRange(indices, from, to), step);
            }
            return new Batch(Nd4j.createFromArray(symbols).reshape(b, t).castTo(DataType.INT32),
                    Nd4j.createFromArray(labels).castTo(DataType.INT32));
        }
    }
}
