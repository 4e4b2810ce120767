package org.langid.jobs.cli;

import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import org.langid.jobs.prepare.PreparedAlphabet;
import org.langid.jobs.train.SelfTeachers;
import org.langid.jobs.train.TrainJob;
import org.langid.model.config.ConfigException;
import org.langid.model.config.ConfigTree;
import org.langid.model.graph.ModelConfig;
import org.langid.model.train.LocalTrainer;
import org.langid.model.train.TrainConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "train", mixinStandardHelpOptions = true,
        description = "Train the attention model on prepare's windows (the model: and train: sections of the profile). "
                + "--trainer local trains on this machine without Spark workers; --trainer spark trains on Spark workers "
                + "by synchronous parameter averaging (train.averaging_frequency minibatches of train.batch_size per worker "
                + "between averagings).")
public final class TrainCommand implements Callable<Integer> {

    @Option(names = {"-i", "--input"}, required = true, paramLabel = "DIR", description = "Output directory of langid prepare.")
    String prepared;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "DIR",
            description = "Where to write state.bin and train-summary.json.")
    String output;

    @Option(names = "--trainer", defaultValue = "local", description = "local or spark. Default: ${DEFAULT-VALUE}.")
    String trainer;

    @Mixin
    WorkerOptions workers;

    @Option(names = "--resume", description = "Spark trainer: continue from the latest checkpoint in the output directory.")
    boolean resume;

    @Mixin
    ProfileOptions profile;

    @Mixin
    SparkOptions sparkOptions;

    /** The trainers {@code --trainer} names (train, retrain). */
    static void requireTrainer(String trainer) {
        if (!"local".equals(trainer) && !"spark".equals(trainer)) {
            throw new ConfigException("--trainer " + trainer + " is not one of local, spark");
        }
    }

    @Override
    public Integer call() {
        requireTrainer(trainer);
        workers.check(trainer);
        if (resume && !"spark".equals(trainer)) {
            // The local trainer writes no checkpoints: it would start afresh over the output.
            throw new IllegalArgumentException("--resume is for --trainer spark; the local trainer keeps no checkpoints");
        }
        ConfigTree tree = profile.load(new Configuration());
        ModelConfig model = tree.section("model", ModelConfig.class);
        TrainConfig train = tree.section("train", TrainConfig.class).validatedFor(model);
        SparkSession spark = sparkOptions.start("langid train");
        try {
            int trainWorkers = "spark".equals(trainer) ? workers.resolve(spark.sparkContext()) : 1;
            model = PreparedAlphabet.applyTo(model, prepared, spark.sparkContext().hadoopConfiguration());
            train = SelfTeachers.resolve(spark, prepared, output + "/teachers", model, train,
                    new SelfTeachers.Trainer("spark".equals(trainer), trainWorkers), resume, System.out);
            LocalTrainer.Result result = "spark".equals(trainer)
                    ? TrainJob.runSpark(spark, prepared, output, model, train, trainWorkers, resume)
                    : TrainJob.runLocal(spark, prepared, output, model, train);
            LocalTrainer.EpochResult last = result.last();
            System.out.printf("trained %d steps (%d epochs): validation accuracy %.4f on %d windows%n",
                    result.state().step, last.epoch(), last.validation().accuracy(), last.validation().windows());
            System.out.println("output: " + output);
            return 0;
        } finally {
            SparkShutdown.stop(spark);
        }
    }
}
