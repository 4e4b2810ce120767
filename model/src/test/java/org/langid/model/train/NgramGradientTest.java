package org.langid.model.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.langid.model.TestConfigs;
import org.langid.model.graph.LanguageIdGraph;
import org.langid.model.graph.ModelConfig;
import org.langid.model.graph.ParameterLayout;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The n-gram table is trained outside SameDiff (its rows gathered into a placeholder, the
 * placeholder's gradient scattered back), and dropout's masks come in as placeholders too: the
 * table's gradient, and that of every other parameter beside it, must still equal central
 * finite differences of the loss.
 */
class NgramGradientTest {

    /**
     * ngram_dim 0: the table's rows are d_model wide; 3: narrower rows through a learned (3, d)
     * projection. ngram_dropout 0.3: a step's dropped n-grams are drawn from (seed, step), so every
     * evaluation of the loss below drops the same ones, and their rows get no gradient from them.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({"0, 0", "3, 0", "3, 0.3"})
    void theNgramTablesGradientMatchesFiniteDifferencesWithDropout(int ngramDim, double ngramDropout) {
        ModelConfig config = TinyNgramModel.config(7);   // few buckets: n-grams collide, so a row gathers several positions' gradients
        config.ngramDim = ngramDim;
        TrainConfig train = TestConfigs.training();
        train.ngramDropout = ngramDropout;
        train.dropout = 0.25;             // masks are drawn from (seed, step), the same in every evaluation below
        ParameterLayout layout = ParameterLayout.of(config);
        TrainingState state = TrainingState.start(TinyNgramModel.parameters(config));
        LocalSteps steps = new LocalSteps(config, train, state, 10);
        // The second row is padded: n-grams holding PAD select nothing and get no gradient.
        INDArray windows = Nd4j.createFromArray(TinyNgramModel.WINDOWS);
        INDArray labels = Nd4j.createFromArray(new int[] {1, 2});

        steps.computeGradient(windows, labels);
        double[] analytic = steps.gradient().dup().toDoubleVector();
        double eps = 1e-6;
        int checked = 0;
        int nonZeroTableEntries = 0;
        for (ParameterLayout.Param param : layout.params()) {
            boolean table = LanguageIdGraph.NGRAM_TABLE.equals(param.name());
            // Every entry of the table and its projection; the first few of each other parameter (the graph's own test covers them all).
            long entries = table || LanguageIdGraph.NGRAM_PROJECTION.equals(param.name()) ? param.length() : Math.min(3, param.length());
            for (long e = 0; e < entries; e++) {
                long i = param.offset() + e;
                double original = state.parameters.getDouble(i);
                state.parameters.putScalar(i, original + eps);
                steps.load(state);
                double plus = steps.computeGradient(windows, labels);
                state.parameters.putScalar(i, original - eps);
                steps.load(state);
                double minus = steps.computeGradient(windows, labels);
                state.parameters.putScalar(i, original);
                double numeric = (plus - minus) / (2 * eps);
                double scale = Math.max(1e-4, Math.abs(numeric) + Math.abs(analytic[(int) i]));
                assertTrue(Math.abs(numeric - analytic[(int) i]) / scale < 1e-4,
                        param.name() + "[" + e + "]: analytic " + analytic[(int) i] + ", numeric " + numeric);
                if (table && Math.abs(analytic[(int) i]) > 1e-8) {
                    nonZeroTableEntries++;
                }
                checked++;
            }
        }
        assertTrue(checked > config.ngramBuckets * config.ngramWidth());
        assertEquals(ngramDim > 0, layout.params().stream().anyMatch(p -> LanguageIdGraph.NGRAM_PROJECTION.equals(p.name())));
        assertTrue(nonZeroTableEntries >= 2 * config.ngramWidth(), "the rows the n-grams select get gradients (some dropped out): " + nonZeroTableEntries);
        assertEquals(0, state.step, "computing gradients is not a step");
        if (ngramDropout > 0) {
            // The dropped n-grams are missing from the step: without n-gram dropout the table's gradient differs.
            train.ngramDropout = 0;
            LocalSteps without = new LocalSteps(config, train, TrainingState.start(state.parameters.dup()), 10);
            without.computeGradient(windows, labels);
            ParameterLayout.Param table = layout.params().stream().filter(p -> LanguageIdGraph.NGRAM_TABLE.equals(p.name())).findFirst().orElseThrow();
            double difference = 0;
            for (long e = 0; e < table.length(); e++) {
                difference += Math.abs(without.gradient().getDouble(table.offset() + e) - analytic[(int) (table.offset() + e)]);
            }
            assertTrue(difference > 1e-6, "n-gram dropout changes the table's gradient: " + difference);
        }
    }
}
