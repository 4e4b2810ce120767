package org.langid.jobs.cli;

import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import org.langid.jobs.retrain.RetrainJob;
import org.langid.model.config.ConfigTree;
import org.langid.model.graph.ModelConfig;
import org.langid.model.train.TrainConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "retrain", mixinStandardHelpOptions = true,
        description = "Retrain when new corpus snapshots arrive: if the corpus root has dated snapshot folders (e.g. "
                + "<root>/2026-11-21/, any format prepare reads) that the registry's current model was not trained on, prepare "
                + "all snapshots together, train a candidate (warm-started from the current model when languages and shape are "
                + "unchanged), evaluate candidate and current on the same test windows, and publish the candidate only if it is "
                + "not worse by more than --margin overall and in every language. Each decision is a JSON record in "
                + "<registry>/decisions/. With no new snapshots it does nothing and says so. One run at a time per registry.")
public final class RetrainCommand implements Callable<Integer> {

    @Option(names = "--corpus", required = true, paramLabel = "ROOT", description = "Corpus root holding dated snapshot folders.")
    String corpus;

    @Option(names = "--registry", required = true, paramLabel = "DIR", description = "The model registry to publish into.")
    String registry;

    @Option(names = {"-w", "--work-dir"}, paramLabel = "DIR",
            description = "Where the prepared data, the training output and candidates go. Default: <registry>/../retrain-work.")
    String workDir;

    @Option(names = "--margin", defaultValue = "0.005", paramLabel = "FRACTION",
            description = "How much lower (accuracy, as a fraction) than the current model a candidate may score. Default: ${DEFAULT-VALUE}.")
    double margin;

    @Option(names = "--evaluation", paramLabel = "PARQUET",
            description = "A fixed evaluation set (windows, data-schemas/windows.parquet.txt) both models are scored on, run after run. "
                    + "Default: the test split of all snapshots prepared together.")
    String evaluation;

    @Option(names = "--evaluation-windows", defaultValue = "200000", paramLabel = "N",
            description = "Seeded sample of test windows both models are scored on (0: all). Default: ${DEFAULT-VALUE}.")
    int evaluationWindows;

    @Option(names = "--trainer", defaultValue = "local", description = "local or spark. Default: ${DEFAULT-VALUE}.")
    String trainer;

    @Mixin
    WorkerOptions workers;

    @Mixin
    ProfileOptions profile;

    @Mixin
    SparkOptions sparkOptions;

    @Override
    public Integer call() {
        TrainCommand.requireTrainer(trainer);
        workers.check(trainer);
        ConfigTree tree = profile.load(new Configuration());
        var prepare = PrepareCommand.settings(tree, null, null);
        ModelConfig model = tree.section("model", ModelConfig.class);
        TrainConfig train = tree.section("train", TrainConfig.class).validatedFor(model);
        String work = workDir != null ? workDir : new org.apache.hadoop.fs.Path(registry).getParent() + "/retrain-work";
        SparkSession spark = sparkOptions.start("langid retrain");
        try {
            var settings = new RetrainJob.Settings(corpus, registry, work, prepare, model, train, trainer,
                    workers.resolve(spark.sparkContext()), margin, evaluation, evaluationWindows);
            RetrainJob.Outcome outcome = RetrainJob.run(spark, settings);
            System.out.println(outcome.message());
            return 0;
        } finally {
            SparkShutdown.stop(spark);
        }
    }
}
