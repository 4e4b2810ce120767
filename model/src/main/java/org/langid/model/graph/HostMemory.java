package org.langid.model.graph;

import org.nd4j.linalg.api.buffer.DataBuffer;
import org.nd4j.linalg.api.concurrency.AffinityManager;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * What code that reads and writes ND4J's memory directly (NIO views, raw pointers) must tell the
 * backend. On the CPU backend an array has one copy and none of this does anything. On CUDA an
 * array has a host copy and a device copy: {@code asNio()} brings the host copy up to date before
 * it is read, but a write through it is invisible to ND4J, whose next op on the GPU would read
 * the stale device copy. {@link #written} marks the host copy as the newer one, so the next
 * device op copies it over (ND4J's {@code AffinityManager.tagLocation(…, HOST)}).
 *
 * <p>Not run on a GPU here (none can run this stack, deploy/gpu/README.md): HostMemoryTest checks
 * that every bulk write path tags what it wrote.
 */
public final class HostMemory {

    private static final boolean CPU = !"CUDA".equalsIgnoreCase(
            Nd4j.getExecutioner().getEnvironmentInformation().getProperty("backend"));

    private HostMemory() {
    }

    /** Whether ND4J runs on the CPU backend: the layouts and kernels that assume one copy of each array are only used there. */
    public static boolean cpuBackend() {
        return CPU;
    }

    /** {@code array}'s values were changed through host memory. */
    public static void written(INDArray array) {
        if (!array.isEmpty()) {
            Nd4j.getAffinityManager().tagLocation(array, AffinityManager.Location.HOST);
        }
    }

    /** {@code buffer}'s values were changed through host memory. */
    public static void written(DataBuffer buffer) {
        Nd4j.getAffinityManager().tagLocation(buffer, AffinityManager.Location.HOST);
    }
}
