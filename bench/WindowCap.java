import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.expressions.Window;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.row_number;
import static org.apache.spark.sql.functions.xxhash64;

/**
 * Repeated training windows capped (bench/NGRAMS.md, "Deduplicated training windows"). Writes
 * OUT/windows/split=train only, with at most K copies of each (language, window) of PREPARED's
 * training split; which copies stay is a seeded hash of (sentence_id, offset), so runs agree.
 * bench/window-cap.sh links the rest.
 */
public class WindowCap {
    public static void main(String[] args) {
        String prepared = args[0], out = args[1];
        int maxCopies = Integer.parseInt(args[2]);
        SparkSession spark = SparkSession.builder().master("local[*]").appName("window-cap")
                .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "8").getOrCreate();
        Dataset<Row> train = spark.read().parquet(prepared + "/windows/split=train");
        long before = train.count();
        var copies = Window.partitionBy("language", "window").orderBy(xxhash64(col("sentence_id"), col("offset"), lit(20261129)));
        train.withColumn("copy", row_number().over(copies))
                .where(col("copy").leq(maxCopies)).drop("copy")
                .orderBy("language", "sentence_id", "offset")
                .write().parquet(out + "/windows/split=train");
        long after = spark.read().parquet(out + "/windows/split=train").count();
        System.out.printf("training windows: %,d -> %,d (each language's window kept at most %d times)%n", before, after, maxCopies);
        spark.stop();
    }
}
