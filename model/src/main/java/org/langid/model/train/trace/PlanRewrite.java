package org.langid.model.train.trace;

import java.util.Collection;
import java.util.List;
import org.nd4j.linalg.api.ndarray.INDArray;

/** Turns a recorded step's calls into the calls its plan runs (the rewrite passes of {@code trace.passes}). */
@FunctionalInterface
public interface PlanRewrite {

    /**
     * The calls to run instead of {@code recorded}, computing the same {@code results}; calls that
     * no longer run go to {@code retired} (their contexts are closed with the plan).
     */
    List<Call> rewrite(List<Call> recorded, Collection<INDArray> results, List<Call> retired);
}
