package org.langid.model.train;

import java.util.List;
import java.util.Map;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * How a training step's loss and gradients are computed ({@code train.execution}): by SameDiff's
 * session ({@link SameDiffExecution}) or by replaying the native calls of a recorded step
 * ({@link ReplayedExecution}).
 */
interface StepExecution {

    /** The loss's key among a step's results (no parameter has this name). */
    String LOSS = "/loss";

    /**
     * The loss (under {@link #LOSS}) and the gradients of {@code wanted} for one step on
     * {@code placeholders}, a batch of {@code rows} windows: arrays a later step may overwrite,
     * so what must last is copied out.
     */
    Map<String, INDArray> run(Map<String, INDArray> placeholders, List<String> wanted, int rows);
}
