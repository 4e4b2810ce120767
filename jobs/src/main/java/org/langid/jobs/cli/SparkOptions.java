package org.langid.jobs.cli;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Option;

/** How a command gets its Spark: embedded ({@code local[*]}) unless told otherwise. */
public final class SparkOptions {

    @Option(names = "--master",
            description = "Spark master URL. Default: the one spark-submit set, else local[*] (embedded).")
    String master;

    @Option(names = "--spark-conf", paramLabel = "KEY=VALUE",
            description = "Extra Spark setting; repeatable, e.g. --spark-conf spark.driver.memory=4g.")
    List<String> sparkConf = new ArrayList<>();

    /** Starts (or joins, under spark-submit) the Spark session for a job. */
    public SparkSession start(String appName) {
        SparkConf conf = new SparkConf();
        if (master != null) {
            conf.setMaster(master);
        } else if (!conf.contains("spark.master")) {
            conf.setMaster("local[*]");
        }
        conf.setIfMissing("spark.app.name", appName);
        conf.setIfMissing("spark.ui.showConsoleProgress", "false");
        // Small local jobs: the default 200 shuffle partitions would be mostly empty tasks.
        conf.setIfMissing("spark.sql.shuffle.partitions", conf.get("spark.master").startsWith("local") ? "8" : "200");
        // ND4J's OpenMP and BLAS pools are sized from OMP_NUM_THREADS once, when an executor
        // JVM loads them; each training worker is one single-threaded task per core. Executors
        // that a cluster manager launches get the setting here, whoever submitted the job.
        conf.setIfMissing("spark.executorEnv.OMP_NUM_THREADS", "1");
        conf.setIfMissing("spark.executorEnv.OMP_WAIT_POLICY", "PASSIVE");
        // The large broadcasts are training states, float noise that LZ4 barely shrinks: compressing
        // a 65,536-bucket model's 50 MB every averaging round cost the driver tens of ms a round.
        conf.setIfMissing("spark.broadcast.compress", "false");
        // A resident round's task result (the dense state and the changed table rows) is a few MB;
        // above the 1 MB default it went through the block manager, an extra fetch every round:
        // 2-4% of the pipeline's rounds (bench/EXPERIMENTS.md, "Spark rounds"). Capped by spark.rpc.message.maxSize.
        conf.setIfMissing("spark.task.maxDirectResultSize", "64m");
        for (String setting : sparkConf) {
            int eq = setting.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("--spark-conf '" + setting + "' is not KEY=VALUE");
            }
            conf.set(setting.substring(0, eq), setting.substring(eq + 1));
        }
        if (!conf.get("spark.master").startsWith("local")) {
            // Registered before the context starts, so it hears of the first executors too.
            String listeners = conf.get("spark.extraListeners", "");
            conf.set("spark.extraListeners", (listeners.isEmpty() ? "" : listeners + ",") + ExecutorEvents.class.getName());
        }
        return SparkSession.builder().config(conf).getOrCreate();
    }
}
