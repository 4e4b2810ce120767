package org.langid.model.train;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.langid.model.artefact.Manifest;
import org.langid.model.artefact.ModelArtefact;
import org.langid.model.artefact.ModelRegistry;
import org.langid.model.graph.ModelConfig;
import org.langid.serving.OnnxWindowClassifier;
import org.langid.serving.WindowClassifier;

/**
 * The probabilities one or more exported models (averaged) give each training window: the soft
 * half of a distillation target ({@code train.distillation}). Runs their ONNX graphs, one thread
 * each; one teacher per training thread.
 */
public final class Teacher implements AutoCloseable {

    private final List<WindowClassifier> models = new ArrayList<>();
    private final int classes;
    private final double temperature;

    /** The teachers of {@code distillation}, which must list them, for a student of {@code config}. */
    public static Teacher of(ModelConfig config, TrainConfig.Distillation distillation) {
        if (distillation.teachers.isEmpty()) {
            throw new IllegalArgumentException("train.distillation lists no teachers"
                    + (distillation.selfTeachers > 0 ? " (self_teachers are trained by langid train, pipeline and retrain)" : ""));
        }
        return new Teacher(distillation.teachers, config.languages, config.window, distillation.temperature);
    }

    /**
     * @param locations   artefacts or registries (their current version)
     * @param languages   the student's languages, in its order; each teacher must have the same
     * @param temperature teacher probabilities raised to 1/T and renormalised (1: as they are)
     */
    public Teacher(List<String> locations, List<String> languages, int window, double temperature) {
        Configuration conf = new Configuration();
        this.classes = languages.size();
        this.temperature = temperature;
        for (String location : locations) {
            ModelArtefact artefact = ModelArtefact.load(ModelRegistry.resolve(location, conf), conf);
            Manifest manifest = artefact.manifest();
            if (!manifest.languages().equals(languages) || manifest.window() != window) {
                throw new IllegalArgumentException("teacher " + location + " has languages " + manifest.languages()
                        + " and window " + manifest.window() + "; the model trains " + languages + " and " + window);
            }
            byte[] onnx = artefact.onnxModel().orElseThrow(() -> new IllegalArgumentException(
                    "teacher " + location + " has no model.onnx (langid export --add-onnx adds it)"));
            models.add(new OnnxWindowClassifier(onnx, manifest.modelVersion(), window, classes, 1));
        }
    }

    /** The teachers' mean probabilities (rows, C), row-major, tempered. */
    public double[] probabilities(int[] symbols, int rows) {
        double[] mean = new double[rows * classes];
        for (WindowClassifier model : models) {
            float[] p = model.probabilities(symbols, rows);
            for (int i = 0; i < mean.length; i++) {
                mean[i] += p[i] / models.size();
            }
        }
        if (temperature != 1) {
            for (int r = 0; r < rows; r++) {
                double sum = 0;
                for (int c = 0; c < classes; c++) {
                    double v = Math.pow(mean[r * classes + c], 1 / temperature);
                    mean[r * classes + c] = v;
                    sum += v;
                }
                for (int c = 0; c < classes; c++) {
                    mean[r * classes + c] /= sum;
                }
            }
        }
        return mean;
    }

    @Override
    public void close() {
        models.forEach(WindowClassifier::close);
    }
}
