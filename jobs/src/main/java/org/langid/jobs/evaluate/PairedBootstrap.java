package org.langid.jobs.evaluate;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * How far one detector's accuracy is ahead of another's on the same items, and how sure that
 * is: a paired bootstrap that resamples whole clusters of items. A sentence's windows overlap
 * (stride 1: a sentence of n characters gives n − 15 windows that share most of their text), so
 * they are right or wrong together; resampling windows one by one gives too narrow an interval
 * (about half the width on the sample's test split). Clusters are sentences for windows and
 * single items for sentences.
 */
public final class PairedBootstrap {

    public static final int RESAMPLES = 1000;
    /** Fixed, so that the same predictions give the same interval on every run. */
    public static final long SEED = 20261127L;

    private PairedBootstrap() {
    }

    /**
     * The first detector's lead: its accuracy minus the second's on the same items, with the
     * 2.5th and 97.5th percentiles of that difference over {@link #RESAMPLES} resamples.
     */
    public record Lead(double difference, double low, double high, int clusters, int resamples) {

        /** report.json's {@code model_lead} of the second detector (data-schemas/evaluation-report.schema.json). */
        public ObjectNode toJson(String first, String clusteredBy) {
            ObjectNode node = JsonNodeFactory.instance.objectNode();
            node.put("model", first);
            node.put("accuracy_difference", difference);
            node.putArray("interval_95").add(low).add(high);
            node.put("clusters", clusters);
            node.put("clustered_by", clusteredBy);
            node.put("resamples", resamples);
            return node;
        }
    }

    /** Each item's cluster, 0 … count − 1; every cluster holds at least one item. */
    public record Clusters(int[] ofItem, int count) {
    }

    /**
     * @param truth    each item's language
     * @param first    the first detector's answers
     * @param second   the second detector's answers
     * @param clusters the items that go together
     */
    public static Lead lead(int[] truth, int[] first, int[] second, Clusters clusters) {
        int[] cluster = clusters.ofItem();
        int count = clusters.count();
        if (first.length != truth.length || second.length != truth.length || cluster.length != truth.length) {
            throw new IllegalArgumentException("truth, answers and clusters differ in length: " + truth.length + ", "
                    + first.length + ", " + second.length + ", " + cluster.length);
        }
        if (truth.length == 0) {
            throw new IllegalArgumentException("no items to compare");
        }
        int[] items = new int[count];
        int[] lead = new int[count];             // items the first got right minus items the second got right
        long totalLead = 0;
        for (int i = 0; i < truth.length; i++) {
            int difference = (first[i] == truth[i] ? 1 : 0) - (second[i] == truth[i] ? 1 : 0);
            items[cluster[i]]++;
            lead[cluster[i]] += difference;
            totalLead += difference;
        }
        for (int c = 0; c < count; c++) {
            if (items[c] == 0) {
                throw new IllegalArgumentException("cluster " + c + " holds no item");
            }
        }
        SplittableRandom random = new SplittableRandom(SEED);
        double[] resampled = new double[RESAMPLES];
        for (int r = 0; r < RESAMPLES; r++) {
            long n = 0;
            long l = 0;
            for (int k = 0; k < count; k++) {
                int c = random.nextInt(count);
                n += items[c];
                l += lead[c];
            }
            resampled[r] = (double) l / n;
        }
        Arrays.sort(resampled);
        return new Lead((double) totalLead / truth.length, resampled[(int) Math.floor(0.025 * (RESAMPLES - 1))],
                resampled[(int) Math.ceil(0.975 * (RESAMPLES - 1))], count, RESAMPLES);
    }

    /** Each item its own cluster (sentences). */
    public static Lead lead(int[] truth, int[] first, int[] second) {
        int[] cluster = new int[truth.length];
        Arrays.setAll(cluster, i -> i);
        return lead(truth, first, second, new Clusters(cluster, truth.length));
    }

    /** Items of the same (language, sentence id) as one cluster each: an id need only be unique within its language. */
    public static Clusters clustersOf(int[] languages, long[] sentenceIds) {
        record Sentence(int language, long id) {
        }
        java.util.Map<Sentence, Integer> seen = new java.util.HashMap<>();
        int[] out = new int[languages.length];
        for (int i = 0; i < languages.length; i++) {
            out[i] = seen.computeIfAbsent(new Sentence(languages[i], sentenceIds[i]), sentence -> seen.size());
        }
        return new Clusters(out, seen.size());
    }
}
