package org.langid.jobs.train;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import org.langid.model.text.Vocabulary;

import static org.apache.spark.sql.functions.col;

/** Training windows spread over workers: one compact {@link WorkerShard} per partition, cached where it was built. */
public final class Shards {

    private Shards() {
    }

    /** The train split of {@code prepared} in {@code workers} shards. */
    public static JavaRDD<WorkerShard> of(SparkSession spark, String prepared, int workers, List<String> languages, int windowLength) {
        return of(spark, prepared, "train", workers, languages, windowLength);
    }

    /**
     * A split of {@code prepared} in {@code workers} shards. Windows are assigned by a hash of
     * their sentence and offset, so the assignment is the same in every run.
     */
    public static JavaRDD<WorkerShard> of(SparkSession spark, String prepared, String split, int workers, List<String> languages,
                                          int windowLength) {
        Map<String, Integer> labelOf = new HashMap<>();
        for (int i = 0; i < languages.size(); i++) {
            labelOf.put(languages.get(i), i);
        }
        JavaRDD<Row> rows = spark.read().parquet(prepared + "/windows/split=" + split)
                .filter(col("language").isin(languages.toArray()))
                .repartition(workers, col("sentence_id"), col("offset"))
                .sortWithinPartitions("sentence_id", "offset")
                .select("language", "window")
                .javaRDD();
        return rows.mapPartitionsWithIndex((worker, it) -> List.of(shard(worker, it, labelOf, windowLength)).iterator(), true)
                .persist(StorageLevel.MEMORY_AND_DISK());
    }

    private static WorkerShard shard(int worker, Iterator<Row> rows, Map<String, Integer> labelOf, int windowLength) {
        java.io.ByteArrayOutputStream symbols = new java.io.ByteArrayOutputStream();
        List<Integer> labels = new ArrayList<>();
        while (rows.hasNext()) {
            Row row = rows.next();
            String window = row.getString(1);
            if (window.length() != windowLength) {
                throw new IllegalArgumentException("windows are " + window.length() + " characters long; the model reads " + windowLength);
            }
            symbols.writeBytes(Vocabulary.encode(window));
            labels.add(labelOf.get(row.getString(0)));
        }
        return new WorkerShard(worker, symbols.toByteArray(), labels.stream().mapToInt(Integer::intValue).toArray(), windowLength);
    }
}
