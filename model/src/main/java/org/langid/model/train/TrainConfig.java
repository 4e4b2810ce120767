package org.langid.model.train;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.langid.model.config.ConfigException;
import org.langid.model.config.ConfigTree;
import org.langid.model.config.ValidatedConfig;
import org.langid.model.graph.ModelConfig;

/**
 * How a model is trained: the {@code train:} section of a profile. Its recipe (seed, dropout,
 * optimiser, distillation) decides what training computes; the rest how long, in what pieces and
 * how a step runs. A manifest records it under {@code training.train}; an exported model needs
 * none of it to answer ({@link ModelConfig}).
 */
public class TrainConfig implements ValidatedConfig, java.io.Serializable {

    private static final long serialVersionUID = 1L;

    /** Seeds parameter initialisation, shuffling and dropout. */
    public long seed = 12345L;
    /** Probability of dropping an activation while training (after attention and feed-forward); 0 disables. */
    public double dropout = 0.0;
    /**
     * The share of n-grams that select nothing in a training step, drawn anew for every n-gram of
     * every window. With the model's n-gram filter, n-grams of new text that training never saw
     * select nothing at inference; dropping seen ones in training teaches the model to read windows
     * with such gaps (+0.16 points on UDHR's windows, +0.33 on Wesnoth's, full corpus). 0: every
     * n-gram selects its row.
     */
    public double ngramDropout = 0.3;
    public Optimizer optimizer = new Optimizer();
    /** Training on the probabilities of teacher models beside the labels. */
    public Distillation distillation = new Distillation();

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

