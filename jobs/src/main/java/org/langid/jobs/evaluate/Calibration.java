package org.langid.jobs.evaluate;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * How far a detector's confidence can be taken at its word: the expected calibration error
 * (ECE) over {@value #BINS} equal-width bins of confidence, [0, 0.1), [0.1, 0.2), …, [0.9, 1].
 * Each answer falls in the bin of its confidence (the probability the detector gives the language
 * it answered); ECE is the mean over bins, weighted by their answers, of |accuracy − mean
 * confidence| in the bin: 0 when the detector is right 90% of the times it says 0.9. Declined
 * answers ({@code und} when the detector may decline) have no confidence and are left out.
 */
public final class Calibration {

    public static final int BINS = 10;

    private final long[] count = new long[BINS];
    private final long[] correct = new long[BINS];
    private final double[] confidence = new double[BINS];
    private final long declined;

    /**
     * @param truth      each item's language
     * @param predicted  each answer: a language index, or {@code declinedIndex}
     * @param confidence each answer's confidence in [0, 1] (a value outside is clamped)
     */
    public Calibration(int[] truth, int[] predicted, double[] confidence, int declinedIndex) {
        if (predicted.length != truth.length || confidence.length != truth.length) {
            throw new IllegalArgumentException("truth, answers and confidences differ in length: " + truth.length + ", "
                    + predicted.length + ", " + confidence.length);
        }
        long left = 0;
        for (int i = 0; i < truth.length; i++) {
            if (predicted[i] == declinedIndex) {
                left++;
                continue;
            }
            double c = Math.max(0, Math.min(1, confidence[i]));
            int bin = Math.min(BINS - 1, (int) (c * BINS));
            count[bin]++;
            correct[bin] += predicted[i] == truth[i] ? 1 : 0;
            this.confidence[bin] += c;
        }
        this.declined = left;
    }

    /** Answers with a confidence. */
    public long count() {
        long total = 0;
        for (long n : count) {
            total += n;
        }
        return total;
    }

    /** The expected calibration error; 0 without answers. */
    public double ece() {
        long total = count();
        double ece = 0;
        for (int b = 0; b < BINS; b++) {
            if (count[b] > 0) {
                ece += count[b] / (double) total * Math.abs(correct[b] / (double) count[b] - confidence[b] / count[b]);
            }
        }
        return ece;
    }

    /** report.json's {@code calibration} (data-schemas/evaluation-report.schema.json). */
    public ObjectNode toJson() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        long total = count();
        long right = 0;
        double sum = 0;
        for (int b = 0; b < BINS; b++) {
            right += correct[b];
            sum += confidence[b];
        }
        node.put("bins", BINS);
        node.put("ece", ece());
        node.put("count", total);
        node.put("declined", declined);
        node.put("mean_confidence", total == 0 ? 0 : sum / total);
        node.put("accuracy", total == 0 ? 0 : right / (double) total);
        ArrayNode bins = node.putArray("per_bin");
        for (int b = 0; b < BINS; b++) {
            ObjectNode bin = bins.addObject();
            bin.put("from", b / (double) BINS);
            bin.put("to", (b + 1) / (double) BINS);
            bin.put("count", count[b]);
            if (count[b] > 0) {
                bin.put("mean_confidence", confidence[b] / count[b]);
                bin.put("accuracy", correct[b] / (double) count[b]);
            }
        }
        return node;
    }
}
