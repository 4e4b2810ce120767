package org.langid.serving;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * The language of one text: the most probable language and its probability, the probability
 * of every language (in the model's output order), and how many windows were combined.
 * Text with nothing the model reads as language (no letters, or letters mostly of scripts its
 * alphabet has no symbols for) gets {@value TextDetector#UNDETERMINED}, confidence 0, no
 * probabilities and 0 windows; text whose combined probability is below the detector's
 * confidence floor gets {@value TextDetector#UNDETERMINED} and confidence 0 with its
 * probabilities and windows. A model trained with an {@value TextDetector#UNDETERMINED} class
 * (text in none of its languages) answers it like a language, with its probability.
 */
public record Detection(String language, double confidence, Map<String, Double> probabilities, int windows) {

    public boolean isDetermined() {
        return !TextDetector.UNDETERMINED.equals(language);
    }

    /** {@code {"language", "confidence", "probabilities": {...}, "windows"}}, as predict --format json and serve answer. */
    public ObjectNode toJson() {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("language", language);
        json.put("confidence", confidence);
        ObjectNode byLanguage = json.putObject("probabilities");
        probabilities.forEach(byLanguage::put);
        json.put("windows", windows);
        return json;
    }
}
