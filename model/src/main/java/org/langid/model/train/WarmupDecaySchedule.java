package org.langid.model.train;

import org.nd4j.linalg.schedule.ISchedule;

/**
 * Learning rate: linear warm-up from 0 to the base rate over {@code warmupSteps}, then linear
 * or cosine decay to the minimum over {@code decaySteps}, then constant at the minimum.
 * A function of the step alone, so a resumed or averaged run sees the same rates.
 */
public final class WarmupDecaySchedule implements ISchedule {

    private static final long serialVersionUID = 1L;

    private final double base;
    private final double minimum;
    private final long warmupSteps;
    private final long decaySteps;
    private final String decay;

    public WarmupDecaySchedule(double base, double minimum, long warmupSteps, long decaySteps, String decay) {
        this.base = base;
        this.minimum = minimum;
        this.warmupSteps = warmupSteps;
        this.decaySteps = decaySteps;
        this.decay = decay;
    }

    /** The schedule of a config; {@code totalSteps} stands in when the config leaves decay_steps at 0. */
    public static WarmupDecaySchedule of(TrainConfig.Optimizer optimizer, long totalSteps) {
        long decaySteps = optimizer.decaySteps > 0 ? optimizer.decaySteps : Math.max(1, totalSteps - optimizer.warmupSteps);
        return new WarmupDecaySchedule(optimizer.learningRate, optimizer.minLearningRate, optimizer.warmupSteps, decaySteps, optimizer.decay);
    }

    /** Rate at a (zero-based) step. */
    public double at(long step) {
        if (step < warmupSteps) {
            return base * (step + 1) / warmupSteps;
        }
        if ("none".equals(decay)) {
            return base;
        }
        double progress = Math.min(1.0, (step - warmupSteps) / (double) decaySteps);
        double shape = "cosine".equals(decay) ? 0.5 * (1 + Math.cos(Math.PI * progress)) : 1 - progress;
        return minimum + (base - minimum) * shape;
    }

    @Override
    public double valueAt(int iteration, int epoch) {
        return at(iteration);
    }

    @Override
    public ISchedule clone() {
        return new WarmupDecaySchedule(base, minimum, warmupSteps, decaySteps, decay);
    }
}
