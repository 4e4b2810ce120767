package org.langid.model.train.trace;

import java.util.ArrayList;
import java.util.List;
import org.langid.model.TestConfigs;
import org.langid.model.graph.ModelConfig;
import org.langid.model.graph.ParameterLayout;
import org.langid.model.train.LocalSteps;
import org.langid.model.train.TrainingState;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.OpContext;
import org.nd4j.linalg.factory.Nd4j;

/** A real recorded training step, for the tests of the plan's rewrites (LayerNormFusion, HeadLayouts). */
public final class RecordedStep {

    private RecordedStep() {
    }

    /** A small two-layer model without n-grams (windows of 6, d 8, 2 heads, FFN 8, 3 languages), for replay tests. */
    public static ModelConfig twoLayerConfig() {
        ModelConfig config = TestConfigs.model();
        config.window = 6;
        config.dModel = 8;
        config.heads = 2;
        config.layers = 2;
        config.ffn = 8;
        config.ngramBuckets = 0;
        config.languages = List.of("en", "de", "fr");
        return config;
    }

    /** The native calls of one SameDiff step of {@link #twoLayerConfig()}, as recorded. */
    public static List<Call> twoLayers() {
        ModelConfig config = twoLayerConfig();
        LocalSteps steps = new LocalSteps(config, TestConfigs.training(), TrainingState.start(ParameterLayout.of(config).initialise(3, DataType.FLOAT)), 20);
        StepRecorder recorder = new StepRecorder();
        steps.addListener(recorder);
        steps.step(Nd4j.createFromArray(new int[][] {{1, 2, 3, 4, 5, 6}, {7, 8, 9, 10, 11, 12}, {3, 3, 3, 68, 68, 68}}),
                Nd4j.createFromArray(new int[] {0, 1, 2}));
        return recorder.recorded();
    }

    /** {@code calls} and, after them, one more call (running {@code like}'s op) that reads {@code array}. */
    public static List<Call> withReaderOf(List<Call> calls, Call like, INDArray array) {
        OpContext context = Nd4j.getExecutioner().buildContext();
        context.setInputArrays(array);
        context.setOutputArrays(array.ulike());
        List<Call> extended = new ArrayList<>(calls);
        extended.add(new Call(like.op(), context, null, Call.Kernel.NATIVE));
        return extended;
    }
}
