package org.langid.jobs.evaluate;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.langid.text.Alphabet;

/**
 * A language detector under evaluation. Predictions are indices into the model's languages;
 * the index {@code languages.size()} means the detector declined ({@value ConfusionScores#DECLINED}).
 */
public interface Candidate {

    String name();

    String description();

    /** Whether the detector can decline to answer (adds an "und" column to its confusion matrices). */
    boolean mayDecline();

    /** @param symbols windows as prepare cut them: rows × window symbol indices */
    int[] predictWindows(char[] symbols, int window, Alphabet alphabet);

    /** @param sentences normalised sentences */
    int[] predictSentences(List<String> sentences, Alphabet alphabet);

    /**
     * The model's languages this detector does not know and so never answers: their items count
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
