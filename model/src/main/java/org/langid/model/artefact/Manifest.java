package org.langid.model.artefact;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.langid.model.config.ConfigTree;
import org.langid.model.graph.ModelConfig;
import org.langid.model.train.TrainConfig;
import org.langid.text.Alphabet;
import org.langid.model.schema.JsonSchemas;

/**
 * {@code manifest.json} of a model artefact: what the model is (languages, vocabulary,
 * normalisation, window, model config), where it came from and how it was trained (training
 * provenance, the train config), how good it was measured to be, and the SHA-256 of every other file. Schema:
 * {@code data-schemas/model-manifest.schema.json}.
 */
public final class Manifest {

    public static final String SCHEMA_FILE = "model-manifest.schema.json";
    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final ObjectNode document;

    Manifest(ObjectNode document) {
        this.document = document;
    }

    /** Parses and validates manifest text; {@code where} names it in error messages. */
    static Manifest parse(String text, String where, int newestFormat) {
        JsonNode tree;
        try {
            tree = JSON.readTree(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new ArtefactException(where + " is not valid JSON (" + e.getOriginalMessage() + "): the artefact is damaged");
        }
        if (!(tree instanceof ObjectNode object)) {
            throw new ArtefactException(where + " is not a JSON object: the artefact is damaged");
        }
        // Checked before the schema: a newer format may legitimately not match this version's schema.
        JsonNode format = object.get("format_version");
        if (format != null && format.canConvertToInt() && format.asInt() > newestFormat) {
            throw new ArtefactException(where + ": artefact format " + format.asInt() + " is newer than this langid reads (up to "
                    + newestFormat + "); load it with a newer langid");
        }
        List<String> problems = JsonSchemas.problems(SCHEMA_FILE, object);
        if (!problems.isEmpty()) {
            throw new ArtefactException(where + " does not match " + SCHEMA_FILE + ": " + String.join("; ", problems));
        }
        return new Manifest(object);
    }

    public int formatVersion() {
        return document.get("format_version").asInt();
    }

    public String modelVersion() {
        return document.get("model_version").asText();
    }

    public String created() {
        return document.get("created").asText();
    }

    public List<String> languages() {
        List<String> languages = new ArrayList<>();
        document.get("languages").forEach(l -> languages.add(l.asText()));
        return languages;
    }

    public String vocabulary() {
        return document.get("vocabulary").asText();
    }

    public int padIndex() {
        return document.get("pad_index").asInt();
    }

    public String normalisation() {
        return document.get("normalisation").asText();
    }

    public int window() {
        return document.get("window").asInt();
    }

    /** How the model reads text: the manifest's normalisation and vocabulary. */
    public Alphabet alphabet() {
        return Alphabet.of(normalisation(), vocabulary());
    }

    /**
     * The model section, parsed and validated as a profile's {@code model:} would be, with the
     * manifest's alphabet; what an earlier version also wrote there (its training recipe, retired
     * keys) is left out.
     */
    public ModelConfig modelConfig() {
        ObjectNode wrapper = JSON.createObjectNode();
        wrapper.set("model", ModelConfig.withoutRetiredKeys(document.get("model")));
        ModelConfig config = ConfigTree.parse(wrapper.toString(), "manifest.json").section("model", ModelConfig.class);
        config.alphabet = alphabet();
        return config;
    }

    /**
     * Provenance: what the model was trained on and how, the {@code train:} section under
     * {@code train}. A manifest written while the recipe was part of {@code model} is read with
     * it moved there.
     */
    public JsonNode training() {
        JsonNode training = document.get("training");
        JsonNode train = TrainConfig.withRecipeFrom(training.get("train"), document.get("model"));
        if (train == training.get("train")) {
            return training;
        }
        ObjectNode moved = training.deepCopy();
        moved.set("train", train);
        return moved;
    }

    public String dataFingerprint() {
        return training().get("data_fingerprint").asText();
    }

    /** Metric name → value, e.g. validation_accuracy. */
    public Map<String, Double> metrics() {
        Map<String, Double> metrics = new LinkedHashMap<>();
        document.get("metrics").fields().forEachRemaining(e -> metrics.put(e.getKey(), e.getValue().asDouble()));
        return metrics;
    }

    /** File name → expected SHA-256 (hex). */
    public Map<String, String> fileChecksums() {
        Map<String, String> files = new LinkedHashMap<>();
        document.get("files").fields().forEachRemaining(e -> files.put(e.getKey(), e.getValue().get("sha256").asText()));
        return files;
    }

    /** The manifest as JSON (a copy). */
    public ObjectNode toJson() {
        return document.deepCopy();
    }

    public String toText() {
        try {
            return JSON.writeValueAsString(document) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
