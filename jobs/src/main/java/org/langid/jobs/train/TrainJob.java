package org.langid.jobs.train;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.langid.model.io.HadoopFiles;
import org.langid.model.config.ConfigTree;
import org.langid.model.graph.ModelConfig;
import org.langid.model.graph.NgramFilter;
import org.langid.model.graph.ParameterLayout;
import org.langid.model.train.LabelledWindows;
import org.langid.model.train.LocalTrainer;
import org.langid.model.train.TrainConfig;
import org.langid.model.train.TrainingState;
import org.nd4j.linalg.api.buffer.DataType;

/**
 * {@code langid train}: trains from prepare's windows, on this machine ({@code local}) or on
 * Spark workers by parameter averaging ({@code spark}), and writes {@code state.bin}
 * (parameters, Adam state, step, epoch) and {@code train-summary.json} (the model and train
 * configs, data, history).
 */
public final class TrainJob {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(TrainJob.class);
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    public static final String STATE_FILE = "state.bin";
    public static final String SUMMARY_FILE = "train-summary.json";
    public static final String METRICS_FILE = "metrics.jsonl";

    private TrainJob() {
    }

    /** Trains with the local trainer from the config's seeded initialisation. */
    public static LocalTrainer.Result runLocal(SparkSession spark, String prepared, String output, ModelConfig model, TrainConfig train) {
        return runLocal(spark, prepared, output, model, train, initialState(model, train));
    }

    /** Trains with the local trainer from {@code start} (e.g. a warm start from a published model). */
    public static LocalTrainer.Result runLocal(SparkSession spark, String prepared, String output, ModelConfig model, TrainConfig train,
                                               TrainingState start) {
        LabelledWindows training = WindowsReader.read(spark, prepared, "train", model.languages, model.window, model.alphabet);
        LabelledWindows validation = WindowsReader.read(spark, prepared, "validation", model.languages, model.window, model.alphabet);
        Configuration hadoop = spark.sparkContext().hadoopConfiguration();
        MetricsLog metrics = new MetricsLog(output + "/" + METRICS_FILE, hadoop);
        LocalTrainer.Result result = new LocalTrainer(model, train).fit(start, training, validation, new LocalTrainer.Listener() {
            @Override
            public void progress(int epoch, int report, long step, double loss, double samplesPerSecond) {
                metrics.round(epoch, report, step, loss, samplesPerSecond);
            }

            @Override
            public void epoch(LocalTrainer.EpochResult epoch) {
                metrics.epoch(epoch);
            }
        });
        write(spark, prepared, output, model, train, "local", 1, training.size(), result, () -> NgramFilters.of(training, model));
        return result;
    }

    /**
     * Trains on {@code workers} Spark workers by synchronous parameter averaging, writing a
     * checkpoint every train.checkpoint_every_epochs epochs under {@code output}/checkpoints and
     * the metrics log {@code output}/metrics.jsonl; {@code resume} continues from the latest checkpoint.
     */
    public static LocalTrainer.Result runSpark(SparkSession spark, String prepared, String output, ModelConfig model, TrainConfig train,
                                               int workers, boolean resume) {
        TrainingState start = null;
        if (resume) {
            Configuration hadoop = spark.sparkContext().hadoopConfiguration();
            start = new Checkpoints(output + "/checkpoints", hadoop).latest(identity(prepared, model, train, hadoop))
                    .orElseThrow(() -> new IllegalArgumentException("--resume: no checkpoint under " + output + "/checkpoints"));
            LOG.info("resuming from the checkpoint at step {} ({} epoch(s) complete)", start.step, start.epoch);
        }
        return runSpark(spark, prepared, output, model, train, workers, start, resume ? start.step : -1);
    }

    /**
     * As {@link #runSpark(SparkSession, String, String, ModelConfig, TrainConfig, int, boolean)}, from {@code start} (null: the
     * seeded initialisation), keeping the metrics log's lines up to step {@code keepMetricsThroughStep} (-1: none).
     */
    public static LocalTrainer.Result runSpark(SparkSession spark, String prepared, String output, ModelConfig model, TrainConfig train,
                                               int workers, TrainingState start, long keepMetricsThroughStep) {
        Configuration hadoop = spark.sparkContext().hadoopConfiguration();
        Checkpoints checkpoints = new Checkpoints(output + "/checkpoints", hadoop);
        Checkpoints.Identity identity = identity(prepared, model, train, hadoop);
        if (start == null) {
            start = initialState(model, train);
        }
        JavaRDD<WorkerShard> shards = Shards.of(spark, prepared, workers, model.languages, model.window, model.alphabet);
        JavaRDD<WorkerShard> validationShards = Shards.of(spark, prepared, "validation", workers, model.languages, model.window, model.alphabet);
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        AveragingTrainer.Validator validation = AveragingTrainer.distributed(jsc, validationShards, model, train.evaluationBatchSize);
        try {
            MetricsLog metrics = new MetricsLog(output + "/" + METRICS_FILE, hadoop, keepMetricsThroughStep);
            LocalTrainer.Result result = new AveragingTrainer(model, train)
                    .fit(jsc, shards, start, validation, new AveragingTrainer.Listener() {
                        @Override
                        public void round(int epoch, int round, int rounds, long step, double loss, long samples, double seconds) {
                            metrics.round(epoch, round, step, loss, samples, seconds);
                        }

                        @Override
                        public void epoch(TrainingState state, LocalTrainer.EpochResult epoch) {
                            metrics.epoch(epoch);
                            if (state.epoch % train.checkpointEveryEpochs == 0 || state.epoch == train.epochs) {
                                checkpoints.write(state, identity);
                            }
                        }

                        @Override
                        public void withinEpoch(TrainingState state) {
                            checkpoints.writeWithinEpoch(state, identity);
                            metrics.write();
                        }
                    });
            long windows = shards.map(WorkerShard::size).reduce(Integer::sum);
            write(spark, prepared, output, model, train, "spark", workers, windows, result, () -> NgramFilters.of(shards, model));
            return result;
        } finally {
            shards.unpersist();
            validationShards.unpersist();
        }
    }

