package org.langid.model.predict;

import java.util.Map;

/**
 * The language of one text: the most probable language and its probability, the probability
 * of every language (in the model's output order), and how many windows were combined.
 * Text that normalises to nothing gets {@value LanguageDetector#UNDETERMINED}, confidence 0,
 * no probabilities and 0 windows.
 */
public record Detection(String language, double confidence, Map<String, Double> probabilities, int windows) {

    public boolean isDetermined() {
        return windows > 0;
    }
}
