package org.langid.jobs.score;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.spark.scheduler.AccumulableInfo;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerExecutorMetricsUpdate;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Tuple4;
import scala.collection.JavaConverters;

/**
 * A progress line every {@link #INTERVAL_SECONDS} s while the scoring job runs: rows done, rate
 * and ETA. Rows done are the input records the job's tasks have read: finished tasks' from their
 * metrics, running tasks' from the executors' heartbeats (Spark sends them every
 * spark.executor.heartbeatInterval, 10 s by default). Tasks read at most one batch ahead of what
 * they have scored. For people only: the summary's counts come from the written output.
 */
final class ScoreProgress extends SparkListener implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ScoreJob.class);
    static final int INTERVAL_SECONDS = 10;

    private final SparkSession spark;
    private final long total;
    private final long started = System.nanoTime();
    private final Set<Integer> stages = ConcurrentHashMap.newKeySet();
    /** Ids of the stages' records-read accumulators: heartbeats carry internal accumulators by id, without their names. */
    private final Set<Long> recordsReadIds = ConcurrentHashMap.newKeySet();
    private final Map<Long, Long> running = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicLong finished = new java.util.concurrent.atomic.AtomicLong();
    private final ScheduledExecutorService printer = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "langid-score-progress");
        thread.setDaemon(true);
        return thread;
    });

    private ScoreProgress(SparkSession spark, long total) {
        this.spark = spark;
        this.total = total;
    }

    /** Starts reporting on the jobs submitted from now on, which together read {@code total} rows. */
    static ScoreProgress start(SparkSession spark, long total) {
        ScoreProgress progress = new ScoreProgress(spark, total);
        spark.sparkContext().addSparkListener(progress);
        progress.printer.scheduleAtFixedRate(progress::print, INTERVAL_SECONDS, INTERVAL_SECONDS, TimeUnit.SECONDS);
        return progress;
    }

    long rowsDone() {
        return finished.get() + running.values().stream().mapToLong(Long::longValue).sum();
    }

    private void print() {
        long done = Math.min(rowsDone(), total);
        double seconds = (System.nanoTime() - started) / 1e9;
        double rate = done / seconds;
        String eta = done == 0 ? "unknown" : duration((total - done) / rate);
        LOG.info(String.format("score: %d of %d rows (%.0f%%), %.0f rows/s, ETA %s", done, total,
                total == 0 ? 100.0 : 100.0 * done / total, rate, eta));
    }

    private static String duration(double seconds) {
        long s = Math.round(seconds);
        return s >= 3600 ? String.format("%dh%02dm", s / 3600, s % 3600 / 60) : s >= 60 ? String.format("%dm%02ds", s / 60, s % 60) : s + "s";
    }

    @Override
    public void onJobStart(SparkListenerJobStart event) {
        JavaConverters.seqAsJavaList(event.stageIds()).forEach(id -> stages.add((Integer) id));
    }

    @Override
    public void onStageSubmitted(SparkListenerStageSubmitted event) {
        if (stages.contains(event.stageInfo().stageId()) && event.stageInfo().taskMetrics() != null) {
            recordsReadIds.add(event.stageInfo().taskMetrics().inputMetrics()._recordsRead().id());
        }
    }

    @Override
    public void onExecutorMetricsUpdate(SparkListenerExecutorMetricsUpdate event) {
        for (Tuple4<Object, Object, Object, scala.collection.Seq<AccumulableInfo>> task : JavaConverters.seqAsJavaList(event.accumUpdates())) {
            if (!stages.contains((Integer) task._2())) {
                continue;
            }
            for (AccumulableInfo info : JavaConverters.seqAsJavaList(task._4())) {
                if (recordsReadIds.contains(info.id()) && info.update().isDefined()) {
                    running.put((Long) task._1(), ((Number) info.update().get()).longValue());
                }
            }
        }
    }

    @Override
    public void onTaskEnd(SparkListenerTaskEnd event) {
        if (!stages.contains(event.stageId())) {
            return;
        }
        running.remove(event.taskInfo().taskId());
        if (event.taskInfo().successful() && event.taskMetrics() != null) {
            finished.addAndGet(event.taskMetrics().inputMetrics().recordsRead());
        }
    }

    @Override
    public void close() {
        printer.shutdownNow();
        spark.sparkContext().removeSparkListener(this);
    }
}
