package org.langid.jobs.train;

import java.util.Map;
import java.util.OptionalInt;
import java.util.function.IntConsumer;
import org.apache.spark.TaskContext;
import org.apache.spark.resource.ResourceInformation;
import org.langid.model.graph.HostMemory;
import org.nd4j.linalg.factory.Nd4j;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Binds a training task to the GPU Spark assigned it. With Spark's resource scheduling
 * ({@code spark.executor.resource.gpu.amount}, {@code spark.task.resource.gpu.amount=1} and a
 * discovery script, see deploy/gpu/) each task receives one GPU address in
 * {@code TaskContext.resources()}; ND4J's CUDA backend is then pointed at that device for the
 * task's thread. Without a GPU resource (CPU workers, embedded runs) nothing happens.
 */
final class GpuBinding {

    private static final Logger LOG = LoggerFactory.getLogger(GpuBinding.class);

    /** Spark's name for the GPU resource (spark.*.resource.gpu.*). */
    static final String GPU = "gpu";

    /** Points ND4J at a device for the calling thread (replaceable in tests). */
    static volatile IntConsumer deviceSetter = device -> Nd4j.getAffinityManager().unsafeSetDevice(device);

    private GpuBinding() {
    }

    /** The device index for a task's resources: empty without a GPU, an error for more than one. */
    static OptionalInt deviceFor(Map<String, ResourceInformation> resources) {
        ResourceInformation gpu = resources.get(GPU);
        if (gpu == null || gpu.addresses().length == 0) {
            return OptionalInt.empty();
        }
        if (gpu.addresses().length > 1) {
            throw new IllegalStateException("a training task was given " + gpu.addresses().length + " GPUs ("
                    + String.join(", ", gpu.addresses()) + "); each worker trains on one: set spark.task.resource.gpu.amount=1");
        }
        try {
            return OptionalInt.of(Integer.parseInt(gpu.addresses()[0].trim()));
        } catch (NumberFormatException e) {
            throw new IllegalStateException("GPU address '" + gpu.addresses()[0] + "' is not a device index; "
                    + "the discovery script must report CUDA device indices (see deploy/gpu/discover-gpus.sh)");
        }
    }

    /** Binds the current Spark task's thread to its GPU, if it has one. */
    static void bindCurrentTask() {
        TaskContext task = TaskContext.get();
        if (task == null) {
            return;
        }
        OptionalInt device = deviceFor(scala.collection.JavaConverters.mapAsJavaMap(task.resources()));
        if (device.isPresent()) {
            if (HostMemory.cpuBackend()) {
                throw new IllegalStateException("Spark gave this task GPU " + device.getAsInt() + " but ND4J runs on the CPU backend: "
                        + "build with ./mvnw -Pcuda,cluster package (see deploy/spark-submit/train-gpu.sh)");
            }
            deviceSetter.accept(device.getAsInt());
            LOG.info("task {} (partition {}) bound to GPU {}", task.taskAttemptId(), task.partitionId(), device.getAsInt());
        }
    }
}
