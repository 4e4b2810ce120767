package org.langid.jobs.train;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.langid.jobs.export.ArtefactExport;
import org.langid.model.artefact.ModelArtefact;
import org.langid.model.artefact.ModelRegistry;
import org.langid.model.config.ConfigTree;
import org.langid.model.graph.ModelConfig;
import org.langid.model.train.LocalTrainer;
import org.langid.model.train.TrainConfig;

/**
 * The teachers of {@code train.distillation.self_teachers}: models of the student's own
 * configuration, without distillation, on other seeds, trained and exported before the student
 * so that it can learn from their mean probabilities (bench/EXPERIMENTS.md, "Distillation").
 */
public final class SelfTeachers {

    private SelfTeachers() {
    }

    /** How the teachers are trained: the student's trainer. */
    public record Trainer(boolean spark, int workers) {
    }

    /**
     * How {@code model} trains: {@code train} as it is when it does not distil; a copy with its
     * listed teachers' paths qualified (executors resolve them, not only this driver) when it lists
     * teachers; otherwise a copy that lists the self-teachers, trained now under {@code dir}/1,
     * {@code dir}/2, ... (each a training output and a registry). With {@code reuse} (a resumed run)
     * a teacher whose registry already holds a model is taken as it is: its training is a function
     * of the same inputs.
     */
    public static TrainConfig resolve(SparkSession spark, String prepared, String dir, ModelConfig model, TrainConfig train,
                                      Trainer trainer, boolean reuse, PrintStream console) {
        TrainConfig.Distillation distillation = train.distillation;
        if (!distillation.enabled()) {
            return train;
        }
        train.validatedFor(model);   // a wrong self_teacher_model before any teacher trains
        Configuration conf = spark.sparkContext().hadoopConfiguration();
        if (!distillation.teachers.isEmpty()) {
            TrainConfig student = ConfigTree.copy(train, TrainConfig.class);
            student.distillation.teachers = distillation.teachers.stream().map(t -> qualified(t, conf)).toList();
            return student;
        }
        List<String> registries = new ArrayList<>();
        for (int i = 1; i <= distillation.selfTeachers; i++) {
            String output = dir + "/" + i;
            String registry = qualified(output + "/registry", conf);
            registries.add(registry);
            if (reuse && new ModelRegistry(registry, conf).currentVersion().isPresent()) {
                console.printf("teacher %d/%d: %s (trained before)%n", i, distillation.selfTeachers, registry);
                continue;
            }
            delete(output, conf);
            ModelConfig teacher = train.selfTeacherModel(model);
            TrainConfig teacherTraining = train.selfTeacherTraining(i);
            long started = System.nanoTime();
            console.printf("teacher %d/%d (seed %d): training%n", i, distillation.selfTeachers, teacherTraining.seed);
            LocalTrainer.Result result = trainer.spark()
                    ? TrainJob.runSpark(spark, prepared, output + "/model", teacher, teacherTraining, trainer.workers(), false)
                    : TrainJob.runLocal(spark, prepared, output + "/model", teacher, teacherTraining);
            ModelArtefact artefact = ArtefactExport.fromTrainingOutput(output + "/model", conf, Instant.now());
            new ModelRegistry(registry, conf).publish(artefact);
            console.printf("teacher %d/%d: validation accuracy %.4f, %.1f s; %s%n", i, distillation.selfTeachers,
                    result.last().validation().accuracy(), (System.nanoTime() - started) / 1e9, registry);
        }
        TrainConfig student = ConfigTree.copy(train, TrainConfig.class);
        student.distillation.teachers = registries;
        return student;
    }

    static String qualified(String path, Configuration conf) {
        try {
            Path p = new Path(path);
            return p.getFileSystem(conf).makeQualified(p).toString();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot resolve " + path + ": " + e.getMessage(), e);
        }
    }

    private static void delete(String dir, Configuration conf) {
        try {
            Path path = new Path(dir);
            path.getFileSystem(conf).delete(path, true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot clear " + dir + ": " + e.getMessage(), e);
        }
    }
}
