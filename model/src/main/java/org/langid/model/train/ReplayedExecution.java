package org.langid.model.train;

import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.langid.model.train.trace.Call;
import org.langid.model.train.trace.ReplayPlan;
import org.langid.model.train.trace.StepRecorder;
import org.langid.model.train.trace.passes.Rewrites;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Steps replayed without SameDiff's session ({@link ReplayPlan}): the first step of each batch
 * size is recorded through SameDiff, its calls rewritten ({@code trace.passes.Rewrites}), and
 * that step and every later one of its size run the plan. A batch size whose step cannot be
 * replayed exactly stays on SameDiff's session. Not thread-safe.
 */
final class ReplayedExecution implements StepExecution {

    /** At most this many batch sizes keep a plan (each holds one step's arrays); the least recently used goes. */
    private static final int MAX_PLANS = 2;
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ReplayedExecution.class);

    private final SameDiffExecution sameDiff;
    private final Rewrites rewrites;
    private final int profileEvery;
    /** What each rewrite pass changed in the last step recorded. */
    private Map<Rewrites.Pass, Integer> lastRewrites = Map.of();
    /** Plans by batch size, least recently used first. */
    private final Map<Integer, ReplayPlan> plans = new LinkedHashMap<>(4, 0.75f, true);
    /** Batch sizes whose recorded step could not be replayed exactly (StepRecorder#plan). */
    private final Set<Integer> unreplayable = new HashSet<>();

    /** @param profileEvery diagnostics: see {@link TrainConfig#profileEverySteps} (0: off) */
    ReplayedExecution(SameDiffExecution sameDiff, Rewrites rewrites, int profileEvery) {
        this.sameDiff = sameDiff;
        this.rewrites = rewrites;
        this.profileEvery = profileEvery;
    }

    /**
     * A batch size is recorded the first time it comes, on runs whose results are discarded, and
     * that step itself is already replayed: every step of a replayable size goes through its plan,
     * whatever came before it. So a run resumed from a checkpoint, or a Spark task retried on a
     * fresh thread, computes what the undisturbed run computed, bit for bit, even though a plan's
     * rewritten calls round differently from SameDiff's.
     */
    @Override
    public Map<String, INDArray> run(Map<String, INDArray> placeholders, List<String> wanted, int rows) {
        ReplayPlan plan = plans.get(rows);
        if (plan == null && !unreplayable.contains(rows)) {
            plan = record(placeholders, wanted, rows);
        }
        return plan != null ? plan.run(placeholders) : sameDiff.run(placeholders, wanted, rows);
    }

    /**
     * Records a step of batch size {@code rows}: SameDiff runs it twice (the first run of a shape,
     * which also builds the gradient function the first time, is not recorded), results discarded.
     * Returns the plan, or null if the step cannot be replayed exactly.
     */
    private ReplayPlan record(Map<String, INDArray> placeholders, List<String> wanted, int rows) {
        if (plans.size() >= MAX_PLANS) {
            Integer eldest = plans.keySet().iterator().next();
            plans.remove(eldest).close();
        }
        sameDiff.run(placeholders, wanted, rows);
        StepRecorder recorder = new StepRecorder();
        Map<String, INDArray> results = sameDiff.run(placeholders, wanted, recorder);
        Map<Rewrites.Pass, Integer> changed = new EnumMap<>(Rewrites.Pass.class);
        ReplayPlan plan = recorder.plan(placeholders, results, (recorded, kept, retired) -> rewrites.rewrite(recorded, kept, retired, changed),
                profileEvery);
        if (plan == null) {
            LOG.debug("steps of batch size {} stay on SameDiff's session: {}", rows,
                    recorder.unsupported() != null ? "it ran " + recorder.unsupported() + " in Java" : "a placeholder or result is a copy");
            unreplayable.add(rows);
            return null;
        }
        LOG.debug("steps of batch size {} replay {} calls: {} layer norms, attention cores, ReLUs and embedding lookups fused into passes of their own, {} other calls on the JDK's vector API, "
                + "{} by shorter native ways (sums as products with constant vectors, reshapes as memory copies), {} as recorded; calls each rewrite pass changed: {}",
                rows, plan.calls(), plan.calls(Call.Kernel.FUSED) / 2, plan.calls(Call.Kernel.VECTOR),
                plan.calls(Call.Kernel.SHORTCUT), plan.calls(Call.Kernel.NATIVE), changed);
        lastRewrites = Map.copyOf(changed);
        if (profileEvery > 0) {
            LOG.info("batch size {}: {}", rows, plan.describe());
        }
        plans.put(rows, plan);
        sameDiff.handOver();   // the recorded step's arrays are the plan's now
        return plan;
    }

    /** The batch sizes whose steps are replayed now. */
    Set<Integer> batchSizes() {
        return Set.copyOf(plans.keySet());
    }

    /** Calls of the plans run by {@code kernel}, or of all kinds if null. */
    int calls(Call.Kernel kernel) {
        return plans.values().stream().mapToInt(plan -> kernel == null ? plan.calls() : plan.calls(kernel)).sum();
    }

    /** The calls each rewrite pass changed in the last step recorded (a pass that did not run is absent). */
    Map<Rewrites.Pass, Integer> lastRewrites() {
        return lastRewrites;
    }

    /** Releases the plans' native contexts. */
    void close() {
        plans.values().forEach(ReplayPlan::close);
        plans.clear();
    }
}
