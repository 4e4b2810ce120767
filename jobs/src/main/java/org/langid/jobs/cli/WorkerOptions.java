package org.langid.jobs.cli;

import org.apache.spark.SparkContext;
import picocli.CommandLine.Option;

/**
 * How many Spark workers (partitions, one training shard each) a command runs: {@code --workers},
 * else Spark's default parallelism. One place for the option, its checks and its default, shared
 * by train, retrain, pipeline and the two training benchmarks.
 */
public final class WorkerOptions {

    @Option(names = "--workers", paramLabel = "N",
            description = "Spark trainer: workers (partitions), at least 1. Default: Spark's default parallelism: on "
                    + "local[*] the cores; on a cluster at least 2, even with one one-core executor.")
    Integer workers;

    /**
     * Checked before Spark starts, so a wrong count costs no session start: below 1, or given to
     * a trainer without Spark workers (which would silently ignore it).
     */
    void check(String trainer) {
        if (workers != null && !"spark".equals(trainer)) {
            throw new IllegalArgumentException("--workers is for --trainer spark; the " + trainer + " trainer is one worker");
        }
        if (workers != null && workers < 1) {
            throw new IllegalArgumentException("--workers must be at least 1, got " + workers);
        }
    }

    /** The number of workers: the one given, else the session's default parallelism. */
    int resolve(SparkContext spark) {
        return workers != null ? workers : spark.defaultParallelism();
    }
}
