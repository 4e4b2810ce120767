package org.langid.model.train;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.langid.model.graph.LanguageIdGraph;
import org.langid.model.graph.ModelConfig;
import org.langid.model.graph.ParameterLayout;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.langid.model.TestConfigs;

/** One LocalSteps step equals Adam written out in plain Java on SameDiff's gradient. */
class AdamStepTest {

    @Test
    void aStepIsAdamWithBiasCorrectionAtTheScheduledRate() {
        ModelConfig config = TestConfigs.model();
        config.dModel = 8;
        config.heads = 2;
        config.layers = 1;
        config.ffn = 8;
        TrainConfig train = TestConfigs.training();
        train.optimizer.warmupSteps = 3;
        INDArray initial = ParameterLayout.of(config).initialise(5, DataType.FLOAT);
        INDArray windows = Nd4j.createFromArray(new int[][] {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, {20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35}});
        INDArray labels = Nd4j.createFromArray(new int[] {3, 5});

        // Reference: two steps of textbook Adam, gradients from a fresh graph each time.
        int n = (int) initial.length();
        double[] p = initial.toDoubleVector();
        double[] m = new double[n];
        double[] v = new double[n];
        WarmupDecaySchedule schedule = WarmupDecaySchedule.of(train.optimizer, 100);
        for (int t = 0; t < 2; t++) {
            INDArray current = Nd4j.createFromArray(p).castTo(DataType.FLOAT);
            LanguageIdGraph graph = LanguageIdGraph.buildForTraining(config, current, new LanguageIdGraph.Training(0, 0));
            var feed = new java.util.HashMap<String, INDArray>();
            feed.put(LanguageIdGraph.WINDOWS, windows);
            feed.put(LanguageIdGraph.LABELS, labels);
            var gradients = graph.sameDiff().calculateGradients(feed, graph.parameterNames());
            double[] g = new double[n];
            for (ParameterLayout.Param param : graph.layout().params()) {
                double[] part = gradients.get(param.name()).reshape(param.length()).toDoubleVector();
                System.arraycopy(part, 0, g, (int) param.offset(), part.length);
            }
            double rate = schedule.at(t);
            double b1 = train.optimizer.beta1;
            double b2 = train.optimizer.beta2;
            for (int i = 0; i < n; i++) {
                m[i] = b1 * m[i] + (1 - b1) * g[i];
                v[i] = b2 * v[i] + (1 - b2) * g[i] * g[i];
                // Kingma & Ba (2015), the efficient form at the end of section 2, which ND4J
                // implements: the bias corrections fold into the step size and epsilon is added
                // to sqrt(v) uncorrected. (PyTorch adds it to the corrected sqrt(v̂): the two differ
                // only where gradients are near epsilon, e.g. the key bias, whose true gradient is 0.)
                double stepSize = rate * Math.sqrt(1 - Math.pow(b2, t + 1)) / (1 - Math.pow(b1, t + 1));
                p[i] -= stepSize * m[i] / (Math.sqrt(v[i]) + train.optimizer.epsilon);
            }
        }

        TrainingState state = TrainingState.start(initial.dup());
        LocalSteps steps = new LocalSteps(config, train, state, 100);
        steps.step(windows, labels);
        steps.step(windows, labels);
        float[] actual = state.parameters.toFloatVector();
        // Each step moves a parameter by up to the learning rate (6.7e-4, then 1.3e-3), so a
        // wrong argument order, bias correction or rate shows as differences of that size.
        // The key biases are checked loosely: their true gradient is 0 (a shift of every key
        // leaves softmax unchanged), so theirs is float rounding noise that differs between
        // the float32 step and this reference, and Adam normalises noise to visible steps.
        double worst = 0;
        double worstKeyBias = 0;
        for (ParameterLayout.Param param : ParameterLayout.of(config).params()) {
            for (long i = param.offset(); i < param.offset() + param.length(); i++) {
                double difference = Math.abs(actual[(int) i] - p[(int) i]);
                if (param.name().endsWith("attn/bk")) {
                    worstKeyBias = Math.max(worstKeyBias, difference);
                } else {
                    worst = Math.max(worst, difference);
                }
            }
        }
        assertEquals(0.0, worst, 2e-6, "largest difference from Adam");
        assertEquals(0.0, worstKeyBias, 2e-4, "key biases: noise-level gradients");
        assertEquals(2, state.step);
    }
}
