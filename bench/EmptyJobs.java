import java.util.List;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;

/**
 * Spark's own floor under a parameter-averaging round in local mode (bench/PROFILE.md, "What Spark
 * costs a round at local[1]"): ms per job for a one-partition map + collect, a mapPartitions +
 * treeAggregate (what a round runs), and the same with a broadcast and a 0.88 MB result (issue
 * 14's model's state and moments). Spark's lambdas must come from a class directory, not the
 * single-file launcher:
 *   CP="$(cat jobs/target/launcher-classpath.txt):$(cat jobs/target/launcher-provided-classpath.txt)"
 *   javac -d /tmp/ej -cp "$CP" bench/EmptyJobs.java && java $(the pom's spark.java17.flags) -cp "/tmp/ej:$CP" EmptyJobs
 */
public class EmptyJobs {
    public static void main(String[] args) {
        SparkConf conf = new SparkConf().setMaster("local[1]").setAppName("empty").set("spark.ui.enabled", "false");
        try (JavaSparkContext sc = new JavaSparkContext(conf)) {
            sc.setLogLevel("ERROR");
            JavaRDD<Integer> rdd = sc.parallelize(List.of(1), 1).cache();
            rdd.count();
            float[] payload = new float[220_000];
            for (int pass = 0; pass < 3; pass++) {
                long t = System.nanoTime();
                for (int i = 0; i < 50; i++) rdd.map(x -> x + 1).collect();
                double plain = (System.nanoTime() - t) / 1e6 / 50;
                t = System.nanoTime();
                for (int i = 0; i < 50; i++) rdd.mapPartitions(it -> List.of(1).iterator()).treeAggregate(0, Integer::sum, Integer::sum, 2);
                double tree = (System.nanoTime() - t) / 1e6 / 50;
                t = System.nanoTime();
                for (int i = 0; i < 50; i++) {
                    Broadcast<float[]> b = sc.broadcast(payload);
                    rdd.mapPartitions(it -> List.of(b.value()).iterator()).treeAggregate(new float[0], (a, c) -> c, (a, c) -> c.length > 0 ? c : a, 2);
                    b.destroy();
                }
                double full = (System.nanoTime() - t) / 1e6 / 50;
                System.out.printf("job: map+collect %.1f ms, mapPartitions+treeAggregate %.1f ms, + broadcast and 0.88 MB result %.1f ms%n", plain, tree, full);
            }
        }
    }
}
