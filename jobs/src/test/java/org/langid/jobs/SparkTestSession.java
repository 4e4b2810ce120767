package org.langid.jobs;

import org.apache.spark.sql.SparkSession;

/** One embedded Spark (local[2], one retry per task) shared by the tests of a JVM; restarted if a test stopped it. */
public final class SparkTestSession {

    private static SparkSession spark;

    private SparkTestSession() {
    }

    public static synchronized SparkSession get() {
        if (spark == null || spark.sparkContext().isStopped()) {
            spark = SparkSession.builder()
                    // local[2, 2]: two cores, and a failed task is retried once, as on a cluster.
                    .master("local[2,2]")
                    .appName("langid tests")
                    .config("spark.ui.enabled", "false")
                    .config("spark.sql.shuffle.partitions", "4")
                    .config("spark.ui.showConsoleProgress", "false")
                    .getOrCreate();
        }
        return spark;
    }
}
