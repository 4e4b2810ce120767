package org.langid.jobs.train;

import java.io.Serializable;
import java.util.Iterator;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.broadcast.Broadcast;
import scala.reflect.ClassTag$;
import scala.runtime.AbstractFunction2;

/**
 * The Spark job of one parameter-averaging round, with as little of Spark's fixed cost as the
 * round allows (bench/PROFILE.md, "What a round costs besides its steps"): every worker's task
 * runs on its shard and the results are added up.
 *
 * <p>With few workers the results are added on the driver, in partition order, from one
 * {@code SparkContext.runJob}. {@code treeAggregate} at depth 2 also adds every result on the
 * driver with up to five partitions (in the order they arrive), but it gets there through two
 * more RDDs and four more closures to clean and ship. With the input carried in the task
 * ({@link #carry}), a round's overhead at {@code local[1]} went from 44–66 ms to 30–32 ms. With
 * more workers {@code treeAggregate} adds results on the executors first, so the driver does not
 * take in every worker's state; those rounds keep it.
 */
final class RoundJobs {

    /**
     * Round inputs up to this size travel inside the task, which Spark broadcasts once per job
     * anyway; larger ones as a broadcast of their own, deserialized once per executor instead of
     * once per task. Spark warns above this size of task (DAGScheduler's TASK_SIZE_TO_WARN_KIB).
     */
    static final long LARGEST_INPUT_IN_TASK = 1000 * 1024;

    private RoundJobs() {
    }

    /** What one task computes from its worker's shard: one result, or none for an empty partition. */
    @FunctionalInterface
    interface Work<S> extends Serializable {
        Iterator<S> run(Iterator<WorkerShard> shard) throws Exception;
    }

    /** A round's input as its tasks read it: the value itself, or a broadcast of it. */
    static final class Carried<T> implements Serializable {
        private final T value;
        private final Broadcast<T> broadcast;

        private Carried(T value, Broadcast<T> broadcast) {
            this.value = value;
            this.broadcast = broadcast;
        }

        T get() {
            return broadcast == null ? value : broadcast.value();
        }

        /** Frees the broadcast, if there is one; call when the round's job has returned. */
        void release() {
            if (broadcast != null) {
                broadcast.destroy();
            }
        }
    }

    /** {@code input} for a round's tasks; {@code bytes}: its serialized size, about. */
    static <T> Carried<T> carry(JavaSparkContext spark, T input, long bytes) {
        return bytes <= LARGEST_INPUT_IN_TASK ? new Carried<>(input, null) : new Carried<>(null, spark.broadcast(input));
    }

    /** Whether {@code treeAggregate(…, depth 2)} over {@code partitions} adds a level on the executors (Spark's RDD.treeAggregate). */
    static boolean treeAddsALevel(int partitions) {
        int scale = Math.max((int) Math.ceil(Math.sqrt(partitions)), 2);
        return partitions > scale + (partitions + scale - 1) / scale;
    }

    /** Runs {@code work} on every shard and adds the results with {@code add}, starting from {@code none}. */
    static <S> S sum(JavaSparkContext spark, JavaRDD<WorkerShard> shards, Work<S> work, S none, Function2<S, S, S> add) {
        if (treeAddsALevel(shards.getNumPartitions())) {
            return shards.mapPartitions(work::run).treeAggregate(none, add, add, 2);
        }
        Object[] results = (Object[]) spark.sc().runJob(shards.rdd(), new Task<>(work), ClassTag$.MODULE$.apply(Object.class));
        S sum = none;
        try {
            for (Object result : results) {
                if (result != null) {   // an empty partition
                    @SuppressWarnings("unchecked")
                    S s = (S) result;
                    sum = add.call(sum, s);
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException("adding the workers' results failed", e);
        }
        return sum;
    }

    /** {@code work} as the function runJob takes: its one result, or null for an empty partition. */
    private static final class Task<S> extends AbstractFunction2<TaskContext, scala.collection.Iterator<WorkerShard>, Object>
            implements Serializable {
        private final Work<S> work;

        Task(Work<S> work) {
            this.work = work;
        }

        @Override
        public Object apply(TaskContext context, scala.collection.Iterator<WorkerShard> shard) {
            try {
                Iterator<S> results = work.run(scala.collection.JavaConverters.asJavaIterator(shard));
                Object only = results.hasNext() ? results.next() : null;
                if (results.hasNext()) {
                    throw new IllegalStateException("a round's task gave more than one result for partition " + context.partitionId());
                }
                return only;
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