    private static Checkpoints.Identity identity(String prepared, ModelConfig model, TrainConfig train, Configuration hadoop) {
        // The n-gram filter is made after training, from the data: a run resumes whatever its size.
        ObjectNode trained = ((ObjectNode) ConfigTree.toJson(model)).deepCopy();
        trained.remove("ngram_filter_bits");
        // Diagnostics change no number: a run resumes with them on or off.
        ObjectNode how = ((ObjectNode) ConfigTree.toJson(train)).deepCopy();
        how.remove("profile_every_steps");
        return new Checkpoints.Identity(trained, how, dataFingerprint(prepared, hadoop));
    }

    private static TrainingState initialState(ModelConfig model, TrainConfig train) {
        return TrainingState.start(ParameterLayout.of(model).initialise(train.seed, DataType.FLOAT));
    }

    /** The fingerprint prepare recorded for its output, so a checkpoint knows what data it was trained on. */
    public static String dataFingerprint(String prepared, Configuration hadoop) {
        String summary = prepared + "/summary.json";
        if (!HadoopFiles.exists(summary, hadoop)) {
            return "unknown";
        }
        try {
            return JSON.readTree(HadoopFiles.readString(summary, hadoop)).path("fingerprint").asText("unknown");
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException(summary + " is not valid JSON: " + e.getOriginalMessage());
        }
    }

    private static void write(SparkSession spark, String prepared, String output, ModelConfig model, TrainConfig train,
                              String trainer, int workers, long trainingWindows, LocalTrainer.Result result,
                              java.util.function.Supplier<NgramFilter> trainingFilter) {
        Configuration hadoop = spark.sparkContext().hadoopConfiguration();
        try {
            Path state = new Path(output, STATE_FILE);
            FileSystem fs = state.getFileSystem(hadoop);
            fs.mkdirs(new Path(output));
            try (OutputStream out = fs.create(state, true)) {
                result.state().write(out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the training state to " + output + ": " + e.getMessage(), e);
        }
        ObjectNode filterSummary = null;
        if (model.ngramFiltered()) {
            long started = System.nanoTime();
            NgramFilter filter = trainingFilter.get();   // from the windows training held, not read again
            NgramFilters.write(filter, output, hadoop);
            filterSummary = NgramFilters.describe(filter);
            LOG.info("n-gram filter of the training windows: {} of {} bits set (~{} distinct n-grams; an unseen n-gram passes with {}), {} s",
                    filter.bitsSet(), filter.size(), filter.estimatedNgrams(), String.format("%.1f%%", 100 * filter.falsePositiveRate()),
                    String.format("%.1f", (System.nanoTime() - started) / 1e9));
        }
        ObjectNode summary = JSON.createObjectNode();
        summary.put("trainer", trainer);
        summary.put("workers", workers);
        summary.put("prepared", prepared);
        summary.put("data_fingerprint", dataFingerprint(prepared, hadoop));
        summary.set("model", ConfigTree.toJson(model));
        summary.set("train", ConfigTree.toJson(train));
        summary.put("parameters", ParameterLayout.of(model).size());
        summary.put("training_windows", trainingWindows);
        summary.put("steps", result.state().step);
        if (filterSummary != null) {
            summary.set("ngram_filter", filterSummary);
        }
        ArrayNode history = summary.putArray("epochs");
        for (LocalTrainer.EpochResult epoch : result.history()) {
            ObjectNode e = history.addObject();
            e.put("epoch", epoch.epoch());
            e.put("step", epoch.step());
            e.put("train_loss", epoch.trainLoss());
            e.put("validation_accuracy", epoch.validation().accuracy());
            e.put("validation_loss", epoch.validation().meanLoss());
            e.put("seconds", epoch.seconds());
            e.put("samples_per_second", epoch.samplesPerSecond());
        }
        HadoopFiles.writeJsonAtomically(output + "/" + SUMMARY_FILE, summary, JSON, hadoop);
    }
}
