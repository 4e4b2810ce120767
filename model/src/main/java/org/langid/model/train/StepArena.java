package org.langid.model.train;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import org.langid.model.graph.AlignedFloats;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.autodiff.samediff.internal.InferenceSession;
import org.nd4j.autodiff.samediff.internal.SessionMemMgr;
import org.nd4j.autodiff.samediff.internal.memory.AbstractMemoryMgr;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.shape.LongShapeDescriptor;
import org.nd4j.linalg.api.shape.Shape;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Memory for SameDiff sessions that repeat the same computation (training steps): arrays are
 * handed out from free lists keyed by type and shape, and at the end of a step every array of
 * the step returns to the lists. After the first step a step allocates nothing.
 *
 * <p>Why: SameDiff 1.0.0-M2.1's session hands few arrays back to its own cache, so each step
 * allocated hundreds of megabytes of fresh native memory, freed only when the Java GC happened
 * to collect the arrays. Fresh pages cost a page fault each, and on the 2-core machine this was
 * measured on that was most of a step (350 samples/s; bench/EXPERIMENTS.md, "Training speed: the step").
 * Not thread-safe: one arena per thread, like the {@link LocalSteps} that owns it; the
 * predictor gives one to each graph copy, which one caller at a time uses.
 */
public final class StepArena extends AbstractMemoryMgr {

    private final Map<String, Deque<INDArray>> free = new HashMap<>();
    private final Set<INDArray> inUse = Collections.newSetFromMap(new IdentityHashMap<>());

    @Override
    public INDArray allocate(boolean detached, DataType dataType, long... shape) {
        return take(dataType, shape, 'c');
    }

    @Override
    public INDArray allocate(boolean detached, LongShapeDescriptor descriptor) {
        if (descriptor.isEmpty()) {
            return Nd4j.create(descriptor, false);
        }
        return take(descriptor.dataType(), descriptor.getShape(), descriptor.getOrder());
    }

    private INDArray take(DataType dataType, long[] shape, char order) {
        String key = dataType + Arrays.toString(shape) + order;
        Deque<INDArray> available = free.get(key);
        INDArray array = available == null || available.isEmpty()
                ? fresh(dataType, shape, order)
                : available.pop();
        inUse.add(array);
        return array;
    }

    /**
     * A new array; a float array starts a cache line (AlignedFloats: the replayed kernels stream
     * them with 64-byte vectors). The step's other arrays are small.
     */
    private static INDArray fresh(DataType dataType, long[] shape, char order) {
        if (dataType != DataType.FLOAT || Shape.lengthOf(shape) == 0) {
            return Nd4j.createUninitialized(dataType, shape, order);
        }
        return AlignedFloats.create(shape, order);
    }

    /** The session is done with {@code array} before the step ends. */
    @Override
    public void release(INDArray array) {
        if (inUse.remove(array)) {
            giveBack(array);
        }
    }

    /** End of a step: every array handed out is free again. Results must have been copied out. */
    public void recycle() {
        inUse.forEach(this::giveBack);
        inUse.clear();
    }

    /**
     * The arrays of the step just run now belong to a replay plan ({@link org.langid.model.train.trace.ReplayPlan}): the arena forgets
     * them, and its free lists too (an array released within the step may be in the plan as well),
     * so no later step is handed an array the plan reads or writes.
     */
    public void handOver() {
        inUse.clear();
        free.clear();
    }

    private void giveBack(INDArray array) {
        free.computeIfAbsent(array.dataType() + Arrays.toString(array.shape()) + array.ordering(), k -> new ArrayDeque<>()).push(array);
    }

    @Override
    public void close() {
        recycle();
        free.values().forEach(arrays -> arrays.forEach(a -> {
            if (a.closeable()) {
                a.close();
            }
        }));
        free.clear();
    }

    /** Puts this arena under every session of {@code sd} and its gradient function that the current thread uses. */
    public void install(SameDiff sd) {
        installOn(sd);
        SameDiff gradient = sd.getFunction("grad");
        if (gradient != null) {
            installOn(gradient);
        }
    }

    private void installOn(SameDiff sd) {
        InferenceSession session = sd.getSessions().get(Thread.currentThread().getId());
        if (session != null && session.getMmgr() != this) {
            SessionMemMgr previous = session.getMmgr();
            session.setMmgr(this);
            previous.close();
        }
    }
}
