package org.langid.model.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.langid.model.TestConfigs;
import org.langid.model.graph.ModelConfig;
import org.langid.model.graph.ParameterLayout;
import org.langid.model.train.trace.Call;
import org.langid.model.train.trace.RecordedStep;
import org.langid.model.train.trace.passes.Rewrites;
import org.langid.text.Alphabet;
import org.nd4j.autodiff.listeners.At;
import org.nd4j.autodiff.listeners.BaseListener;
import org.nd4j.autodiff.listeners.Operation;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.autodiff.samediff.internal.SameDiffOp;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.OpContext;
import org.nd4j.linalg.dataset.api.MultiDataSet;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Replayed steps (ReplayedExecution) are SameDiff's steps, bit for bit: two trainers from one state, one
 * replaying and one always on SameDiff's session, must hold identical parameters and moments after
 * every step, across a change of batch size and back.
 */
class StepReplayTest {

    /** Every rewrite, the vector kernels on any vector width (narrower CPUs too). */
    private static final Rewrites EVERYWHERE = Rewrites.DEFAULT.withKernels(Rewrites.Kernels.EVERYWHERE);

    private static ModelConfig config(String variant) {
        ModelConfig config = RecordedStep.twoLayerConfig();
        switch (variant) {
            case "ngrams, sgd table, dropout" -> {
                config.ngramBuckets = 128;
                config.ngramMaxOrder = 4;
                config.ngramDim = 4;
            }
            case "no ngrams" -> config.ngramBuckets = 0;
            default -> throw new IllegalArgumentException(variant);
        }
        return config;
    }

    private static TrainConfig training(String variant) {
        TrainConfig train = TestConfigs.training();
        train.optimizer.warmupSteps = 2;
        if (variant.contains("sgd table")) {
            train.optimizer.ngramUpdates = "sgd";
            train.optimizer.ngramLearningRate = 5;
            train.dropout = 0.1;
        }
        return train;
    }

    @ParameterizedTest
    @ValueSource(strings = {"ngrams, sgd table, dropout", "no ngrams"})
    void replayedStepsAreBitIdenticalToSameDiffSteps(String variant) {
        // libnd4j's own ops: the replacements sum in another order (the next test).
        compare(variant, 0.0, Rewrites.DEFAULT.withKernels(Rewrites.Kernels.NONE));
    }

    /**
     * With the replaced calls (sums as products with constant vectors, the vector API's products):
     * the same steps, to float rounding. Rounding differences grow over the steps (the n-gram
     * table's SGD runs at learning rate 5), hence 1e-4 relative; each replacement is checked
     * against libnd4j's op to 1e-5 in NativeShortcutsTest and VectorKernelsTest.
     */
    @ParameterizedTest
    @ValueSource(strings = {"ngrams, sgd table, dropout", "no ngrams"})
    void replayedStepsWithVectorProductsFollowSameDiffSteps(String variant) {
        // on narrower CPUs too; the attention's products as separate calls
        LocalSteps replayed = compare(variant, 1e-4, EVERYWHERE.without(Rewrites.Pass.ATTENTION_FUSION));
        assertTrue(replayed.replayedCalls(Call.Kernel.VECTOR) >= 2 * 6,
                "each layer's four batched products (two of them backward) ran on the vector API: " + replayed.replayedCalls(Call.Kernel.VECTOR));
        assertTrue(replayed.replayedCalls(Call.Kernel.SHORTCUT) >= 2 * 12,
                "bias gradients ran as products: " + replayed.replayedCalls(Call.Kernel.SHORTCUT));
        assertEquals(2 * 2 * (5 + RELUS + 1), replayed.replayedCalls(Call.Kernel.FUSED),
                "each plan fused its five layer norms, its ReLUs and the embedding's lookup, forward and backward");
    }

    /**
     * With each attention's core (scores, scale, mask, softmax, the product with V and their
     * backward) fused into one pass per block (AttentionFusion): the same steps, to float rounding
     * (windows of 6 and heads of 4: every row a partial vector).
     */
    @ParameterizedTest
    @ValueSource(strings = {"ngrams, sgd table, dropout", "no ngrams"})
    void replayedStepsWithFusedAttentionFollowSameDiffSteps(String variant) {
        LocalSteps replayed = compare(variant, 1e-4, EVERYWHERE);
        assertEquals(2 * 2 * (5 + 2 + RELUS + 1), replayed.replayedCalls(Call.Kernel.FUSED),
                "each plan (batch sizes 5 and 3) fused its five layer norms, two attention cores, its ReLUs and the embedding's lookup, forward and backward");
        assertEquals(0, replayed.replayedCalls(Call.Kernel.VECTOR), "no batched product was left outside the fused cores");
    }

