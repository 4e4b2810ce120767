package org.langid.model.train;

import java.io.Serializable;
import org.langid.model.train.trace.passes.Rewrites;

/**
 * How {@link LocalSteps} runs a step: the train section's {@code execution} and
 * {@code profile_every_steps}, and the rewrites of a replayed step (all of them in training;
 * tests leave some out).
 */
public record StepOptions(TrainConfig.Execution execution, int profileEverySteps, Rewrites rewrites) implements Serializable {

    /** What the train section's defaults give. */
    public static final StepOptions DEFAULT = new StepOptions(TrainConfig.Execution.REPLAY, 0, Rewrites.DEFAULT);
    /** Every step through SameDiff's session. */
    public static final StepOptions SAMEDIFF = new StepOptions(TrainConfig.Execution.SAMEDIFF, 0, Rewrites.DEFAULT);

    public static StepOptions of(TrainConfig train) {
        return new StepOptions(train.execution(), train.profileEverySteps, Rewrites.DEFAULT);
    }

    /** Replayed steps with these rewrites. */
    public static StepOptions replay(Rewrites rewrites) {
        return new StepOptions(TrainConfig.Execution.REPLAY, 0, rewrites);
    }
}
