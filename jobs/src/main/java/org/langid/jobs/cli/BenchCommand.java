package org.langid.jobs.cli;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.broadcast.Broadcast;
import org.langid.jobs.train.AveragingTrainer;
import org.langid.jobs.train.WorkerShard;
import org.langid.model.graph.ModelConfig;
import org.langid.model.graph.ParameterLayout;
import org.langid.model.train.LabelledWindows;
import org.langid.model.train.LocalSteps;
import org.langid.model.train.NativeThreads;
import org.langid.model.train.StepOptions;
import org.langid.model.train.TrainConfig;
import org.langid.model.train.TrainingState;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.profiler.OpProfiler;
import org.nd4j.linalg.profiler.ProfilerConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code langid bench}: throughput measurements (figures in the README come from here). */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Benchmarks. Each prints what it measured and, as its last line, the figure.",
        subcommands = {BenchCommand.Train.class, BenchCommand.Rounds.class, BenchCommand.Predict.class, BenchCommand.Windows.class})
public final class BenchCommand implements Runnable {

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    @Command(name = "train", mixinStandardHelpOptions = true,
            description = "Training throughput of the model configured in the profile, on random windows or (--input) on the "
                    + "training windows of a prepare output: warm-up, then S seconds timed in intervals of about a second "
                    + "(Spark jobs, with --trainer spark: a round each, or several with one worker). Last line: 'samples/s: N', the median interval.")
    static final class Train implements Callable<Integer> {

        @Option(names = "--trainer", defaultValue = "local",
                description = "local (no Spark) or spark (parameter averaging, one worker per core of --master). Default: ${DEFAULT-VALUE}.")
        String trainer;

        @Mixin
        SparkOptions sparkOptions;

        @Option(names = "--batch", defaultValue = "1024", description = "Minibatch size. Default: ${DEFAULT-VALUE}.")
        int batch;

        @Option(names = "--seconds", defaultValue = "20", description = "Timed seconds. Default: ${DEFAULT-VALUE}.")
        double seconds;

        @Option(names = "--warmup-seconds", defaultValue = "5", description = "Untimed warm-up. Default: ${DEFAULT-VALUE}.")
        double warmupSeconds;

        @Option(names = {"-i", "--input"}, paramLabel = "DIR",
                description = "Output directory of langid prepare: time steps on its training windows, in a seeded random order. "
                        + "Without it the windows are uniformly random, which selects far more distinct n-gram rows than text "
                        + "does (every round then moves most of the table).")
        String input;

        @Mixin
        WorkerOptions workers;

        @Option(names = "--profile-ops", description = "After timing, profile 5 steps with ND4J's op profiler and print the time per op type.")
        boolean profileOps;

        @Option(names = "--trace", paramLabel = "FILE",
                description = "After timing, record 5 steps with SameDiff's ProfilingListener into FILE (Chrome-trace JSON of "
                        + "native op times; bench/training/profile-summary.py summarises it).")
        String traceFile;

        @Mixin
        ProfileOptions profile;

