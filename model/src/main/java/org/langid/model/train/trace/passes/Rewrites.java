package org.langid.model.train.trace.passes;

import java.io.Serializable;
import java.util.Collection;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.langid.model.train.kernels.NativeShortcuts;
import org.langid.model.train.kernels.VectorKernels;
import org.langid.model.train.trace.Call;
import org.langid.model.train.trace.PlanRewrite;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The rewrites of a recorded step, in the order they run: the gradient copies elided, each call
 * replaced by a faster kernel where one computes the same outputs (NativeShortcuts, VectorKernels),
 * then the fusions, which build on the vector kernels. Each pass matches a pattern that
 * {@code LanguageIdGraph} (or {@code Attention}) builds, named there beside the code that builds
 * it; RewritePassesTest fails when a pass stops firing on the default model's step.
 *
 * @param kernels which replacements run
 * @param skipped passes left out (tests compare a step with and without one)
 */
public record Rewrites(Kernels kernels, Set<Pass> skipped) implements PlanRewrite, Serializable {

    /** Which calls may run on other kernels than libnd4j's op as recorded. */
    public enum Kernels {
        /** None: every call as SameDiff ran it, so the replayed step is SameDiff's bit for bit; no pass runs. */
        NONE,
        /** The native shortcuts; the vector API's kernels and the fusions where the CPU's vectors hold 8 floats or more. */
        WHERE_FASTER,
        /** As {@link #WHERE_FASTER} on any vector width (tests on CPUs whose vectors are narrower). */
        EVERYWHERE
    }

    /** The rewrite passes, in the order they run. */
    public enum Pass {
        /** {@link GradientCopyElision}: the residual adds' and bias adds' gradient copies. */
        GRADIENT_COPY_ELISION,
        /** {@link LayerNormFusion}: each layer norm, one pass each way. */
        LAYER_NORM_FUSION,
        /** {@link HeadLayouts}: the copies that split and join the attention's heads. */
        HEAD_LAYOUTS,
        /** {@link AttentionFusion}: each attention's core, one pass per block each way. */
        ATTENTION_FUSION,
        /** {@link ReluFusion}: the feed-forward's ReLU, one pass each way. */
        RELU_FUSION,
        /** {@link EmbeddingLookupFusion}: the character embedding's one-hot product as a row lookup. */
        EMBEDDING_LOOKUP_FUSION
    }

    /** Every pass, the vector kernels where the CPU makes them faster: what training runs. */
    public static final Rewrites DEFAULT = new Rewrites(Kernels.WHERE_FASTER, Set.of());

    public Rewrites {
        skipped = Set.copyOf(skipped);
    }

    public Rewrites withKernels(Kernels kernels) {
        return new Rewrites(kernels, skipped);
    }

    /** These rewrites without {@code pass}. */
    public Rewrites without(Pass pass) {
        Set<Pass> more = EnumSet.of(pass);
        more.addAll(skipped);
        return new Rewrites(kernels, more);
    }

    @Override
    public List<Call> rewrite(List<Call> recorded, Collection<INDArray> results, List<Call> retired) {
        return rewrite(recorded, results, retired, new EnumMap<>(Pass.class));
    }

    /** As {@link #rewrite(List, Collection, List)}, counting in {@code changed} the calls each pass took out or rewired. */
    public List<Call> rewrite(List<Call> recorded, Collection<INDArray> results, List<Call> retired, Map<Pass, Integer> changed) {
        if (kernels == Kernels.NONE) {
            return recorded;
        }
        boolean vectors = VectorKernels.available(kernels == Kernels.EVERYWHERE);
        List<Call> calls = recorded;
        if (runs(Pass.GRADIENT_COPY_ELISION)) {
            int[] rewired = new int[1];
            int before = retired.size();
            calls = GradientCopyElision.elide(calls, results, retired, rewired);
            changed.put(Pass.GRADIENT_COPY_ELISION, retired.size() - before + rewired[0]);
        }
        calls = replaced(calls, vectors);
        if (!vectors) {
            return calls;
        }
        for (Pass pass : List.of(Pass.LAYER_NORM_FUSION, Pass.HEAD_LAYOUTS, Pass.ATTENTION_FUSION, Pass.RELU_FUSION,
                Pass.EMBEDDING_LOOKUP_FUSION)) {
            if (!runs(pass)) {
                continue;
            }
            int before = retired.size();
            calls = switch (pass) {
                case LAYER_NORM_FUSION -> LayerNormFusion.fuse(calls, results, retired);
                case HEAD_LAYOUTS -> HeadLayouts.fold(calls, results, retired);
                case ATTENTION_FUSION -> AttentionFusion.fuse(calls, results, retired);
                case RELU_FUSION -> ReluFusion.fuse(calls, results, retired);
                case EMBEDDING_LOOKUP_FUSION -> EmbeddingLookupFusion.fuse(calls, results, retired);
                default -> throw new IllegalStateException(pass.name());
            };
            changed.put(pass, retired.size() - before);
        }
        return calls;
    }

    private boolean runs(Pass pass) {
        return !skipped.contains(pass);
    }

    /** Each call run by the fastest replacement that computes its outputs (the vector API's only if {@code vectors}), or as recorded. */
    static List<Call> replaced(List<Call> calls, boolean vectors) {
        VectorKernels.Scratch scratch = new VectorKernels.Scratch();   // shared by the plan's products, which run one at a time
        return calls.stream().map(call -> {
            Runnable faster = NativeShortcuts.replacing(call.op(), call.context());
            if (faster != null) {
                return call.replacedBy(faster, Call.Kernel.SHORTCUT);
            }
            faster = vectors ? VectorKernels.replacing(call.op(), call.context(), scratch) : null;
            return faster == null ? call : call.replacedBy(faster, Call.Kernel.VECTOR);
        }).toList();
    }
}
