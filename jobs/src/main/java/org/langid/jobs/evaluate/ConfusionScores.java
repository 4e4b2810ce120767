package org.langid.jobs.evaluate;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.lang.Character.UnicodeScript;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.IntFunction;
import org.langid.model.data.Mix64;

/**
 * A confusion matrix of true languages (rows) against predicted labels (columns: the
 * languages, then {@code und} when the detector may decline) and what follows from it:
 * accuracy, per-language precision, recall and F1, macro-F1; and, when the texts are given, a
 * few misclassified items for each (truth, prediction) pair, because errors are understood by
 * reading them, not from a mean.
 */
public final class ConfusionScores {

    public static final String DECLINED = "und";

    private final List<String> languages;
    private final List<String> predictedLabels;
    private final long[][] counts;
    /** Per off-diagonal cell: the kept examples; null until the cell's first error. */
    private final PriorityQueue<Example>[][] examples;

    /** Misclassified items kept per (truth, prediction) pair. */
    public static final int EXAMPLES_PER_PAIR = 5;
    /** Of those, shown per confused pair of related languages. */
    public static final int RELATED_EXAMPLES = 3;

    /** @param mayDecline adds the {@value #DECLINED} column, for detectors that can answer "don't know" */
    public ConfusionScores(List<String> languages, boolean mayDecline) {
        this.languages = List.copyOf(languages);
        List<String> labels = new ArrayList<>(languages);
        if (mayDecline) {
            labels.add(DECLINED);
        }
        this.predictedLabels = List.copyOf(labels);
        this.counts = new long[languages.size()][predictedLabels.size()];
        @SuppressWarnings("unchecked")
        PriorityQueue<Example>[][] cells = new PriorityQueue[languages.size()][predictedLabels.size()];
        this.examples = cells;
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

    /**
     * As {@link #add(int[], int[])}, and keeps up to {@value #EXAMPLES_PER_PAIR} misclassified
     * items per pair. Which ones is fixed by a hash of their index, so they are spread over the
     * data (neighbouring windows of one sentence are rarely all chosen) and the same on every run.
     *
     * @param text the text of item {@code i}, called for the kept candidates only
     */
    public void add(int[] truth, int[] predicted, IntFunction<String> text) {
        add(truth, predicted);
        for (int i = 0; i < truth.length; i++) {
            if (truth[i] == predicted[i]) {
                continue;
            }
            PriorityQueue<Example> kept = examples[truth[i]][predicted[i]];
            if (kept == null) {
                // Largest rank at the head, so the head is the one to drop.
                kept = new PriorityQueue<>(Comparator.comparingLong(Example::rank).reversed());
                examples[truth[i]][predicted[i]] = kept;
            }
            long rank = rank(i);
            if (kept.size() < EXAMPLES_PER_PAIR) {
                kept.add(new Example(rank, i, text.apply(i)));
            } else if (rank < kept.peek().rank()) {
                kept.poll();
                kept.add(new Example(rank, i, text.apply(i)));
            }
        }
    }

    private record Example(long rank, int index, String text) {
    }

    /** A fixed, well-spread order of the items. */
    private static long rank(long index) {
        return Mix64.mix(index * 0x9E3779B97F4A7C15L) >>> 1;
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

    private boolean hasExamples() {
        for (PriorityQueue<Example>[] row : examples) {
            for (PriorityQueue<Example> cell : row) {
                if (cell != null) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The misclassified pairs, commonest first, each with its kept examples in item order. */
    private ArrayNode errorsJson() {
        List<int[]> pairs = new ArrayList<>();
        for (int t = 0; t < languages.size(); t++) {
            for (int p = 0; p < predictedLabels.size(); p++) {
                if (t != p && counts[t][p] > 0) {
                    pairs.add(new int[] {t, p});
                }
            }
        }
        pairs.sort(Comparator.<int[]>comparingLong(pair -> -counts[pair[0]][pair[1]]).thenComparingInt(pair -> pair[0])
                .thenComparingInt(pair -> pair[1]));
        ArrayNode errors = JsonNodeFactory.instance.arrayNode();
        for (int[] pair : pairs) {
            ObjectNode entry = errors.addObject();
            entry.put("expected", languages.get(pair[0]));
            entry.put("predicted", predictedLabels.get(pair[1]));
            entry.put("count", counts[pair[0]][pair[1]]);
            ArrayNode texts = entry.putArray("examples");
            PriorityQueue<Example> kept = examples[pair[0]][pair[1]];
            if (kept != null) {
                kept.stream().sorted(Comparator.comparingInt(Example::index)).forEach(e -> texts.add(e.text()));
            }
        }
        return errors;
    }

    /** Items truly in one of the {@code languages} (by index) and how many of them were answered right. */
    public long[] totalAndCorrectAmong(boolean[] languages) {
        long total = 0;
        long correct = 0;
        for (int i = 0; i < this.languages.size(); i++) {
            if (languages[i]) {
                total += support(i);
                correct += counts[i][i];
            }
        }
        return new long[] {total, correct};
    }

    /** Accuracy over the languages of each script (report.json's {@code per_script}); {@code scripts} in the order to list them. */
    public ArrayNode perScriptJson(List<UnicodeScript> scriptOfLanguage, List<UnicodeScript> scripts) {
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        for (UnicodeScript script : scripts) {
            boolean[] of = new boolean[languages.size()];
            ObjectNode entry = out.addObject();
            entry.put("script", LanguageScripts.name(script));
            ArrayNode members = entry.putArray("languages");
            for (int i = 0; i < of.length; i++) {
                of[i] = scriptOfLanguage.get(i) == script;
                if (of[i]) {
                    members.add(languages.get(i));
                }
            }
            long[] totalAndCorrect = totalAndCorrectAmong(of);
            entry.put("count", totalAndCorrect[0]);
            entry.put("correct", totalAndCorrect[1]);
            entry.put("accuracy", totalAndCorrect[0] == 0 ? 0 : totalAndCorrect[1] / (double) totalAndCorrect[0]);
        }
        return out;
    }

    /**
     * For each group of related languages: the confusion among its members, how many of each
     * member's errors went to another member, and a few examples of each confused pair (report.json's
     * {@code related}).
     */
    public ArrayNode relatedJson(List<RelatedLanguages.Group> groups) {
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        for (RelatedLanguages.Group group : groups) {
            int[] members = group.members().stream().mapToInt(languages::indexOf).toArray();
            ObjectNode entry = out.addObject();
            entry.put("group", group.name());
            group.members().forEach(entry.putArray("languages")::add);
            ArrayNode confusion = entry.putArray("confusion");
            ArrayNode perLanguage = JsonNodeFactory.instance.arrayNode();
            List<int[]> pairs = new ArrayList<>();
            long errors = 0;
            long inGroup = 0;
            for (int t : members) {
                ArrayNode row = confusion.addArray();
                long memberErrors = support(t) - counts[t][t];
                long memberInGroup = 0;
                for (int p : members) {
                    row.add(counts[t][p]);
                    if (p != t && counts[t][p] > 0) {
                        memberInGroup += counts[t][p];
                        pairs.add(new int[] {t, p});
                    }
                }
                errors += memberErrors;
                inGroup += memberInGroup;
                ObjectNode member = perLanguage.addObject();
                member.put("language", languages.get(t));
                member.put("errors", memberErrors);
                member.put("in_group", memberInGroup);
                if (memberErrors > 0) {
                    member.put("in_group_share", memberInGroup / (double) memberErrors);
                }
            }
            entry.put("errors", errors);
            entry.put("in_group", inGroup);
            if (errors > 0) {
                entry.put("in_group_share", inGroup / (double) errors);
            }
            entry.set("per_language", perLanguage);
            pairs.sort(Comparator.<int[]>comparingLong(pair -> -counts[pair[0]][pair[1]]).thenComparingInt(pair -> pair[0])
                    .thenComparingInt(pair -> pair[1]));
            ArrayNode confused = entry.putArray("pairs");
            for (int[] pair : pairs) {
                ObjectNode node = confused.addObject();
                node.put("expected", languages.get(pair[0]));
                node.put("predicted", languages.get(pair[1]));
                node.put("count", counts[pair[0]][pair[1]]);
                ArrayNode texts = node.putArray("examples");
                PriorityQueue<Example> kept = examples[pair[0]][pair[1]];
                if (kept != null) {
                    kept.stream().sorted(Comparator.comparingInt(Example::index)).limit(RELATED_EXAMPLES).forEach(e -> texts.add(e.text()));
                }
            }
        }
        return out;
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
        if (hasExamples()) {
            node.set("errors", errorsJson());
        }
        return node;
    }
}