        @Override
        public Integer call() {
            TrainCommand.requireTrainer(trainer);
            workers.check(trainer);
            var tree = profile.load(new Configuration());
            ModelConfig config = tree.section("model", ModelConfig.class);
            TrainConfig train = tree.section("train", TrainConfig.class);
            NativeThreads.limit(train.nativeThreads);
            if (train.distillation.enabled()) {
                // The step is what is timed; a teacher's forward passes cost per teacher on top (bench/EXPERIMENTS.md, "Distillation").
                System.out.println("distillation off: the benchmark times the student's steps without the teachers");
                train.distillation = new TrainConfig.Distillation();
            }
            System.out.println(config.describe());
            System.out.println("params: " + ParameterLayout.of(config).size());
            System.out.println("batch: " + batch + ", nd4j backend: " + Nd4j.getBackend().getClass().getSimpleName()
                    + ", native threads: " + train.nativeThreads + ", cores: " + Runtime.getRuntime().availableProcessors());
            if ("spark".equals(trainer)) {
                return benchSpark(config, train);
            }

            // A pool of batches, built before timing so data generation is not measured. Short text
            // gives a smaller pool, visited again in turn, rather than no benchmark.
            int wantedBatches = input == null ? 16 : 64;
            LabelledWindows data = input == null
                    ? LabelledWindows.random(batch * wantedBatches, config.window, config.languages, 1) : trainingWindows(config);
            int poolBatches = Math.min(wantedBatches, data.size() / batch);
            if (poolBatches < 1) {
                throw new IllegalArgumentException(input + " has " + data.size() + " training windows; --batch " + batch
                        + " needs " + batch + " for one batch");
            }
            int[] order = org.langid.model.train.Shuffle.permutation(data.size(), train.seed, 0);
            List<LocalSteps.Batch> batches = new ArrayList<>();
            for (int b = 0; b < poolBatches; b++) {
                batches.add(LocalSteps.Batch.of(data, order, b * batch, (b + 1) * batch));
            }
            LocalSteps steps = new LocalSteps(config, train,
                    TrainingState.start(ParameterLayout.of(config).initialise(train.seed, DataType.FLOAT)), Long.MAX_VALUE,
                    org.langid.model.train.CaseAugmentation.NONE, StepOptions.of(train));

            long warmupEnd = System.nanoTime() + (long) (warmupSeconds * 1e9);
            int next = 0;
            while (System.nanoTime() < warmupEnd) {
                LocalSteps.Batch b = batches.get(next++ % poolBatches);
                steps.step(b.windows(), b.labels());
            }
            List<Double> rates = new ArrayList<>();
            long end = System.nanoTime() + (long) (seconds * 1e9);
            while (System.nanoTime() < end) {
                long intervalStart = System.nanoTime();
                long samples = 0;
                do {
                    LocalSteps.Batch b = batches.get(next++ % poolBatches);
                    steps.step(b.windows(), b.labels());
                    samples += batch;
                } while (System.nanoTime() - intervalStart < 1_000_000_000L);
                rates.add(samples / ((System.nanoTime() - intervalStart) / 1e9));
            }
            if (profileOps) {
                printOpProfile(steps, batches);
            }
            if (traceFile != null) {
                recordTrace(steps, batches, traceFile);
            }
            Collections.sort(rates);
            System.out.printf("intervals: %d, min %.0f, max %.0f samples/s%n", rates.size(), rates.get(0), rates.get(rates.size() - 1));
            System.out.printf("samples/s: %.0f%n", rates.get(rates.size() / 2));
            return 0;
        }

        /**
         * Rounds of synchronous parameter averaging on random windows, one worker per core of the
         * master; the rate of a round is all workers' samples over its wall time (broadcast,
         * steps, adding up and averaging included).
         */
        private Integer benchSpark(ModelConfig config, TrainConfig train) {
            train.batchSize = batch;
            var session = sparkOptions.start("langid bench train");
            try {
                var spark = org.apache.spark.api.java.JavaSparkContext.fromSparkContext(session.sparkContext());
                int workers = this.workers.resolve(session.sparkContext());
                // A lone worker takes several rounds a job (AveragingTrainer.JobSizes): its shard holds more of them.
                int wantedRounds = workers == 1 ? 64 : input == null ? 2 : 16;
                long roundWindows = (long) batch * train.averagingFrequency;
                LabelledWindows text = input == null ? null
                        : org.langid.jobs.train.WindowsReader.read(session, input, "train", config.languages, config.window,
                                org.langid.jobs.prepare.PreparedAlphabet.read(input, session.sparkContext().hadoopConfiguration()));
                // Short text: fewer rounds a shard, visited again in turn, rather than no benchmark.
                int roundsInShard = text == null ? wantedRounds : (int) Math.min(wantedRounds, text.size() / (roundWindows * workers));
                if (roundsInShard < 1) {
                    throw new IllegalArgumentException(input + " has " + text.size() + " training windows; " + workers + " workers at --batch "
                            + batch + ", averaging every " + train.averagingFrequency + " steps, need " + roundWindows * workers
                            + " for one round");
                }
                int shardSize = Math.toIntExact(roundWindows * roundsInShard);
                int[] order = text == null ? null : org.langid.model.train.Shuffle.permutation(text.size(), train.seed, 0);
                List<WorkerShard> shards = new ArrayList<>();
                for (int w = 0; w < workers; w++) {
                    shards.add(WorkerShard.of(w, text == null
                            ? LabelledWindows.random(shardSize, config.window, config.languages, w + 1)
                            : text.select(order, w * shardSize, shardSize)));
                }
                // Built by a task and cached there, as train's shards are: a parallelized collection
                // would ship each shard inside its partition with every round's task.
                Broadcast<List<WorkerShard>> built = spark.broadcast(shards);
                var rdd = spark.parallelize(java.util.stream.IntStream.range(0, workers).boxed().toList(), workers)
                        .map(w -> built.value().get(w)).cache();
                rdd.count();
                built.unpersist();
                System.out.println("workers: " + workers + " (" + session.sparkContext().master() + "), averaging every "
                        + train.averagingFrequency + " steps");
                // The rounds train runs: resident ones, moving only the changed table rows, when the table's updates are sparse.
                AveragingTrainer.Rounds trainer = new AveragingTrainer(config, train).rounds();
                TrainingState state = TrainingState.start(ParameterLayout.of(config).initialise(train.seed, DataType.FLOAT));
                AveragingTrainer.JobSizes jobSizes = AveragingTrainer.JobSizes.of(workers);
                int[] round = {0};
                java.util.function.DoubleSupplier job = () -> {
                    int first = round[0] % roundsInShard;
                    int jobRounds = Math.min(jobSizes.next(), roundsInShard - first);
                    long started = System.nanoTime();
                    var sum = trainer.round(spark, rdd, state, first, roundsInShard, jobRounds * train.averagingFrequency, Long.MAX_VALUE);
                    double jobSeconds = (System.nanoTime() - started) / 1e9;
                    jobSizes.took(jobRounds, jobSeconds);
                    round[0] += jobRounds;
                    return sum.samples() / jobSeconds;
                };
                long warmupEnd = System.nanoTime() + (long) (warmupSeconds * 1e9);
                do {
                    job.getAsDouble();
                } while (System.nanoTime() < warmupEnd);
                List<Double> rates = new ArrayList<>();
                int roundsBefore = round[0];
                long end = System.nanoTime() + (long) (seconds * 1e9);
                do {
                    rates.add(job.getAsDouble());
                } while (System.nanoTime() < end);
                Collections.sort(rates);
                System.out.printf("jobs: %d of %.1f rounds, min %.0f, max %.0f samples/s%n", rates.size(),
                        (double) (round[0] - roundsBefore) / rates.size(), rates.get(0), rates.get(rates.size() - 1));
                System.out.printf("samples/s: %.0f%n", rates.get(rates.size() / 2));
                return 0;
            } finally {
                SparkShutdown.stop(session);
            }
        }

