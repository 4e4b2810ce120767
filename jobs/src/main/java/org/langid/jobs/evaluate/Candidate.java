package org.langid.jobs.evaluate;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.langid.text.Alphabet;

/**
 * A language detector under evaluation. Predictions are indices into the languages evaluated
 * (the model's, or the subset of {@code evaluate --languages}: {@link LanguageSubset#languages()});
 * the index {@code languages.size()} means the detector declined ({@value ConfusionScores#DECLINED}).
 */
public interface Candidate {

    String name();

    String description();

    /** Whether the detector can decline to answer (adds an "und" column to its confusion matrices). */
    boolean mayDecline();

    /** @param symbols windows as prepare cut them: rows × window symbol indices */
    int[] predictWindows(char[] symbols, int window, Alphabet alphabet);

    /**
     * Answers for whole texts: sentences, word pairs and single words go the same way.
     *
     * @param texts normalised texts
     */
    Answers predictTexts(List<String> texts, Alphabet alphabet);

    /**
     * Each text's answer (an index as above) and, when the detector gives one, the probability it
     * gives that answer (null otherwise; see {@link #withoutConfidence()}).
     */
    record Answers(int[] predicted, double[] confidence) {
    }

    /** Why this detector's answers come without a probability to calibrate (report.json's {@code no_calibration}); null when they have one. */
    default String withoutConfidence() {
        return null;
    }

    /**
     * The languages evaluated this detector does not know and so never answers: their items count
     * as its errors, and the report also compares it over the languages it knows.
     */
    default List<String> unknownLanguages() {
        return List.of();
    }

    /** For a peer trained for this evaluation: what it learnt from, how and how long (report.json's {@code trained}); else null. */
    default JsonNode training() {
        return null;
    }
}
