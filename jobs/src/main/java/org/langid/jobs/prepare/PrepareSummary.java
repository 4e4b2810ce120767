package org.langid.jobs.prepare;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Row;
import org.langid.model.io.HadoopFiles;
import org.langid.model.config.ConfigTree;
import org.langid.model.data.Split;
import org.langid.model.schema.JsonSchemas;

/**
 * What {@code prepare} did, as {@code summary.json} (data-schemas/prepare-summary.schema.json):
 * inputs, config, per-language counts of records, duplicates, sentences and windows per split,
 * every quarantine reason with its count, and a fingerprint of the resulting data.
 * Accounting holds exactly: records read = quarantined + not selected + duplicates + sentences.
 */
public final class PrepareSummary {

    public static final String SCHEMA_FILE = "prepare-summary.schema.json";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

    private final ObjectNode document;

    private PrepareSummary(ObjectNode document) {
        this.document = document;
    }

    public JsonNode json() {
        return document;
    }

    public long quarantined(QuarantineReason reason) {
        return document.path("quarantined").path(reason.id()).asLong();
    }

    public long windows(String language, Split split) {
        return document.path("languages").path(language).path("windows").path(split.id()).asLong();
    }

    /** Windows written, all languages and splits. */
    public long totalWindows() {
        long total = 0;
        for (Split split : Split.values()) {
            total += document.path("windows").path(split.id()).asLong();
        }
        return total;
    }

    public String fingerprint() {
        return document.path("fingerprint").asText();
    }

    static PrepareSummary build(CorpusFiles corpus, PrepareConfig config, Map<String, Long> outcomeCounts,
                                List<Row> sentenceStats, List<Row> windowCounts, List<Row> availableWindows) {
        ObjectNode root = JSON.createObjectNode();
        root.put("schema", "langid/prepare-summary/v1");
        ObjectNode inputs = root.putObject("inputs");
        inputs.put("format", corpus.format().id());
        corpus.files().forEach(inputs.putArray("files")::add);
        corpus.ignored().forEach(inputs.putArray("ignored_files")::add);
        root.set("config", ConfigTree.toJson(config));

        long read = 0;
        long quarantinedTotal = 0;
        long notSelectedTotal = 0;
        Map<String, Long> quarantined = new TreeMap<>();
        for (QuarantineReason reason : QuarantineReason.values()) {
            quarantined.put(reason.id(), 0L);
        }
        Map<String, Long> notSelected = new TreeMap<>();
        Map<String, Long> acceptedRecords = new TreeMap<>();
        for (Map.Entry<String, Long> entry : outcomeCounts.entrySet()) {
            String[] key = entry.getKey().split("\t", -1);
            long n = entry.getValue();
            read += n;
            switch (RecordScreening.Kind.valueOf(key[0])) {
                case QUARANTINED -> {
                    quarantined.merge(key[1], n, Long::sum);
                    quarantinedTotal += n;
                }
                case NOT_SELECTED -> {
                    notSelected.merge(key[2], n, Long::sum);
                    notSelectedTotal += n;
                }
                case SENTENCE -> acceptedRecords.merge(key[2], n, Long::sum);
            }
        }

        ObjectNode languages = root.putObject("languages");
        long sentencesTotal = 0;
        MessageDigest fingerprint = sha256();
        fingerprint.update(ConfigTree.toJson(config).toString().getBytes(StandardCharsets.UTF_8));
        for (String language : acceptedRecords.keySet()) {
            ObjectNode entry = languages.putObject(language);
            entry.put("records", acceptedRecords.get(language));
            ObjectNode sentences = entry.putObject("sentences");
            ObjectNode windows = entry.putObject("windows");
            ObjectNode available = entry.putObject("windows_before_cap");
            long unique = 0;
            for (Split split : Split.values()) {
                long n = count(sentenceStats, language, split, "n");
                sentences.put(split.id(), n);
                unique += n;
                windows.put(split.id(), count(windowCounts, language, split, "count"));
                available.put(split.id(), count(availableWindows, language, split, "count"));
                Row stats = find(sentenceStats, language, split);
                fingerprint.update((language + "/" + split.id() + "/" + n + "/"
                        + (stats == null ? 0 : stats.getLong(stats.fieldIndex("x"))) + "/"
                        + (stats == null ? 0 : stats.getLong(stats.fieldIndex("y"))) + "\n").getBytes(StandardCharsets.UTF_8));
            }
            entry.put("duplicates", acceptedRecords.get(language) - unique);
            sentencesTotal += unique;
        }

        ObjectNode records = root.putObject("records");
        records.put("read", read);
        records.put("quarantined", quarantinedTotal);
        records.put("not_selected", notSelectedTotal);
        records.put("duplicates", read - quarantinedTotal - notSelectedTotal - sentencesTotal);
        records.put("sentences", sentencesTotal);
        ObjectNode reasons = root.putObject("quarantined");
        quarantined.forEach(reasons::put);
        ObjectNode notSelectedNode = root.putObject("not_selected");
        notSelected.forEach(notSelectedNode::put);

        ObjectNode totals = root.putObject("windows");
        for (Split split : Split.values()) {
            totals.put(split.id(), windowCounts.stream()
                    .filter(r -> split.id().equals(r.getString(r.fieldIndex("split"))))
                    .mapToLong(r -> r.getLong(r.fieldIndex("count"))).sum());
        }
        root.put("fingerprint", "sha256:" + HexFormat.of().formatHex(fingerprint.digest()));
        ObjectNode outputs = root.putObject("outputs");
        outputs.put("windows", "windows");
        outputs.put("sentences", "sentences");
        outputs.put("quarantine", "quarantine");

        JsonSchemas.requireValid(SCHEMA_FILE, root, "the prepare summary");
        return new PrepareSummary(root);
    }

    void write(String file, Configuration conf) {
        HadoopFiles.writeJsonAtomically(file, document, JSON, conf);
    }

    private static long count(List<Row> rows, String language, Split split, String field) {
        Row row = find(rows, language, split);
        return row == null ? 0 : row.getLong(row.fieldIndex(field));
    }

    private static Row find(List<Row> rows, String language, Split split) {
        for (Row row : rows) {
            if (language.equals(row.getString(row.fieldIndex("language"))) && split.id().equals(row.getString(row.fieldIndex("split")))) {
                return row;
            }
        }
        return null;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