        /** The training windows of --input, for the local trainer: read through a Spark session of --master, stopped after. */
        private LabelledWindows trainingWindows(ModelConfig config) {
            var session = sparkOptions.start("langid bench train: reading " + input);
            try {
                return org.langid.jobs.train.WindowsReader.read(session, input, "train", config.languages, config.window,
                        org.langid.jobs.prepare.PreparedAlphabet.read(input, session.sparkContext().hadoopConfiguration()));
            } finally {
                SparkShutdown.stop(session);
            }
        }

        /** {@code count} steps on the pool's batches, from its first. */
        private static void takeSteps(LocalSteps steps, List<LocalSteps.Batch> batches, int count) {
            for (int i = 0; i < count; i++) {
                LocalSteps.Batch b = batches.get(i % batches.size());
                steps.step(b.windows(), b.labels());
            }
        }

        /** Five steps under SameDiff's ProfilingListener, written as Chrome-trace JSON. */
        private static void recordTrace(LocalSteps steps, List<LocalSteps.Batch> batches, String file) {
            java.io.File out = new java.io.File(file);
            if (out.exists() && !out.delete()) {
                throw new IllegalArgumentException("--trace " + file + " exists and cannot be replaced");
            }
            steps.addListener(org.nd4j.autodiff.listeners.profiler.ProfilingListener.builder(out).recordAll().build());
            takeSteps(steps, batches, 5);
            System.out.println("trace: 5 steps in " + out.getAbsolutePath());
        }

        /** Time by op type over 5 profiled steps (ND4J's OpProfiler table: op, share, milliseconds). */
        private static void printOpProfile(LocalSteps steps, List<LocalSteps.Batch> batches) {
            int profiled = 5;
            Nd4j.getExecutioner().setProfilingConfig(ProfilerConfig.builder().checkElapsedTime(true).build());
            OpProfiler.getInstance().reset();
            long started = System.nanoTime();
            takeSteps(steps, batches, profiled);
            double millis = (System.nanoTime() - started) / 1e6;
            Nd4j.getExecutioner().setProfilingConfig(ProfilerConfig.builder().build());
            System.out.printf("op profile: %d steps, %.0f ms a step (profiled); time by op over the %d steps:%n", profiled, millis / profiled, profiled);
            System.out.println(OpProfiler.getInstance().getLongAggergator().asPercentageString());
        }
    }

