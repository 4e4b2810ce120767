package org.langid.model.train;

import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * An exponential moving average of the parameters along a run, which is what the run exports
 * ({@code train.ema_span}). Updated every {@code averaging_frequency} steps (each Spark round),
 * with a decay set by the windows trained since the last update, so that the average's time
 * constant is {@code span} × the run's planned windows whatever the batch, workers or cadence:
 * β = exp(−windows / (span · planned windows)). The first update copies the parameters.
 * On one epoch of the sample, span 0.5 gave +0.3 to +0.45 points of UDHR windows and 0 to +0.13
 * of test windows over the last step's weights (bench/EXPERIMENTS.md, "Averaged weights").
 */
public final class WeightAverage {

    private final double span;
    private final double plannedWindows;

    /** @param span the average's time constant as a share of the run's planned windows; 0: no average */
    public WeightAverage(double span, long plannedWindows) {
        this.span = span;
        this.plannedWindows = plannedWindows;
    }

    public boolean enabled() {
        return span > 0;
    }

    /** Folds {@code state}'s parameters into its average, {@code windows} trained since the last update. */
    public void update(TrainingState state, long windows) {
        if (!enabled()) {
            return;
        }
        if (state.average == null) {
            state.average = state.parameters.dup();
            return;
        }
        double decay = Math.exp(-windows / (span * plannedWindows));
        // decay · average + (1 − decay) · parameters, in place: no parameter-sized temporary (67 MB for the profile's model)
        state.average.subi(state.parameters).muli(decay).addi(state.parameters);
    }

    /** The weights the run would export now: the average when there is one. */
    public static INDArray current(TrainingState state) {
        return state.average != null ? state.average : state.parameters;
    }

    /** At the end of a run: the average becomes the parameters (what state.bin holds and export reads). */
    public static void finish(TrainingState state) {
        if (state.average != null) {
            state.parameters.assign(state.average);
            state.average = null;
        }
    }
}
