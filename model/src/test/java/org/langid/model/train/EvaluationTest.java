package org.langid.model.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.langid.model.artefact.ModelArtefact;
import org.langid.model.data.Split;
import org.langid.model.graph.LanguageIdGraph;
import org.langid.model.graph.ModelConfig;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Validation (run by the exported ONNX graph) reports what the trained SameDiff graph computes:
 * on the eight-language seed model (models/versions) and the sample's test windows, the same windows right, to within those
 * whose two best languages the graph itself separates by less than the flavours' tolerance, and
 * the same mean cross-entropy; and a split into parts adds up to the whole.
 */
class EvaluationTest {

    private static final double TOLERANCE = 1e-4;   // OnnxParityTest's, per probability

    @Test
    void validationCountsWhatTheTrainedGraphGetsRight() throws Exception {
        Configuration conf = new Configuration();
        ModelArtefact release = ModelArtefact.load(Path.of("..", "models", "versions", "20261128T222203Z-b9cd9045").toString(), conf);
        ModelConfig config = release.manifest().modelConfig();
        LabelledWindows test = SampleCorpus.load(config.languages, config.window, 1).get(Split.TEST);
        int rows = Math.min(test.size(), 20_000);
        int[] order = new int[test.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        LabelledWindows windows = test.select(order, 0, rows);

        Evaluation evaluation = Evaluation.of(config, release.parameters(), release.ngramFilter(), windows, 1024, 1);

        SameDiff graph = release.newGraph();
        int t = config.window;
        int classes = config.classes();
        long surelyRight = 0;
        long close = 0;
        double lossSum = 0;
        for (int from = 0; from < rows; from += 4096) {
            int n = Math.min(4096, rows - from);
            int[] symbols = new int[n * t];
            for (int i = 0; i < symbols.length; i++) {
                symbols[i] = windows.symbols()[from * t + i];
            }
            Map<String, INDArray> feed = LanguageIdGraph.inputs(config, graph, symbols, n);
            float[] p = graph.output(feed, LanguageIdGraph.PROBABILITIES).get(LanguageIdGraph.PROBABILITIES).dup('c').data().asFloat();
            for (int row = 0; row < n; row++) {
                int label = windows.labels()[from + row];
                float labelled = p[row * classes + label];
                float bestOther = 0;
                for (int c = 0; c < classes; c++) {
                    if (c != label) {
                        bestOther = Math.max(bestOther, p[row * classes + c]);
                    }
                }
                if (Math.abs(labelled - bestOther) <= 2 * TOLERANCE) {
                    close++;
                } else if (labelled > bestOther) {
                    surelyRight++;
                }
                lossSum -= Math.log(Math.max(1e-12, labelled));
            }
        }
        assertEquals(rows, evaluation.windows());
        assertTrue(evaluation.correct() >= surelyRight && evaluation.correct() <= surelyRight + close,
                evaluation.correct() + " right, the graph: " + surelyRight + " and " + close + " too close to call");
        assertTrue(evaluation.accuracy() > 0.9, "the release's accuracy " + evaluation.accuracy());
        assertEquals(lossSum / rows, evaluation.meanLoss(), 1e-3 * lossSum / rows);

        // Parts cut at a batch boundary run the same batches, so they must add up exactly.
        int cut = 6 * 1024;
        Evaluation first = Evaluation.of(config, release.parameters(), release.ngramFilter(), windows.select(order, 0, cut), 1024, 1);
        Evaluation rest = Evaluation.of(config, release.parameters(), release.ngramFilter(), windows.select(order, cut, rows - cut), 1024, 1);
        Evaluation combined = Evaluation.combine(first, rest);
        assertEquals(evaluation.windows(), combined.windows());
        assertEquals(evaluation.correct(), combined.correct());
        assertEquals(evaluation.meanLoss(), combined.meanLoss(), 1e-6);
    }
}