    @Command(name = "rounds", mixinStandardHelpOptions = true,
            description = "What Spark adds to each parameter-averaging round when the workers' steps are fast: each worker "
                    + "waits BATCH / RATE seconds per step (the step time of a GPU that trains RATE samples/s) instead of "
                    + "running the graph; the inputs, the tasks, the state's arrays in and out and their adding up are "
                    + "real, with the profile's model size. Per averaging frequency: median round time, its steps' share and "
                    + "the rest (Spark's overhead). Last line: 'frequency for <=5%% overhead: F'.")
    static final class Rounds implements Callable<Integer> {

        @Option(names = "--rate", defaultValue = "1140000",
                description = "Samples/s of one simulated worker (default: an H100 on this model, PyTorch fp32 at batch 8192).")
        double rate;

        @Option(names = "--batch", defaultValue = "8192", description = "Minibatch per worker and step. Default: ${DEFAULT-VALUE}.")
        int batch;

        @Option(names = "--frequencies", split = ",", defaultValue = "1,2,5,10,20,50,100,200,500",
                description = "Averaging frequencies (steps per round) to measure. Default: ${DEFAULT-VALUE}.")
        List<Integer> frequencies;

        @Option(names = "--rounds", defaultValue = "20",
                description = "Timed rounds per frequency, taken in turns (one of each frequency, then again). Default: ${DEFAULT-VALUE}.")
        int rounds;

        @Option(names = "--warmup-rounds", defaultValue = "50",
                description = "Untimed rounds of one step before the first frequency (JIT, connections, broadcast paths). "
                        + "Default: ${DEFAULT-VALUE}.")
        int warmupRounds;

        @Mixin
        WorkerOptions workers;

        @Mixin
        SparkOptions sparkOptions;

        @Mixin
        ProfileOptions profile;

        @Override
        public Integer call() {
            if (!(rate > 0) || batch < 1 || rounds < 1 || frequencies.stream().anyMatch(f -> f < 1)) {
                throw new IllegalArgumentException("--rate, --batch, --rounds and --frequencies must be positive");
            }
            workers.check("spark");   // rounds always run on Spark workers
            var tree = profile.load(new Configuration());
            ModelConfig config = tree.section("model", ModelConfig.class);
            TrainConfig train = tree.section("train", TrainConfig.class);
            train.batchSize = batch;
            double stepSeconds = batch / rate;
            var session = sparkOptions.start("langid bench rounds");
            try {
                var spark = org.apache.spark.api.java.JavaSparkContext.fromSparkContext(session.sparkContext());
                int n = workers.resolve(session.sparkContext());
                List<WorkerShard> shards = new ArrayList<>();
                for (int w = 0; w < n; w++) {
                    shards.add(WorkerShard.of(w, LabelledWindows.random(1, config.window, config.languages, w + 1)));
                }
                var rdd = spark.parallelize(shards, n).cache();
                rdd.count();
                long parameters = ParameterLayout.of(config).size();
                System.out.println(config.describe());
                System.out.printf(java.util.Locale.ROOT, "workers: %d (%s); state per round, each way: %d parameters + Adam moments = %.2f MB%n",
                        n, session.sparkContext().master(), parameters, 3 * parameters * 4 / 1e6);
                System.out.printf(java.util.Locale.ROOT, "simulated step: batch %d at %.0f samples/s = %.2f ms%n", batch, rate, stepSeconds * 1e3);
                double assembly = batchAssemblyRate(config, batch);
                System.out.printf(java.util.Locale.ROOT, "feeding: a batch of %d windows from a shard (%d B a window: %.1f MB/s at %.0f "
                                + "samples/s) assembled in %.2f ms on one thread (%.0f windows/s, %.0f%% of a step)%n",
                        batch, config.window + 4, rate * (config.window + 4) / 1e6, rate, batch / assembly * 1e3, assembly,
                        100 * rate / assembly);
                System.out.printf(java.util.Locale.ROOT, "%9s %10s %10s %11s %9s%n", "frequency", "steps ms", "round ms", "overhead ms", "overhead");
                AveragingTrainer warmup = new AveragingTrainer(config, train).simulatingSteps(stepSeconds);
                TrainingState warmupState = TrainingState.start(ParameterLayout.of(config).initialise(train.seed, DataType.FLOAT));
                for (int r = 0; r < warmupRounds; r++) {
                    warmup.round(spark, rdd, warmupState, 0, 1, 1, Long.MAX_VALUE);
                }
                // Round-robin over the frequencies, so a change in the machine's load during the
                // run touches every frequency alike.
                java.util.Map<Integer, List<Double>> times = new java.util.LinkedHashMap<>();
                java.util.Map<Integer, AveragingTrainer> trainers = new java.util.HashMap<>();
                for (int frequency : frequencies) {
                    times.put(frequency, new ArrayList<>());
                    train.averagingFrequency = frequency;
                    trainers.put(frequency, new AveragingTrainer(config, train).simulatingSteps(stepSeconds));
                }
                TrainingState state = TrainingState.start(ParameterLayout.of(config).initialise(train.seed, DataType.FLOAT));
                for (int r = 0; r < rounds; r++) {
                    for (int frequency : frequencies) {
                        long started = System.nanoTime();
                        trainers.get(frequency).round(spark, rdd, state, 0, 1, frequency, Long.MAX_VALUE);
                        times.get(frequency).add((System.nanoTime() - started) / 1e6);
                    }
                }
                java.util.TreeMap<Integer, Double> overheads = new java.util.TreeMap<>();
                for (int frequency : frequencies) {
                    List<Double> sorted = new ArrayList<>(times.get(frequency));
                    Collections.sort(sorted);
                    double round = sorted.get(sorted.size() / 2);
                    double steps = frequency * stepSeconds * 1e3;
                    double overhead = (round - steps) / round;
                    System.out.printf(java.util.Locale.ROOT, "%9d %10.1f %10.1f %11.1f %8.1f%%%n", frequency, steps, round, round - steps,
                            100 * overhead);
                    overheads.put(frequency, overhead);
                }
                // The smallest frequency from which on every larger one measured stays within 5%.
                Integer enough = null;
                for (var entry : overheads.descendingMap().entrySet()) {
                    if (entry.getValue() > 0.05) {
                        break;
                    }
                    enough = entry.getKey();
                }
                System.out.println("frequency for <=5% overhead: " + (enough != null ? enough : "none of " + frequencies));
                return 0;
            } finally {
                SparkShutdown.stop(session);
            }
        }
    }

