package org.langid.jobs.evaluate;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A confusion matrix of true languages (rows) against predicted labels (columns: the
 * languages, then {@code und} when the detector may decline) and what follows from it:
 * accuracy, per-language precision, recall and F1, macro-F1.
 */
public final class ConfusionScores {

    public static final String DECLINED = "und";

    private final List<String> languages;
    private final List<String> predictedLabels;
    private final long[][] counts;

    /** @param mayDecline adds the {@value #DECLINED} column, for detectors that can answer "don't know" */
    public ConfusionScores(List<String> languages, boolean mayDecline) {
        this.languages = List.copyOf(languages);
        List<String> labels = new ArrayList<>(languages);
        if (mayDecline) {
            labels.add(DECLINED);
        }
        this.predictedLabels = List.copyOf(labels);
        this.counts = new long[languages.size()][predictedLabels.size()];
    }

    /** Counts each (truth, prediction) pair; predictions index {@link #predictedLabels()}. */
    public void add(int[] truth, int[] predicted) {
        if (truth.length != predicted.length) {
            throw new IllegalArgumentException(truth.length + " labels but " + predicted.length + " predictions");
        }
        for (int i = 0; i < truth.length; i++) {
            counts[truth[i]][predicted[i]]++;
        }
    }

    public List<String> predictedLabels() {
        return predictedLabels;
    }

    public long total() {
        long total = 0;
        for (long[] row : counts) {
            for (long count : row) {
                total += count;
            }
        }
        return total;
    }

    public long correct() {
        long correct = 0;
        for (int i = 0; i < languages.size(); i++) {
            correct += counts[i][i];
        }
        return correct;
    }

    public double accuracy() {
        long total = total();
        return total == 0 ? 0 : correct() / (double) total;
    }

    /** Of the items truly in {@code language}, the share predicted as it. */
    public double recall(int language) {
        long support = support(language);
        return support == 0 ? 0 : counts[language][language] / (double) support;
    }

    /** Of the items predicted as {@code language}, the share truly in it. */
    public double precision(int language) {
        long predicted = 0;
        for (long[] row : counts) {
            predicted += row[language];
        }
        return predicted == 0 ? 0 : counts[language][language] / (double) predicted;
    }

    public double f1(int language) {
        double p = precision(language);
        double r = recall(language);
        return p + r == 0 ? 0 : 2 * p * r / (p + r);
    }

    public double macroF1() {
        double sum = 0;
        for (int i = 0; i < languages.size(); i++) {
            sum += f1(i);
        }
        return sum / languages.size();
    }

    public long support(int language) {
        long support = 0;
        for (long count : counts[language]) {
            support += count;
        }
        return support;
    }

    public long count(int truth, int predicted) {
        return counts[truth][predicted];
    }

    /** The report's per-level object (see data-schemas/evaluation-report.schema.json). */
    public ObjectNode toJson(double seconds) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("count", total());
        node.put("correct", correct());
        node.put("accuracy", accuracy());
        node.put("macro_f1", macroF1());
        node.put("seconds", seconds);
        node.put("per_second", seconds > 0 ? total() / seconds : 0);
        predictedLabels.forEach(node.putArray("predicted_labels")::add);
        ArrayNode confusion = node.putArray("confusion");
        for (long[] row : counts) {
            ArrayNode cells = confusion.addArray();
            for (long count : row) {
                cells.add(count);
            }
        }
        ArrayNode perLanguage = node.putArray("per_language");
        for (int i = 0; i < languages.size(); i++) {
            ObjectNode entry = perLanguage.addObject();
            entry.put("language", languages.get(i));
            entry.put("precision", precision(i));
            entry.put("recall", recall(i));
            entry.put("f1", f1(i));
            entry.put("support", support(i));
        }
        return node;
    }
}
