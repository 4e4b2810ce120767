package org.langid.model.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.langid.model.TestConfigs;
import org.langid.model.graph.CharacterNgrams;
import org.langid.model.graph.LanguageIdGraph;
import org.langid.model.graph.ModelConfig;
import org.langid.model.graph.ParameterLayout;
import org.langid.text.Alphabet;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * {@code optimizer.ngram_updates: lazy}: Adam touches only the n-gram table rows the minibatch
 * selected. Everything else is exactly the dense update; rows a step did not select keep their
 * values and both moments, where dense Adam's momentum keeps moving them.
 */
class LazyNgramUpdatesTest {

    private static final ModelConfig CONFIG = TinyNgramModel.config(64);

    private static TrainConfig train(String updates) {
        TrainConfig train = TestConfigs.training();
        train.optimizer.warmupSteps = 0;
        train.optimizer.ngramUpdates = updates;
        return train;
    }

    private static final int[][] FIRST = TinyNgramModel.WINDOWS;
    private static final int[][] SECOND = {{40, 41, 42, 43, 44}, {50, 51, 52, 53, 54}};

    @Test
    void onlyTheSelectedRowsMoveAndEverythingElseIsDenseAdam() {
        ModelConfig lazyConfig = CONFIG;
        ParameterLayout layout = ParameterLayout.of(lazyConfig);
        INDArray initial = layout.initialise(5, DataType.DOUBLE);
        TrainingState dense = TrainingState.start(initial.dup());
        TrainingState lazy = TrainingState.start(initial.dup());
        LocalSteps denseSteps = new LocalSteps(CONFIG, train("dense"), dense, 10);
        LocalSteps lazySteps = new LocalSteps(CONFIG, train("lazy"), lazy, 10);
        long tableStart = layout.size() - (long) lazyConfig.ngramBuckets * lazyConfig.dModel;
        int d = lazyConfig.dModel;

        INDArray labels = Nd4j.createFromArray(new int[] {1, 2});
        denseSteps.step(windows(FIRST), labels);
        lazySteps.step(windows(FIRST), labels);
        // First step: moments start at zero, so unselected rows stay in both and the two agree everywhere.
        assertArrayEquals(dense.parameters.toDoubleVector(), lazy.parameters.toDoubleVector(), 1e-12);
        assertArrayEquals(dense.updaterState.toDoubleVector(), lazy.updaterState.toDoubleVector(), 1e-12);
        assertFalse(Arrays.equals(initial.toDoubleVector(), lazy.parameters.toDoubleVector()), "the step changed something");

        double[] lazyAfterFirst = lazy.parameters.toDoubleVector();
        double[] lazyMomentsAfterFirst = lazy.updaterState.toDoubleVector();
        double[] denseAfterFirst = dense.parameters.toDoubleVector();
        denseSteps.step(windows(SECOND), labels);
        lazySteps.step(windows(SECOND), labels);

        Set<Integer> first = rows(FIRST, lazyConfig, lazy);
        Set<Integer> second = rows(SECOND, lazyConfig, lazy);
        Set<Integer> onlyFirst = first.stream().filter(r -> !second.contains(r)).collect(Collectors.toSet());
        assertFalse(onlyFirst.isEmpty(), "the batches select different rows");
        double[] lazyNow = lazy.parameters.toDoubleVector();
        double[] lazyMoments = lazy.updaterState.toDoubleVector();
        double[] denseNow = dense.parameters.toDoubleVector();
        long n = layout.size();
        for (int row : onlyFirst) {
            for (int j = 0; j < d; j++) {
                int i = (int) (tableStart + (long) row * d + j);
                assertEquals(lazyAfterFirst[i], lazyNow[i], 0.0, "lazy: row " + row + " was not selected, so it stays");
                assertEquals(lazyMomentsAfterFirst[i], lazyMoments[i], 0.0, "lazy: its first moment stays");
                assertEquals(lazyMomentsAfterFirst[(int) n + i], lazyMoments[(int) n + i], 0.0, "lazy: its second moment stays");
            }
        }
        boolean denseMovedThem = onlyFirst.stream().anyMatch(row -> {
            int i = (int) (tableStart + (long) row * d);
            return denseNow[i] != denseAfterFirst[i];
        });
        assertTrue(denseMovedThem, "dense Adam's momentum moves rows the step did not select");
        for (int row : second) {
            int i = (int) (tableStart + (long) row * d);
            assertTrue(lazyNow[i] != lazyAfterFirst[i], "lazy: selected row " + row + " is updated");
        }
        assertEquals(2, lazy.step);
    }

