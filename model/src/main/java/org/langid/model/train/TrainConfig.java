package org.langid.model.train;

import java.util.ArrayList;
import java.util.List;
import org.langid.model.config.ValidatedConfig;

/** How long and in what pieces to train: the {@code train:} section of a profile. */
public class TrainConfig implements ValidatedConfig {

    /** Windows per minibatch (per worker, for the Spark trainer). */
    public int batchSize = 256;
    /**
     * Spark trainer: minibatches each worker takes between two averagings (5 to 80 were equally
     * accurate on the sample; each round moves the table's changed rows); both trainers: between
     * two updates of the weight average.
     */
    public int averagingFrequency = 40;
    /** Stop after this many epochs without a better validation accuracy (0: never stop early). */
    public int earlyStoppingPatience = 0;
    /** An epoch counts as better only if validation accuracy rises by more than this. */
    public double earlyStoppingMinImprovement = 0.001;
    /** Spark trainer: write a checkpoint every this many epochs (and after the last). */
    public int checkpointEveryEpochs = 1;
    /** Spark trainer: also write one within an epoch when this many minutes have passed since the last (0: never). */
    public double checkpointEveryMinutes = 0;
    /** One pass: a second only memorises a corpus as small as the sample; on a large one it can pay. */
    public int epochs = 1;
    /** Stop after this many steps in all (0: no limit). */
    public long maxSteps = 0;
    /** Print progress at most this often. */
    public double logEverySeconds = 10;
    /**
     * Windows evaluated per inference batch; as conf/local.yaml: each worker holds a batch's
     * activations: in ConvergenceTest 4096 took the JVM to 7.7 GB resident, 1024 to 2.6 GB, in the same time.
     */
    public int evaluationBatchSize = 1024;
    /** Threads for ND4J's native ops per training worker (see NativeThreads for why 1). */
    public int nativeThreads = 1;
    /** Share of training windows shown in all capitals or all lower case (see CaseAugmentation); 0: none. */
    public double caseAugmentation = 0;
    /**
     * The exported weights are an exponential moving average of the run's parameters with this
     * time constant, as a share of the run's planned windows (see WeightAverage); 0: the last step's.
     * Half the run gained 0.3 points on UDHR's windows.
     */
    public double emaSpan = 0.5;
    /**
     * How a step runs: {@code replay} records the first step of each batch size and replays its
     * native calls without SameDiff's session, on faster kernels where the CPU allows (same
     * results to float rounding); {@code samediff} runs every step through SameDiff's session.
     * GPU workers take SameDiff's session either way.
     */
    public String execution = Execution.REPLAY.key;
    /**
     * Diagnostics: every this many replayed steps the log gets each call's mean time, and each
     * recorded step's calls with their arrays when it is recorded; 0: off.
     */
    public int profileEverySteps = 0;

    /** The values of {@link #execution}. */
    public enum Execution {
        REPLAY("replay"), SAMEDIFF("samediff");

        public final String key;

        Execution(String key) {
            this.key = key;
        }

        static Execution of(String key) {
            for (Execution execution : values()) {
                if (execution.key.equals(key)) {
                    return execution;
                }
            }
            return null;
        }

        static String keys() {
            return String.join(" or ", java.util.Arrays.stream(values()).map(e -> e.key).toList());
        }
    }

    /** {@link #execution}, typed. */
    public Execution execution() {
        Execution typed = Execution.of(execution);
        if (typed == null) {
            throw new IllegalArgumentException(executionProblem());
        }
        return typed;
    }

    private String executionProblem() {
        return "execution must be " + Execution.keys() + ", got '" + execution + "'";
    }

    @Override
    public List<String> problems() {
        List<String> problems = new ArrayList<>();
        if (batchSize < 1) {
            problems.add("batch_size must be at least 1, got " + batchSize);
        }
        if (averagingFrequency < 1) {
            problems.add("averaging_frequency must be at least 1, got " + averagingFrequency);
        }
        if (earlyStoppingPatience < 0 || earlyStoppingMinImprovement < 0) {
            problems.add("early_stopping_patience and early_stopping_min_improvement must be 0 or more");
        }
        if (!(checkpointEveryMinutes >= 0)) {
            problems.add("checkpoint_every_minutes must be 0 (off) or more, got " + checkpointEveryMinutes);
        }
        if (checkpointEveryEpochs < 1) {
            problems.add("checkpoint_every_epochs must be at least 1, got " + checkpointEveryEpochs);
        }
        if (epochs < 1) {
            problems.add("epochs must be at least 1, got " + epochs);
        }
        if (maxSteps < 0) {
            problems.add("max_steps must be 0 (no limit) or positive, got " + maxSteps);
        }
        if (nativeThreads < 1) {
            problems.add("native_threads must be at least 1, got " + nativeThreads);
        }
        if (evaluationBatchSize < 1) {
            problems.add("evaluation_batch_size must be at least 1, got " + evaluationBatchSize);
        }
        if (!(caseAugmentation >= 0 && caseAugmentation <= 1)) {
            problems.add("case_augmentation must be between 0 and 1, got " + caseAugmentation);
        }
        if (!(emaSpan >= 0)) {
            problems.add("ema_span must be 0 (off) or more, got " + emaSpan);
        }
        if (Execution.of(execution) == null) {
            problems.add(executionProblem());
        }
        if (profileEverySteps < 0) {
            problems.add("profile_every_steps must be 0 (off) or more, got " + profileEverySteps);
        }
        return problems;
    }
}