    /** The ReLUs a step runs in either variant: one per layer's feed-forward, two layers. */
    private static final int RELUS = 2;

    /**
     * Products that read and write the heads' (B, T, H, C) layout in place, without the copies
     * around them, compute the same floats: bit for bit against the plan that keeps the copies.
     */
    @ParameterizedTest
    @ValueSource(strings = {"ngrams, sgd table, dropout", "no ngrams"})
    void productsWithoutTheHeadCopiesAreExact(String variant) {
        LocalSteps[] pair = trainWithAndWithout(variant, Rewrites.Pass.HEAD_LAYOUTS, 11);
        // two layers, each: Q, K, V, the output and their four gradients, each a permute and a copy
        assertEquals(pair[1].replayedCalls() - 2 * 16, pair[0].replayedCalls(), "the head permutes and copies were dropped");
    }

    /** The fused ReLUs multiply by the mask's own 1 or 0: training with them is training without them, bit for bit. */
    @ParameterizedTest
    @ValueSource(strings = {"ngrams, sgd table, dropout", "no ngrams"})
    void fusedRelusTrainExactlyAsComposedOnes(String variant) {
        LocalSteps[] pair = trainWithAndWithout(variant, Rewrites.Pass.RELU_FUSION, 13);
        assertEquals(pair[1].replayedCalls() - 2 * RELUS, pair[0].replayedCalls(), "each ReLU's four calls ran as two");
    }

    /**
     * Trains two copies from one state on the same batches, one with the rewrite {@code pass}, one
     * without (the vector kernels on for both), and checks after every step that their parameters
     * and moments are the same bits; returns {with, without}.
     */
    private static LocalSteps[] trainWithAndWithout(String variant, Rewrites.Pass pass, long seed) {
        ModelConfig config = config(variant);
        INDArray initial = ParameterLayout.of(config).initialise(3, DataType.FLOAT);
        TrainingState onState = TrainingState.start(initial.dup());
        TrainingState offState = TrainingState.start(initial.dup());
        LocalSteps on = new LocalSteps(config, training(variant), onState, 20, CaseAugmentation.NONE, StepOptions.replay(EVERYWHERE));
        LocalSteps off = new LocalSteps(config, training(variant), offState, 20, CaseAugmentation.NONE,
                StepOptions.replay(EVERYWHERE.without(pass)));
        Random random = new Random(seed);
        for (int step = 0; step < 6; step++) {
            INDArray windows = windows(random, 5, config.window);
            INDArray labels = labels(random, 5, config.classes());
            on.step(windows, labels);
            off.step(windows.dup(), labels.dup());
            assertArrayEquals(offState.parameters.toFloatVector(), onState.parameters.toFloatVector(), "parameters after step " + step);
            assertArrayEquals(offState.updaterState.toFloatVector(), onState.updaterState.toFloatVector(), "moments after step " + step);
        }
        return new LocalSteps[] {on, off};
    }

    /** Trains a copy replaying with {@code rewrites} and a SameDiff-only copy side by side; returns the replaying one. */
    private static LocalSteps compare(String variant, double tolerance, Rewrites rewrites) {
        ModelConfig config = config(variant);
        INDArray initial = ParameterLayout.of(config).initialise(3, DataType.FLOAT);
        TrainingState replayedState = TrainingState.start(initial.dup());
        TrainingState sameDiffState = TrainingState.start(initial.dup());
        LocalSteps replayed = new LocalSteps(config, training(variant), replayedState, 20, CaseAugmentation.NONE, StepOptions.replay(rewrites));
        LocalSteps sameDiff = new LocalSteps(config, training(variant), sameDiffState, 20, CaseAugmentation.NONE, StepOptions.SAMEDIFF);
        Random random = new Random(7);
        int[] batchSizes = {5, 5, 5, 5, 3, 3, 3, 5, 5, 3, 5};
        for (int step = 0; step < batchSizes.length; step++) {
            INDArray windows = windows(random, batchSizes[step], config.window);
            INDArray labels = labels(random, batchSizes[step], config.classes());
            double replayedLoss = replayed.step(windows, labels);
            double sameDiffLoss = sameDiff.step(windows.dup(), labels.dup());
            assertEquals(sameDiffLoss, replayedLoss, tolerance, "loss of step " + step);
            if (tolerance == 0) {
                assertArrayEquals(sameDiffState.parameters.toFloatVector(), replayedState.parameters.toFloatVector(), "parameters after step " + step);
                assertArrayEquals(sameDiffState.updaterState.toFloatVector(), replayedState.updaterState.toFloatVector(), "moments after step " + step);
            } else {
                assertClose(withoutKeyBiases(config, sameDiffState.parameters), withoutKeyBiases(config, replayedState.parameters),
                        tolerances(config, tolerance), "parameters after step " + step);
            }
        }
        assertEquals(Set.of(5, 3), replayed.replayedBatchSizes(), "both batch sizes were replayed");
        assertEquals(Set.of(), sameDiff.replayedBatchSizes());
        return replayed;
    }

