package org.langid.model.train;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.langid.model.graph.LanguageIdGraph;
import org.nd4j.autodiff.listeners.Listener;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.autodiff.samediff.api.OutAndGrad;
import org.nd4j.linalg.api.ndarray.INDArray;

/** Every step through SameDiff's session, its arrays from a {@link StepArena}. Not thread-safe. */
final class SameDiffExecution implements StepExecution {

    private final SameDiff sd;
    private final StepArena arena = new StepArena();
    private boolean gradientsBuilt;

    SameDiffExecution(SameDiff sd) {
        this.sd = sd;
    }

    @Override
    public Map<String, INDArray> run(Map<String, INDArray> placeholders, List<String> wanted, int rows) {
        return run(placeholders, wanted, (Listener) null);
    }

    /** One step, watched by {@code listener} if not null (and by the graph's own listeners). */
    Map<String, INDArray> run(Map<String, INDArray> placeholders, List<String> wanted, Listener listener) {
        // The last step's results have been copied out: its arrays serve this one. The sessions
        // exist from the first step on, so the arena is installed (once per thread) from the second.
        arena.recycle();
        arena.install(sd);
        if (listener != null) {
            sd.addListeners(listener);
        }
        OutAndGrad result;
        try {
            // The first call builds the gradient function, which SameDiff narrates on System.out.
            result = gradientsBuilt
                    ? sd.calculateGradientsAndOutputs(placeholders, List.of(LanguageIdGraph.LOSS), wanted)
                    : LibraryStdout.toLog(() -> sd.calculateGradientsAndOutputs(placeholders, List.of(LanguageIdGraph.LOSS), wanted));
        } finally {
            if (listener != null) {
                sd.getListeners().remove(listener);
            }
        }
        gradientsBuilt = true;
        Map<String, INDArray> results = new HashMap<>(result.getGradients());
        results.put(LOSS, result.getOutputs().get(LanguageIdGraph.LOSS));
        return results;
    }

    /** Watches every later step (a replayed step runs no SameDiff op for it to see). */
    void addListener(Listener listener) {
        sd.addListeners(listener);
    }

    /** The arrays of the step just run belong to a replay plan now: the arena hands them out no more. */
    void handOver() {
        arena.handOver();
    }
}