    @Test
    void sgdStepsTheSelectedRowsByRateTimesGradientAndLeavesTheRestToAdam() {
        ModelConfig sgdConfig = CONFIG;
        TrainConfig sgdTraining = train("sgd");
        sgdTraining.optimizer.ngramLearningRate = 0.5;
        sgdTraining.optimizer.decay = "none";                        // the rate is learning_rate at every step
        TrainConfig lazyTraining = train("lazy");
        lazyTraining.optimizer.decay = "none";
        ParameterLayout layout = ParameterLayout.of(sgdConfig);
        INDArray initial = layout.initialise(5, DataType.DOUBLE);
        TrainingState sgd = TrainingState.start(initial.dup());
        TrainingState lazy = TrainingState.start(initial.dup());
        LocalSteps sgdSteps = new LocalSteps(CONFIG, sgdTraining, sgd, 10);
        LocalSteps lazySteps = new LocalSteps(CONFIG, lazyTraining, lazy, 10);
        int tableStart = Math.toIntExact(layout.size() - (long) sgdConfig.ngramBuckets * sgdConfig.dModel);
        int d = sgdConfig.dModel;
        INDArray labels = Nd4j.createFromArray(new int[] {1, 2});

        sgdSteps.step(windows(FIRST), labels);
        double[] afterFirst = sgd.parameters.toDoubleVector();
        sgdSteps.step(windows(SECOND), labels);
        lazySteps.step(windows(FIRST), labels);
        lazySteps.step(windows(SECOND), labels);
        double[] now = sgd.parameters.toDoubleVector();
        double[] gradient = sgdSteps.gradient().toDoubleVector();   // the table's part is still the raw gradient

        Set<Integer> selected = rows(SECOND, sgdConfig, sgd);
        for (int row = 0; row < sgdConfig.ngramBuckets; row++) {
            for (int j = 0; j < d; j++) {
                int i = tableStart + row * d + j;
                double expected = selected.contains(row) ? afterFirst[i] - 0.5 * gradient[i] : afterFirst[i];
                assertEquals(expected, now[i], 1e-12, "table row " + row);
            }
        }
        assertTrue(selected.stream().anyMatch(row -> now[tableStart + row * d] != afterFirst[tableStart + row * d]),
                "the selected rows had a gradient");
        // Everything before the table is Adam, as with lazy updates: the same after the same
        // batches wherever the tables agree, i.e. on the first step.
        double[] lazyNow = lazy.parameters.toDoubleVector();
        assertFalse(Arrays.equals(Arrays.copyOf(initial.toDoubleVector(), tableStart), Arrays.copyOf(now, tableStart)));
        double[] sgdMoments = sgd.updaterState.toDoubleVector();
        long n = layout.size();
        for (int i = tableStart; i < n; i++) {
            assertEquals(0.0, sgdMoments[i], 0.0, "the table has no Adam moments under sgd");
            assertEquals(0.0, sgdMoments[(int) n + i], 0.0);
        }
        assertTrue(Arrays.stream(Arrays.copyOf(sgdMoments, tableStart)).anyMatch(m -> m != 0), "Adam moments for the rest");
        assertFalse(Arrays.equals(lazyNow, now), "the table's updates differ from lazy Adam's");
    }

    @Test
    void aTableThatStartsAtZeroLearnsTheSelectedRowsAndLeavesTheOthersAtZero() {
        ModelConfig config = TinyNgramModel.config(64);
        config.ngramInit = ModelConfig.NGRAM_INIT_ZERO;
        TrainConfig sgdTraining = train("sgd");
        sgdTraining.optimizer.ngramLearningRate = 0.5;
        ParameterLayout layout = ParameterLayout.of(config.validated());
        INDArray initial = layout.initialise(5, DataType.DOUBLE);
        int tableStart = Math.toIntExact(layout.size() - (long) config.ngramBuckets * config.dModel);
        int d = config.dModel;
        double[] start = initial.toDoubleVector();
        assertTrue(Arrays.stream(start, tableStart, start.length).allMatch(v -> v == 0), "the table starts at zero");
        assertTrue(Arrays.stream(start, 0, tableStart).anyMatch(v -> v != 0), "the rest starts as usual");
        ModelConfig normal = TinyNgramModel.config(64);
        double[] normalStart = ParameterLayout.of(normal).initialise(5, DataType.DOUBLE).toDoubleVector();
        assertArrayEquals(Arrays.copyOf(normalStart, tableStart), Arrays.copyOf(start, tableStart), 0.0,
                "every other parameter starts as with a random table");

        TrainingState state = TrainingState.start(initial);
        new LocalSteps(config, sgdTraining, state, 10).step(windows(FIRST), Nd4j.createFromArray(new int[] {1, 2}));
        double[] now = state.parameters.toDoubleVector();
        Set<Integer> selected = rows(FIRST, config, state);
        for (int row = 0; row < config.ngramBuckets; row++) {
            double norm = 0;
            for (int j = 0; j < d; j++) {
                norm += Math.abs(now[tableStart + row * d + j]);
            }
            if (selected.contains(row)) {
                assertTrue(norm > 0, "row " + row + " was selected: it learned from zero");
            } else {
                assertEquals(0.0, norm, 0.0, "row " + row + " was not selected: it adds nothing yet");
            }
        }
    }

    @Test
    void anUnknownTableStartIsAClearConfigurationError() {
        ModelConfig config = TinyNgramModel.config(64);
        config.ngramInit = "uniform";
        IllegalArgumentException error = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, config::validated);
        assertTrue(error.getMessage().contains("ngram_init must be normal or zero, got 'uniform'"), error.getMessage());
    }

    @Test
    void sgdNeedsItsOwnLearningRate() {
        TrainConfig train = train("sgd");
        IllegalArgumentException error = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, train::requireValid);
        assertTrue(error.getMessage().contains("optimizer.ngram_learning_rate must be positive with ngram_updates sgd"), error.getMessage());
    }

    @Test
    void anUnknownUpdateModeIsAClearConfigurationError() {
        TrainConfig train = train("sparse");
        IllegalArgumentException error = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, train::requireValid);
        assertTrue(error.getMessage().contains("optimizer.ngram_updates 'sparse' is not one of dense, lazy"), error.getMessage());
    }

    private static INDArray windows(int[][] rows) {
        return Nd4j.createFromArray(rows);
    }

    private static Set<Integer> rows(int[][] windows, ModelConfig config, TrainingState state) {
        int[] symbols = Arrays.stream(windows).flatMapToInt(Arrays::stream).toArray();
        INDArray table = ParameterLayout.of(config).views(state.parameters).get(LanguageIdGraph.NGRAM_TABLE);
        return Arrays.stream(CharacterNgrams.lookup(Alphabet.SEED, symbols, windows.length, config.window, config.ngramMaxOrder, table, null).tableRows())
                .boxed().collect(Collectors.toSet());
    }
}
