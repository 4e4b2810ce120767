import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.spark.sql.SparkSession;
import org.langid.jobs.cli.ProfileOptions;
import org.langid.jobs.train.WindowsReader;
import org.langid.model.config.ConfigTree;
import org.langid.model.graph.ModelConfig;
import org.langid.model.graph.ParameterLayout;
import org.langid.model.train.LabelledWindows;
import org.langid.model.train.LocalSteps;
import org.langid.model.train.NativeThreads;
import org.langid.model.train.Shuffle;
import org.langid.model.train.TrainConfig;
import org.langid.model.train.TrainingState;
import org.nd4j.linalg.api.buffer.DataType;

/**
 * N local trainers as N threads of one JVM, each with its own state and batches, no Spark and no
 * averaging: the ceiling for the Spark trainer's local[N], whose N workers step in one JVM too.
 * Run by bench/training/train-threads.sh (java's source launcher, langid's classpath).
 *   InJvmTrainers THREADS SECONDS BATCH PROFILE PREPARED [KEY=VALUE ...]
 */
public class InJvmTrainers {
    public static void main(String[] args) throws Exception {
        int threads = Integer.parseInt(args[0]);
        double seconds = Double.parseDouble(args[1]);
        int batch = Integer.parseInt(args[2]);
        ConfigTree tree = ProfileOptions.read(args[3], new org.apache.hadoop.conf.Configuration())   // over its base, if any
                .withOverrides(Arrays.asList(args).subList(5, args.length));
        ModelConfig config = tree.section("model", ModelConfig.class);
        TrainConfig train = tree.section("train", TrainConfig.class);
        NativeThreads.limit(1);   // one native thread per trainer, as each Spark worker has
        SparkSession session = SparkSession.builder().master("local[1]").appName("read windows").getOrCreate();
        LabelledWindows data = WindowsReader.read(session, args[4], "train", config.languages, config.window, config.alphabet);
        session.stop();
        int pool = 64;   // batches per trainer, disjoint between trainers
        if ((long) threads * pool * batch > data.size()) {
            throw new IllegalArgumentException(args[4] + " has " + data.size() + " training windows; need " + (long) threads * pool * batch);
        }
        int[] order = Shuffle.permutation(data.size(), train.seed, 0);
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        CyclicBarrier timingStarts = new CyclicBarrier(threads);
        List<Future<Double>> rates = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int first = t * pool;
            long seed = train.seed + t;
            rates.add(executor.submit(() -> {
                List<LocalSteps.Batch> batches = new ArrayList<>();
                for (int b = first; b < first + pool; b++) {
                    batches.add(LocalSteps.Batch.of(data, order, b * batch, (b + 1) * batch));
                }
                LocalSteps steps = new LocalSteps(config, train,
                        TrainingState.start(ParameterLayout.of(config).initialise(seed, DataType.FLOAT)), Long.MAX_VALUE);
                int next = 0;
                for (long warm = System.nanoTime() + 6_000_000_000L; System.nanoTime() < warm; ) {
                    LocalSteps.Batch b = batches.get(next++ % pool);
                    steps.step(b.windows(), b.labels());
                }
                timingStarts.await();
                long start = System.nanoTime();
                long end = start + (long) (seconds * 1e9);
                long samples = 0;
                while (System.nanoTime() < end) {
                    LocalSteps.Batch b = batches.get(next++ % pool);
                    steps.step(b.windows(), b.labels());
                    samples += batch;
                }
                return samples / ((System.nanoTime() - start) / 1e9);
            }));
        }
        double total = 0;
        for (Future<Double> rate : rates) {
            total += rate.get();
        }
        executor.shutdown();
        System.out.printf("samples/s: %.0f%n", total);
        System.exit(0);   // ND4J's and Spark's non-daemon threads
    }
}
