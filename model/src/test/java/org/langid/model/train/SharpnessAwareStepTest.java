package org.langid.model.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.langid.model.graph.ModelConfig;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * {@code model.sharpness} (SAM): a step applies, at the parameters themselves, the batch's
 * gradient taken where the parameters are moved by sharpness along the batch's normalised
 * gradient, the table's selected rows included, with the same dropout and dropped n-grams.
 */
class SharpnessAwareStepTest {

    private static final double SHARPNESS = 0.05;

    /** dense: the table's gradient is part of the flat vector; sgd: only the rows the batch selects move. */
    @ParameterizedTest
    @ValueSource(strings = {"dense", "sgd"})
    void aStepAppliesTheGradientTakenAtTheSharpestNeighbourToTheParametersThemselves(String ngramUpdates) {
        ModelConfig config = TinyNgramModel.config(7);
        config.ngramDim = 3;
        config.ngramDropout = 0.3;        // drawn from (seed, step): the second pass must drop the same n-grams
        config.dropout = 0.25;            // and draw the same masks
        config.optimizer.name = "sgd";    // so that the expected step is rate · gradient
        config.optimizer.warmupSteps = 0;
        config.optimizer.ngramUpdates = ngramUpdates;
        config.optimizer.ngramLearningRate = "sgd".equals(ngramUpdates) ? config.optimizer.learningRate : 0;
        INDArray start = TinyNgramModel.parameters(config);
        INDArray windows = Nd4j.createFromArray(TinyNgramModel.WINDOWS);
        INDArray labels = Nd4j.createFromArray(new int[] {1, 2});

        // By hand: the gradient g at the start, then the gradient at start + sharpness · g / |g|.
        LocalSteps plain = new LocalSteps(config, TrainingState.start(start.dup()), 10);
        double lossAtStart = plain.computeGradient(windows, labels);
        INDArray g = plain.gradient().dup();
        double rate = plain.learningRate();
        INDArray neighbour = start.add(g.mul(SHARPNESS / g.norm2Number().doubleValue()));
        LocalSteps there = new LocalSteps(config, TrainingState.start(neighbour), 10);
        there.computeGradient(windows, labels);
        INDArray gradientThere = there.gradient().dup();

        config.sharpness = SHARPNESS;
        TrainingState state = TrainingState.start(start.dup());
        double loss = new LocalSteps(config, state, 10).step(windows, labels);

        assertEquals(lossAtStart, loss, 1e-12, "the step reports the loss at the parameters themselves");
        INDArray expected = start.sub(gradientThere.mul(rate));
        double largest = Nd4j.math().abs(state.parameters.sub(expected)).maxNumber().doubleValue();
        assertTrue(largest < 1e-9, "parameters after the step differ from start - rate · (gradient at the neighbour) by " + largest);
        double moved = Nd4j.math().abs(gradientThere.sub(g)).maxNumber().doubleValue() * rate;
        assertTrue(moved > 1e-6, "the neighbour's gradient differs from the start's, so the test tells the two steps apart: " + moved);
        assertEquals(1, state.step);
    }
}
