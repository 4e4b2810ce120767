package org.langid.jobs.score;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Row;
import org.langid.model.io.HadoopFiles;
import org.langid.model.predict.LanguageDetector;
import org.langid.model.schema.JsonSchemas;

/**
 * What {@code score} did, as {@code summary.json} (data-schemas/score-summary.schema.json):
 * rows read, scored and rejected, rejected rows by reason, scored rows by language.
 * Accounting holds exactly: read = scored + rejected, and rejected = the sum over reasons.
 */
public final class ScoreSummary {

    public static final String SCHEMA_FILE = "score-summary.schema.json";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final ObjectNode document;

    private ScoreSummary(ObjectNode document) {
        this.document = document;
    }

    public JsonNode json() {
        return document;
    }

    public long read() {
        return document.at("/rows/read").asLong();
    }

    public long scored() {
        return document.at("/rows/scored").asLong();
    }

    public long rejected() {
        return document.at("/rows/rejected").asLong();
    }

    public long rejected(RejectionReason reason) {
        return document.path("rejected_by_reason").path(reason.id()).asLong();
    }

    /** Rows scored per language, in the model's language order. */
    public Map<String, Long> languages() {
        Map<String, Long> languages = new java.util.LinkedHashMap<>();
        document.path("languages").fields().forEachRemaining(e -> languages.put(e.getKey(), e.getValue().asLong()));
        return languages;
    }

    public double seconds() {
        return document.path("seconds").asDouble();
    }

    /**
     * @param counts the written rows grouped by (reason, language), with their count
     * @throws IllegalStateException if the written rows are not exactly the rows read
     */
    static ScoreSummary build(ScoreJob.Request request, InputFormat format, LanguageDetector detector, String modelLocation, long read,
                              List<Row> counts, double seconds) {
        Map<String, Long> byReason = new TreeMap<>();
        for (RejectionReason reason : RejectionReason.values()) {
            byReason.put(reason.id(), 0L);
        }
        Map<String, Long> byLanguage = new java.util.LinkedHashMap<>();
        detector.languages().forEach(language -> byLanguage.put(language, 0L));
        long scored = 0;
        long rejected = 0;
        for (Row row : counts) {
            long n = row.getLong(2);
            if (!row.isNullAt(0)) {
                byReason.merge(row.getString(0), n, Long::sum);
                rejected += n;
            } else if (!row.isNullAt(1)) {
                byLanguage.merge(row.getString(1), n, Long::sum);
                scored += n;
            } else {
                throw new IllegalStateException(n + " written rows have neither a language nor a reason");
            }
        }
        if (scored + rejected != read) {
            throw new IllegalStateException("read " + read + " rows but wrote " + (scored + rejected) + " (" + scored + " scored, "
                    + rejected + " rejected); the output under " + request.output() + " is incomplete");
        }
        ObjectNode root = JSON.createObjectNode();
        root.put("schema", "langid/score-summary/v1");
        ObjectNode input = root.putObject("input");
        input.put("path", request.input());
        input.put("format", format.id());
        input.put("column", request.column());
        ObjectNode model = root.putObject("model");
        model.put("version", detector.manifest().modelVersion());
        model.put("path", modelLocation);
        ObjectNode output = root.putObject("output");
        output.put("rows", ScoreJob.ROWS);
        List<String> added = ScoreJob.addedColumns(request.prefix());
        output.put("language_column", added.get(0));
        output.put("probability_column", added.get(1));
        output.put("top_languages_column", added.get(2));
        output.put("reason_column", added.get(3));
        ObjectNode rows = root.putObject("rows");
        rows.put("read", read);
        rows.put("scored", scored);
        rows.put("rejected", rejected);
        ObjectNode reasons = root.putObject("rejected_by_reason");
        byReason.forEach(reasons::put);
        ObjectNode languages = root.putObject("languages");
        byLanguage.forEach(languages::put);
        root.put("seconds", Math.round(seconds * 1000) / 1000.0);
        root.put("rows_per_second", seconds > 0 ? Math.round(read / seconds * 10) / 10.0 : 0.0);
        JsonSchemas.requireValid(SCHEMA_FILE, root, "the score summary");
        return new ScoreSummary(root);
    }

    void write(String file, Configuration conf) {
        HadoopFiles.writeJsonAtomically(file, document, JSON, conf);
    }
}
