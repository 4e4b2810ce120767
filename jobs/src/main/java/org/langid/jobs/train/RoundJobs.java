package org.langid.jobs.train;

import java.io.Serializable;
import java.util.Iterator;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.broadcast.Broadcast;
import scala.reflect.ClassTag$;
import scala.runtime.AbstractFunction2;

/**
 * The Spark job of one parameter-averaging round, with as little of Spark's fixed cost as the
 * round allows (bench/EXPERIMENTS.md, "Spark rounds"): every worker's task
 * runs on its shard and the results are added up.
 *
 * <p>With few workers the results are added on the driver, in partition order, from one
 * {@code SparkContext.runJob}. {@code treeAggregate} at depth 2 also adds every result on the
 * driver with up to five partitions (in the order they arrive), but it gets there through two
 * more RDDs and four more closures to clean and ship. With the input carried in the task
 * ({@link #carry}), a round's overhead at {@code local[1]} went from 44–66 ms to 30–32 ms. With
 * more workers {@code treeAggregate} adds results on the executors first, so the driver does not
 * take in every worker's state; those rounds keep it.
 *
 * <p>In local mode ({@code local}, {@code local[N]}) the tasks run in the driver's JVM, so a
 * round's input and its results pass there by reference ({@link InProcess}) instead of through
 * Spark's serialization, block manager and broadcast: at the profile's million-row table on
 * random windows each is 60–70 MB a round, and the broadcast alone took 40–80 ms of a 3-second
 * round at {@code local[2]} (bench/EXPERIMENTS.md, "Spark rounds").
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

    /**
     * Whether rounds on {@code spark} pass inputs and results by reference: in local mode, if
     * {@code allowed} (not: Spark's serialized path, as on a cluster).
     */
    static boolean inProcess(JavaSparkContext spark, boolean allowed) {
        return allowed && spark.sc().isLocal();
    }

    /**
     * Values handed between the driver and its tasks within one JVM (local mode), by key. The
     * values are not changed by the receiver: a task reads its round's input and returns new arrays.
     */
    private static final class InProcess {
        static final ConcurrentHashMap<Long, Object> INPUTS = new ConcurrentHashMap<>();
        /** By job, each task's result by partition (an empty partition's: {@link #NOTHING}). */
        static final ConcurrentHashMap<Long, ConcurrentHashMap<Integer, Object>> RESULTS = new ConcurrentHashMap<>();
        static final Object NOTHING = new Object();
        static final AtomicLong KEYS = new AtomicLong();
        static final AtomicLong JOBS = new AtomicLong();
    }

    /** Tests only: jobs run in process so far, and whether every input and result handed over has been released. */
    static long inProcessJobsForTests() {
        return InProcess.JOBS.get();
    }

    static boolean inProcessHandoversReleasedForTests() {
        return InProcess.INPUTS.isEmpty() && InProcess.RESULTS.isEmpty();
    }

    /** A round's input as its tasks read it: the value itself, a broadcast of it, or, in local mode, a reference to it. */
    static final class Carried<T> implements Serializable {
        private final T value;
        private final Broadcast<T> broadcast;
        /** The key of the value in {@link InProcess#INPUTS}, or -1. */
        private final long inProcess;

        private Carried(T value, Broadcast<T> broadcast, long inProcess) {
            this.value = value;
            this.broadcast = broadcast;
            this.inProcess = inProcess;
        }

        @SuppressWarnings("unchecked")
        T get() {
            if (inProcess >= 0) {
                Object input = InProcess.INPUTS.get(inProcess);
                if (input == null) {
                    throw new IllegalStateException("round input " + inProcess + " is not in this JVM: a local master's task ran outside the driver");
                }
                return (T) input;
            }
            return broadcast == null ? value : broadcast.value();
        }

        /** Frees the broadcast or the reference, if there is one; call when the round's job has returned. */
        void release() {
            if (broadcast != null) {
                broadcast.destroy();
            }
            if (inProcess >= 0) {
                InProcess.INPUTS.remove(inProcess);
            }
        }
    }

    /** {@code input} for a round's tasks; {@code bytes}: its serialized size, about; {@code inProcess}: see {@link #inProcess}. */
    static <T> Carried<T> carry(JavaSparkContext spark, boolean inProcess, T input, long bytes) {
        if (inProcess(spark, inProcess)) {
            long key = InProcess.KEYS.incrementAndGet();
            InProcess.INPUTS.put(key, input);
            return new Carried<>(null, null, key);
        }
        return bytes <= LARGEST_INPUT_IN_TASK ? new Carried<>(input, null, -1) : new Carried<>(null, spark.broadcast(input), -1);
    }

    /** Whether {@code treeAggregate(…, depth 2)} over {@code partitions} adds a level on the executors (Spark's RDD.treeAggregate). */
    static boolean treeAddsALevel(int partitions) {
        int scale = Math.max((int) Math.ceil(Math.sqrt(partitions)), 2);
        return partitions > scale + (partitions + scale - 1) / scale;
    }

    /**
     * Runs {@code work} on every shard and adds the results with {@code add}, starting from
     * {@code none}; {@code inProcess}: see {@link #inProcess}.
     */
    static <S> S sum(JavaSparkContext spark, boolean inProcess, JavaRDD<WorkerShard> shards, Work<S> work, S none, Function2<S, S, S> add) {
        if (treeAddsALevel(shards.getNumPartitions())) {
            return shards.mapPartitions(work::run).treeAggregate(none, add, add, 2);
        }
        long job = inProcess(spark, inProcess) ? InProcess.KEYS.incrementAndGet() : -1;
        Object[] results;
        if (job < 0) {
            results = (Object[]) spark.sc().runJob(shards.rdd(), new Task<>(work, -1), ClassTag$.MODULE$.apply(Object.class));
        } else {
            ConcurrentHashMap<Integer, Object> byPartition = new ConcurrentHashMap<>();
            InProcess.RESULTS.put(job, byPartition);
            InProcess.JOBS.incrementAndGet();
            try {
                spark.sc().runJob(shards.rdd(), new Task<>(work, job), ClassTag$.MODULE$.apply(Object.class));
            } finally {
                InProcess.RESULTS.remove(job);
            }
            results = new Object[shards.getNumPartitions()];
            for (int p = 0; p < results.length; p++) {
                Object result = byPartition.get(p);
                if (result == null) {
                    throw new IllegalStateException("the task of partition " + p + " left no result in this JVM");
                }
                results[p] = result == InProcess.NOTHING ? null : result;
            }
        }
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

    /**
     * {@code work} as the function runJob takes: its one result, or null for an empty partition;
     * with {@code inProcessJob} ≥ 0, the result goes to {@link InProcess#RESULTS} instead and the task returns null.
     */
    private static final class Task<S> extends AbstractFunction2<TaskContext, scala.collection.Iterator<WorkerShard>, Object>
            implements Serializable {
        private final Work<S> work;
        private final long inProcessJob;

        Task(Work<S> work, long inProcessJob) {
            this.work = work;
            this.inProcessJob = inProcessJob;
        }

        @Override
        public Object apply(TaskContext context, scala.collection.Iterator<WorkerShard> shard) {
            try {
                Iterator<S> results = work.run(scala.collection.JavaConverters.asJavaIterator(shard));
                Object only = results.hasNext() ? results.next() : null;
                if (results.hasNext()) {
                    throw new IllegalStateException("a round's task gave more than one result for partition " + context.partitionId());
                }
                if (inProcessJob >= 0) {
                    ConcurrentHashMap<Integer, Object> byPartition = InProcess.RESULTS.get(inProcessJob);
                    if (byPartition == null) {
                        throw new IllegalStateException("round job " + inProcessJob + " is not in this JVM: a local master's task ran outside the driver");
                    }
                    byPartition.put(context.partitionId(), only == null ? InProcess.NOTHING : only);   // a retried task's replaces its failed try's
                    return null;
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