    /** Equal within {@code tolerance[i]} of the larger of 1 and the value. */
    private static void assertClose(float[] expected, float[] actual, double[] tolerance, String what) {
        for (int i = 0; i < expected.length; i++) {
            double allowed = tolerance[i] * Math.max(1.0, Math.abs(expected[i]));
            if (Math.abs(expected[i] - actual[i]) > allowed) {
                throw new AssertionError(what + ": element " + i + " is " + actual[i] + ", SameDiff's " + expected[i]);
            }
        }
    }

    /**
     * {@code tolerance} for every parameter, ten times it for the n-gram table's entries: plain SGD
     * at learning rate 5 passes a gradient's rounding on unscaled (Adam would normalise it), and an
     * entry seen once moved 1.8e-4 (relative) apart in one step while the rest stayed within 1e-5.
     */
    private static double[] tolerances(ModelConfig config, double tolerance) {
        ParameterLayout layout = ParameterLayout.of(config);
        double[] tolerances = new double[(int) layout.size()];
        java.util.Arrays.fill(tolerances, tolerance);
        for (ParameterLayout.Param param : layout.params()) {
            if (param.name().equals(org.langid.model.graph.LanguageIdGraph.NGRAM_TABLE)) {
                java.util.Arrays.fill(tolerances, (int) param.offset(), (int) (param.offset() + param.length()), 10 * tolerance);
            }
        }
        return tolerances;
    }

    /**
     * The parameters without the attention's key biases. Their gradient is zero in exact arithmetic
     * (a bias added to every key shifts each query's scores by one constant, which softmax ignores),
     * so what the step computes for it is rounding noise, and Adam scales noise up to steps of the
     * learning rate's size: summed in another order, the noise and those steps differ.
     */
    private static float[] withoutKeyBiases(ModelConfig config, INDArray parameters) {
        float[] all = parameters.toFloatVector();
        for (ParameterLayout.Param param : ParameterLayout.of(config).params()) {
            if (param.name().endsWith("attn/bk")) {
                java.util.Arrays.fill(all, (int) param.offset(), (int) (param.offset() + param.length()), 0f);
            }
        }
        return all;
    }

    @ParameterizedTest
    @ValueSource(strings = {"no ngrams"})
    void aListenerSeesEveryStepAgain(String variant) {
        ModelConfig config = config(variant);
        LocalSteps steps = new LocalSteps(config, training(variant), TrainingState.start(ParameterLayout.of(config).initialise(3, DataType.FLOAT)), 20);
        Random random = new Random(7);
        for (int step = 0; step < 4; step++) {
            steps.step(windows(random, 4, config.window), labels(random, 4, config.classes()));
        }
        assertEquals(Set.of(4), steps.replayedBatchSizes());
        AtomicInteger ops = new AtomicInteger();
        steps.addListener(new BaseListener() {
            @Override
            public boolean isActive(Operation operation) {
                return true;
            }

            @Override
            public void opExecution(SameDiff sd, At at, MultiDataSet batch, SameDiffOp op, OpContext context, INDArray[] outputs) {
                ops.incrementAndGet();
            }
        });
        steps.step(windows(random, 4, config.window), labels(random, 4, config.classes()));
        assertTrue(ops.get() > 50, "the listener saw the step's ops: " + ops.get());
        assertEquals(Set.of(), steps.replayedBatchSizes());
    }

    private static INDArray windows(Random random, int rows, int length) {
        int[][] symbols = new int[rows][length];
        for (int[] row : symbols) {
            int real = 2 + random.nextInt(length - 1);   // some windows padded at the end
            for (int j = 0; j < length; j++) {
                row[j] = j < real ? random.nextInt(Alphabet.SEED.pad()) : Alphabet.SEED.pad();
            }
        }
        return Nd4j.createFromArray(symbols);
    }

    private static INDArray labels(Random random, int rows, int classes) {
        int[] labels = new int[rows];
        for (int i = 0; i < rows; i++) {
            labels[i] = random.nextInt(classes);
        }
        return Nd4j.createFromArray(labels);
    }
}
