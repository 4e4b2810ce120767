package org.langid.model.train;

import org.langid.model.graph.LanguageIdGraph;
import org.langid.model.graph.ModelConfig;
import org.langid.model.graph.ParameterLayout;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The parameters a model serves with, from those it trained with, and back.
 *
 * <p>With {@code model.ngram_dropout} p, each training position summed the rows of the n-grams
 * left after a share p was dropped; inference drops none (but those the filter drops), so the
 * same table would add 1 / (1 − p) times what training saw on average. Dropout's weight-scaling
 * rule (Srivastava et al., 2014) multiplies the table by 1 − p once, where a trained state
 * becomes a model: export and validation. Measured on the release and the pipeline:
 * bench/NGRAMS.md, "Scaling the table as dropout does".
 */
public final class InferenceParameters {

    private InferenceParameters() {
    }

    /** The factor on the n-gram table: 1 − ngram_dropout (1 for a model without n-gram dropout). */
    public static double ngramTableScale(ModelConfig config) {
        return config.ngrams() ? 1 - config.ngramDropout : 1;
    }

    /** {@code trained} with the n-gram table scaled: {@code trained} itself when the scale is 1, else a copy. */
    public static INDArray of(ModelConfig config, INDArray trained) {
        return scaled(config, trained, ngramTableScale(config));
    }

    /**
     * The parameters to continue training from, given a model's: its table divided by
     * {@code tableScale}, the factor its export applied (the manifest's
     * {@code training.ngram_table_scale}; 1 for models exported before it).
     */
    public static INDArray toTraining(ModelConfig config, INDArray served, double tableScale) {
        if (!(tableScale > 0 && tableScale <= 1)) {
            throw new IllegalArgumentException("an n-gram table scale must be in (0, 1], got " + tableScale);
        }
        return scaled(config, served, 1 / tableScale);
    }

    private static INDArray scaled(ModelConfig config, INDArray parameters, double factor) {
        if (factor == 1 || !config.ngrams()) {
            return parameters;
        }
        INDArray copy = parameters.dup();
        ParameterLayout.of(config).views(copy).get(LanguageIdGraph.NGRAM_TABLE).muli(factor);   // (buckets, e), a view of copy
        return copy;
    }
}
