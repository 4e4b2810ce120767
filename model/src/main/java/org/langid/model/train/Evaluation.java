package org.langid.model.train;

import java.util.Map;
import org.langid.model.graph.LanguageIdGraph;
import org.langid.model.graph.ModelConfig;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.ndarray.INDArray;

/** Accuracy and mean cross-entropy of a parameter vector on labelled windows (inference graph, no dropout). */
public record Evaluation(long windows, long correct, double meanLoss) implements java.io.Serializable {

    /** Two evaluations of disjoint windows as one. */
    public static Evaluation combine(Evaluation a, Evaluation b) {
        long windows = a.windows + b.windows;
        return new Evaluation(windows, a.correct + b.correct,
                windows == 0 ? 0 : (a.meanLoss * a.windows + b.meanLoss * b.windows) / windows);
    }

    public double accuracy() {
        return windows == 0 ? 0 : correct / (double) windows;
    }

    public static Evaluation of(ModelConfig config, INDArray parameters, LabelledWindows data, int batchSize) {
        SameDiff sd = LanguageIdGraph.build(config, parameters.dup(), false).sameDiff();
        int n = data.size();
        int[] identity = new int[n];
        for (int i = 0; i < n; i++) {
            identity[i] = i;
        }
        long correct = 0;
        double lossSum = 0;
        StepArena arena = new StepArena();   // batches of one shape: recycle their arrays, as training does
        for (int from = 0; from < n; from += batchSize) {
            int to = Math.min(n, from + batchSize);
            LocalSteps.Batch batch = LocalSteps.Batch.of(data, identity, from, to);
            Map<String, INDArray> feed = LanguageIdGraph.inputs(config, sd, batch.windows().dup('c').data().asInt(), to - from);
            INDArray probabilities = sd.output(feed, LanguageIdGraph.PROBABILITIES).get(LanguageIdGraph.PROBABILITIES); // (B, C)
            INDArray predicted = probabilities.argMax(1);                                                             // (B)
            for (int row = 0; row < to - from; row++) {
                int label = data.labels()[from + row];
                if (predicted.getInt(row) == label) {
                    correct++;
                }
                lossSum -= Math.log(Math.max(1e-12, probabilities.getDouble(row, label)));
            }
            arena.recycle();
            arena.install(sd);
        }
        arena.close();
        return new Evaluation(n, correct, n == 0 ? 0 : lossSum / n);
    }
}