    /** Adam, with a warm-up and an optional decay; the n-gram table may learn by its own rule. */
    public static class Optimizer implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        public double learningRate = 2e-3;
        public double beta1 = 0.9;
        public double beta2 = 0.999;
        public double epsilon = 1e-8;
        /** Linear warm-up from 0 over this many steps. */
        public int warmupSteps = 100;
        /**
         * After warm-up: none, linear or cosine decay towards min_learning_rate over decay_steps.
         * None: under the weight average (ema_span) a constant rate gained 0.1 points on UDHR's
         * windows over cosine.
         */
        public String decay = "none";
        /** Steps over which the rate decays after warm-up; 0: the trainer sets it to the run's total steps. */
        public long decaySteps = 0;
        public double minLearningRate = 1e-4;
        /**
         * How the n-gram table learns: {@code sgd} (plain SGD on the rows the minibatch selected,
         * as fastText's: memorises less, +0.5 points out of domain, twice as fast as lazy at a
         * million rows), {@code lazy} (Adam on those rows only, as TensorFlow's LazyAdam) or
         * {@code dense} (Adam on every row, every step). With sgd or lazy, Spark rounds move only
         * the changed rows.
         */
        public String ngramUpdates = "sgd";
        /**
         * With {@code ngram_updates: sgd}: the table's peak learning rate. Its rows take plain SGD
         * steps (rate times gradient, on the rows the minibatch selected, following the same
         * schedule), as fastText's do, while the rest of the model stays on Adam. Adam moves a row
         * seen once by a full step whatever its gradient; SGD moves it by what it got wrong.
         */
        public double ngramLearningRate = 10;
    }

    /**
     * Distillation: the training target of a window is (1 - weight) · its label + weight · the
     * teachers' mean probabilities for it, each raised to 1/temperature and renormalised. The
     * teachers' probabilities carry what a label cannot: how far a window could be another
     * language (bench/EXPERIMENTS.md, "Distillation").
     */
    public static class Distillation implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        /** The teachers' share of the target; 0: labels only. */
        public double weight = 0;
        /** Above 1 softens the teachers' probabilities (they are near one-hot on most windows). */
        public double temperature = 4;
        /** Exported models (artefact directories or registries) with this model's languages and window. */
        public List<String> teachers = new ArrayList<>();
        /**
         * With weight above 0 and no teachers listed: {@code langid train}, {@code pipeline} and
         * {@code retrain} first train this many models of the same configuration without distillation (seeds
         * seed + 1, seed + 2, ...), export them, and distil from them.
         */
        public int selfTeachers = 3;
        /**
         * Settings of {@code model:} in which the self-teachers differ from the student, e.g.
         * {@code {d_model: 64, ffn: 128}}: a narrower teacher trains in half the time and a d-128
         * student learns as much from it (bench/EXPERIMENTS.md, "Distillation"). Empty: the
         * student's own model. Not languages, window or alphabet.
         */
        public Map<String, Object> selfTeacherModel = new LinkedHashMap<>();

        /** Whether training targets mix in teachers' probabilities. */
        public boolean enabled() {
            return weight > 0;
        }
    }

    /** The teachers' share of each window's training target: 0 without distillation. */
    public double teacherWeight() {
        return distillation.enabled() ? distillation.weight : 0;
    }

    /** Whether a training step of {@code model} changes only the n-gram table rows its minibatch selected (lazy Adam or SGD). */
    public boolean sparseTableUpdates(ModelConfig model) {
        return model.ngrams() && List.of("lazy", "sgd").contains(optimizer.ngramUpdates);
    }

    /** The self-teachers' model: {@code student} with {@code distillation.self_teacher_model} written over it. */
    public ModelConfig selfTeacherModel(ModelConfig student) {
        return ConfigTree.copyWith(student, distillation.selfTeacherModel, ModelConfig.class, "train.distillation.self_teacher_model");
    }

    /** How the {@code i}-th self-teacher trains: as this, on seed + i, without distillation. */
    public TrainConfig selfTeacherTraining(int i) {
        TrainConfig teacher = ConfigTree.copy(this, TrainConfig.class);
        teacher.seed = seed + i;
        teacher.distillation = new Distillation();
        teacher.distillation.selfTeachers = 0;   // a teacher distils from nothing
        return teacher;
    }

    /**
     * A {@code train} section as training summaries, checkpoints and manifests of earlier versions
     * wrote it, with the recipe their {@code model} section held then ({@link ModelConfig#MOVED_TO_TRAIN});
     * unchanged when {@code model} holds none of it.
     */
    public static JsonNode withRecipeFrom(JsonNode train, JsonNode model) {
        if (model == null || ModelConfig.MOVED_TO_TRAIN.stream().noneMatch(model::has)) {
            return train;
        }
        ObjectNode copy = train instanceof ObjectNode object ? object.deepCopy() : ((ObjectNode) model).objectNode();
        for (String key : ModelConfig.MOVED_TO_TRAIN) {
            if (model.has(key) && !copy.has(key)) {
                copy.set(key, model.get(key).deepCopy());
            }
        }
        return copy;
    }

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
        if (dropout < 0 || dropout >= 1) {
            problems.add("dropout must be in [0, 1), got " + dropout);
        }
        if (ngramDropout < 0 || ngramDropout >= 1) {
            problems.add("ngram_dropout must be in [0, 1), got " + ngramDropout);
        }
        problems.addAll(optimizerProblems());
        problems.addAll(distillationProblems());
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

    private List<String> optimizerProblems() {
        List<String> problems = new ArrayList<>();
        if (!(optimizer.learningRate > 0)) {
            problems.add("optimizer.learning_rate must be positive, got " + optimizer.learningRate);
        }
        if (optimizer.minLearningRate < 0 || optimizer.minLearningRate > optimizer.learningRate) {
            problems.add("optimizer.min_learning_rate must be in [0, learning_rate], got " + optimizer.minLearningRate);
        }
        if (!List.of("none", "linear", "cosine").contains(optimizer.decay)) {
            problems.add("optimizer.decay '" + optimizer.decay + "' is not one of none, linear, cosine");
        }
        if (!List.of("dense", "lazy", "sgd").contains(optimizer.ngramUpdates)) {
            problems.add("optimizer.ngram_updates '" + optimizer.ngramUpdates + "' is not one of dense, lazy, sgd");
        } else if ("sgd".equals(optimizer.ngramUpdates) != optimizer.ngramLearningRate > 0) {
            problems.add("optimizer.ngram_learning_rate must be positive with ngram_updates sgd, and 0 otherwise, got "
                    + optimizer.ngramLearningRate);
        }
        if (optimizer.warmupSteps < 0 || optimizer.decaySteps < 0) {
            problems.add("optimizer.warmup_steps and decay_steps must be 0 or more");
        }
        return problems;
    }

    private List<String> distillationProblems() {
        List<String> problems = new ArrayList<>();
        if (distillation.weight < 0 || distillation.weight > 1) {
            problems.add("distillation.weight must be in [0, 1], got " + distillation.weight);
        }
        if (!(distillation.temperature > 0)) {
            problems.add("distillation.temperature must be positive, got " + distillation.temperature);
        }
        if (distillation.selfTeachers < 0) {
            problems.add("distillation.self_teachers must be 0 or more, got " + distillation.selfTeachers);
        }
        if (distillation.enabled() && distillation.teachers.isEmpty() && distillation.selfTeachers == 0) {
            problems.add("distillation.weight " + distillation.weight + " needs distillation.teachers or distillation.self_teachers");
        }
        for (String fixed : List.of("languages", "window", "alphabet")) {
            if (distillation.selfTeacherModel.containsKey(fixed)) {
                problems.add("distillation.self_teacher_model cannot change " + fixed + " (a teacher has the student's languages and window)");
            }
        }
        return problems;
    }

    /**
     * The problems of this section, and of the self-teachers' model ({@code distillation.self_teacher_model}
     * over {@code model}), so that a wrong teacher setting is named before anything trains.
     */
    public List<String> problemsWith(ModelConfig model) {
        List<String> problems = problems();
        if (!distillation.selfTeacherModel.isEmpty() && problems.isEmpty()) {
            try {
                problems.addAll(selfTeacherModel(model).problems().stream().map(p -> "distillation.self_teacher_model: " + p).toList());
            } catch (ConfigException e) {
                problems.add(e.getMessage());
            }
        }
        return problems;
    }

    /** This section, checked with {@code model} ({@link #problemsWith}); a {@link ConfigException} naming every problem otherwise. */
    public TrainConfig validatedFor(ModelConfig model) {
        List<String> problems = problemsWith(model);
        if (!problems.isEmpty()) {
            throw new ConfigException("section 'train': " + String.join("; ", problems));
        }
        return this;
    }
}