    /**
     * Windows/s that {@link LocalSteps.Batch#of} gathers from a shard into a minibatch's arrays
     * on this thread (median of ~0.2 s intervals over 2 s): the CPU side of feeding a fast worker.
     */
    static double batchAssemblyRate(ModelConfig config, int batch) {
        int size = Math.max(batch * 16, 1 << 20);
        LabelledWindows shard = LabelledWindows.random(size, config.window, config.languages, 7);
        int[] order = org.langid.model.train.Shuffle.permutation(size, 7, 0);
        List<Double> rates = new ArrayList<>();
        int from = 0;
        long end = System.nanoTime() + 2_000_000_000L;
        while (System.nanoTime() < end) {
            long started = System.nanoTime();
            long windows = 0;
            do {
                if (from + batch > size) {
                    from = 0;
                }
                LocalSteps.Batch.of(shard, order, from, from + batch);
                from += batch;
                windows += batch;
            } while (System.nanoTime() - started < 200_000_000L);
            rates.add(windows / ((System.nanoTime() - started) / 1e9));
        }
        Collections.sort(rates);
        return rates.get(rates.size() / 2);
    }

    @Command(name = "predict", mixinStandardHelpOptions = true,
            description = "Detection throughput and accuracy of the model and of Lingua 1.2.2 (restricted to the model's "
                    + "languages, high accuracy) on the same test windows, batched, with the same number of threads, after a "
                    + "warm-up of each. Last line: 'speedup: X', our windows/s over Lingua's.")
    static final class Predict implements Callable<Integer> {

        @Mixin
        DetectorOptions detectorOptions;

        @Option(names = {"-i", "--input"}, required = true, paramLabel = "DIR", description = "Output directory of langid prepare.")
        String prepared;

        @Option(names = "--split", defaultValue = "test", description = "Default: ${DEFAULT-VALUE}.")
        String split;

        @Option(names = "--windows", defaultValue = "20000", description = "Seeded random sample of the split's windows. Default: ${DEFAULT-VALUE}.")
        int windows;

        @Option(names = "--threads", description = "Threads for each detector. Default: the machine's cores.")
        Integer threads;

        @Mixin
        SparkOptions sparkOptions;

