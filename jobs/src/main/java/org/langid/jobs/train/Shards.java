package org.langid.jobs.train;

import java.util.HashMap;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import org.langid.text.Alphabet;

import static org.apache.spark.sql.functions.col;

/** Training windows spread over workers: one compact {@link WorkerShard} per partition, cached where it was built. */
public final class Shards {

    private Shards() {
    }

    /** The train split of {@code prepared} in {@code workers} shards. */
    public static JavaRDD<WorkerShard> of(SparkSession spark, String prepared, int workers, List<String> languages, int windowLength,
                                          Alphabet alphabet) {
        return of(spark, prepared, "train", workers, languages, windowLength, alphabet);
    }

    /**
     * A split of {@code prepared} in {@code workers} shards. Windows are assigned by a hash of
     * their sentence and offset, so the assignment is the same in every run.
     */
    public static JavaRDD<WorkerShard> of(SparkSession spark, String prepared, String split, int workers, List<String> languages,
                                          int windowLength, Alphabet alphabet) {
        String source = prepared + "/windows/split=" + split;
        JavaRDD<Row> rows = spark.read().parquet(source)
                .filter(col("language").isin(languages.toArray()))
                .repartition(workers, col("sentence_id"), col("offset"))
                .sortWithinPartitions("sentence_id", "offset")
                .select("language", "window")
                .javaRDD();
        // Other languages were filtered out above, so nothing is skipped here.
        return rows.mapPartitionsWithIndex((worker, it) -> List.of(WorkerShard.of(worker,
                        WindowsReader.encode(it, languages, windowLength, alphabet, source, new HashMap<>()))).iterator(), true)
                .persist(StorageLevel.MEMORY_AND_DISK());
    }
}
