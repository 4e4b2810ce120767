package org.langid.jobs.score;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.langid.jobs.io.SerializableHadoopConf;
import org.langid.serving.Detection;
import org.langid.model.predict.LanguageDetector;
import org.langid.text.Alphabet;

/**
 * The work of {@link LanguageDetectorTransformer} inside a task: each input row comes out once,
 * in order, with a result struct appended. Rows go to the detector in batches of
 * {@code rowsPerBatch} texts (one {@link LanguageDetector#detectAll} call each); rows it cannot
 * score get a reason instead of a language.
 */
final class RowScorer implements Serializable {

    private static final long serialVersionUID = 1L;

    private final ExecutorDetectors.Key detectorKey;
    private final Alphabet alphabet;
    private final List<String> languages;
    private final SerializableHadoopConf hadoopConf;
    private final int inputIndex;
    private final int topK;
    private final int rowsPerBatch;

    /** @param languages the subset of the model's languages to answer from; empty: all of them */
    RowScorer(ExecutorDetectors.Key detectorKey, Alphabet alphabet, List<String> languages, SerializableHadoopConf hadoopConf, int inputIndex,
              int topK, int rowsPerBatch) {
        this.detectorKey = detectorKey;
        this.alphabet = alphabet;
        this.languages = List.copyOf(languages);
        this.hadoopConf = hadoopConf;
        this.inputIndex = inputIndex;
        this.topK = topK;
        this.rowsPerBatch = rowsPerBatch;
    }

    /** The rows of one partition with their results, lazily: a batch at a time, never the whole partition in memory. */
    Iterator<Row> score(Iterator<Row> rows) {
        return new Iterator<>() {
            private Iterator<Row> pending = Collections.emptyIterator();

            @Override
            public boolean hasNext() {
                while (!pending.hasNext() && rows.hasNext()) {
                    List<Row> batch = new ArrayList<>(rowsPerBatch);
                    while (batch.size() < rowsPerBatch && rows.hasNext()) {
                        batch.add(rows.next());
                    }
                    pending = scoreBatch(batch).iterator();
                }
                return pending.hasNext();
            }

            @Override
            public Row next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return pending.next();
            }
        };
    }

    private List<Row> scoreBatch(List<Row> batch) {
        RejectionReason[] reasons = new RejectionReason[batch.size()];
        List<String> texts = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            Row row = batch.get(i);
            String text = row.isNullAt(inputIndex) ? null : row.getString(inputIndex);
            reasons[i] = screen(text, alphabet);
            if (reasons[i] == null) {
                texts.add(text);
            }
        }
        // Loaded on the first batch with text: a partition of rejected rows needs no model.
        List<Detection> detections = texts.isEmpty() ? List.of()
                : detect(texts);
        List<Row> out = new ArrayList<>(batch.size());
        int next = 0;
        for (int i = 0; i < batch.size(); i++) {
            Row result = reasons[i] == null ? result(detections.get(next++)) : RowFactory.create(null, null, null, reasons[i].id());
            out.add(withResult(batch.get(i), result));
        }
        return out;
    }

    private List<Detection> detect(List<String> texts) {
        LanguageDetector loaded = ExecutorDetectors.get(detectorKey, hadoopConf.get());
        return languages.isEmpty() ? loaded.detectAll(texts) : loaded.restrictedTo(languages).detectAll(texts);
    }

    /** Why {@code text} cannot be scored, or null when it can. */
    static RejectionReason screen(String text, Alphabet alphabet) {
        if (text == null) {
            return RejectionReason.NULL;
        }
        if (text.indexOf(RejectionReason.REPLACEMENT) >= 0) {
            return RejectionReason.UNDECODABLE;
        }
        if (text.isBlank()) {
            return RejectionReason.EMPTY;
        }
        if (!alphabet.readsMostLetters(text)) {
            return RejectionReason.NO_KNOWN_CHARACTERS;
        }
        return null;
    }

    private Row result(Detection detection) {
        List<Map.Entry<String, Double>> ranked = new ArrayList<>(detection.probabilities().entrySet());
        ranked.sort(Map.Entry.<String, Double>comparingByValue(Comparator.reverseOrder()));
        Row[] top = new Row[Math.min(topK, ranked.size())];
        for (int i = 0; i < top.length; i++) {
            top[i] = RowFactory.create(ranked.get(i).getKey(), ranked.get(i).getValue());
        }
        return RowFactory.create(detection.language(), detection.confidence(), top, null);
    }

    private static Row withResult(Row input, Row result) {
        Object[] values = new Object[input.length() + 1];
        for (int i = 0; i < input.length(); i++) {
            values[i] = input.get(i);
        }
        values[input.length()] = result;
        return RowFactory.create(values);
    }
}