        @Override
        public Integer call() {
            int n = threads != null ? threads : Runtime.getRuntime().availableProcessors();
            var detector = detectorOptions.load(new Configuration(), n);
            List<org.langid.jobs.evaluate.Candidate> candidates = List.of(
                    new org.langid.jobs.evaluate.ModelCandidate(detector, n),
                    new org.langid.jobs.evaluate.LinguaCandidate(detector.languages(), n));
            var spark = sparkOptions.start("langid bench predict");
            com.fasterxml.jackson.databind.node.ObjectNode report;
            try {
                var data = new org.langid.jobs.evaluate.EvaluateJob.Data(prepared + "/windows/split=" + split, null, prepared, split, windows, 0);
                // Warm-up: JIT, graph sessions and Lingua's lazily built structures, untimed.
                org.langid.jobs.evaluate.EvaluateJob.run(spark, detector, detectorOptions.artefactLocation,
                        new org.langid.jobs.evaluate.EvaluateJob.Data(data.windowsPath(), null, prepared, split, Math.min(windows, 4000), 0),
                        candidates);
                report = org.langid.jobs.evaluate.EvaluateJob.run(spark, detector, detectorOptions.artefactLocation, data, candidates);
            } finally {
                SparkShutdown.stop(spark);
            }
            var ours = report.get("detectors").get(0).get("windows");
            var lingua = report.get("detectors").get(1).get("windows");
            System.out.printf(java.util.Locale.ROOT, "windows: %d of %s/%s, %d threads each, model %s%n", ours.get("count").asLong(),
                    prepared, split, n, detector.manifest().modelVersion());
            System.out.printf(java.util.Locale.ROOT, "%-14s %12s %10s%n", "detector", "windows/s", "accuracy");
            System.out.printf(java.util.Locale.ROOT, "%-14s %12.0f %9.2f%%%n", "langid", ours.get("per_second").asDouble(),
                    100 * ours.get("accuracy").asDouble());
            System.out.printf(java.util.Locale.ROOT, "%-14s %12.0f %9.2f%%%n", "lingua-1.2.2", lingua.get("per_second").asDouble(),
                    100 * lingua.get("accuracy").asDouble());
            System.out.printf(java.util.Locale.ROOT, "speedup: %.1f%n", ours.get("per_second").asDouble() / lingua.get("per_second").asDouble());
            return 0;
        }
    }

    @Command(name = "windows", mixinStandardHelpOptions = true,
            description = "Writes a prepared split's windows as text, one per line: 'language<TAB>window' (the seeded sample "
                    + "evaluate scores), so that other detectors can be run on exactly the windows ours sees.")
    static final class Windows implements Callable<Integer> {

        @Option(names = {"-i", "--input"}, required = true, paramLabel = "DIR", description = "Output directory of langid prepare.")
        String prepared;

        @Option(names = "--split", defaultValue = "test", description = "Default: ${DEFAULT-VALUE}.")
        String split;

        @Option(names = "--windows", defaultValue = "0", description = "Seeded random sample of this many windows; 0: all. Default: ${DEFAULT-VALUE}.")
        int windows;

        @Option(names = "--languages", split = ",", defaultValue = "en,de,fr,es,it,pt,nl,sv", description = "Default: ${DEFAULT-VALUE}.")
        List<String> languages;

        @Option(names = "--window", defaultValue = "16", description = "Window length. Default: ${DEFAULT-VALUE}.")
        int window;

        @Option(names = {"-o", "--output"}, required = true, paramLabel = "FILE", description = "Local text file to write.")
        java.nio.file.Path output;

        @Mixin
        SparkOptions sparkOptions;

        @Override
        public Integer call() throws java.io.IOException {
            var spark = sparkOptions.start("langid bench windows");
            org.langid.model.train.LabelledWindows chosen;
            org.langid.text.Alphabet alphabet;
            try {
                alphabet = org.langid.jobs.prepare.PreparedAlphabet.read(prepared, spark.sparkContext().hadoopConfiguration());
                chosen = org.langid.jobs.evaluate.EvaluateJob.sample(org.langid.jobs.train.WindowsReader.readPath(spark,
                        prepared + "/windows/split=" + split, languages, window, alphabet), windows);
            } finally {
                SparkShutdown.stop(spark);
            }
            try (var out = java.nio.file.Files.newBufferedWriter(output, java.nio.charset.StandardCharsets.UTF_8)) {
                for (int i = 0; i < chosen.size(); i++) {
                    out.write(languages.get(chosen.labels()[i]) + "\t" + alphabet.decode(chosen.symbols(), i * window, window) + "\n");
                }
            }
            System.out.printf("windows: %d of %s/%s written to %s%n", chosen.size(), prepared, split, output);
            return 0;
        }
    }
}
