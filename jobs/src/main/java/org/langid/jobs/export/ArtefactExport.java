package org.langid.jobs.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.langid.jobs.train.NgramFilters;
import org.langid.jobs.train.TrainJob;
import org.langid.model.artefact.ArtefactException;
import org.langid.model.artefact.ModelArtefact;
import org.langid.model.config.ConfigTree;
import org.langid.model.graph.ModelConfig;
import org.langid.model.graph.NgramFilter;
import org.langid.model.io.HadoopFiles;
import org.langid.model.train.TrainConfig;
import org.langid.model.train.TrainingState;

/**
 * Turns the output of {@code langid train} (state.bin, train-summary.json, metrics.jsonl) into a
 * {@link ModelArtefact}: the inference graph without Adam's state, with the training provenance
 * and the last epoch's validation figures in its manifest.
 */
public final class ArtefactExport {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ArtefactExport() {
    }

    public static ModelArtefact fromTrainingOutput(String trained, Configuration conf, Instant created) {
        return fromTrainingOutput(trained, conf, created, JSON.createObjectNode());
    }

    /** As {@link #fromTrainingOutput(String, Configuration, Instant)}, adding {@code provenance}'s fields to the manifest's training section. */
    public static ModelArtefact fromTrainingOutput(String trained, Configuration conf, Instant created, ObjectNode provenance) {
        String summaryFile = trained + "/" + TrainJob.SUMMARY_FILE;
        String stateFile = trained + "/" + TrainJob.STATE_FILE;
        if (!HadoopFiles.exists(summaryFile, conf) || !HadoopFiles.exists(stateFile, conf)) {
            throw new ArtefactException(trained + " is not the output of langid train: it needs " + TrainJob.STATE_FILE
                    + " and " + TrainJob.SUMMARY_FILE);
        }
        JsonNode summary;
        try {
            summary = JSON.readTree(HadoopFiles.readString(summaryFile, conf));
        } catch (IOException e) {
            throw new ArtefactException(summaryFile + " is not valid JSON: " + e.getMessage());
        }
        ObjectNode wrapper = JSON.createObjectNode();
        wrapper.set("model", ModelConfig.withoutRetiredKeys(summary.path("model")));
        ModelConfig config = ConfigTree.parse(wrapper.toString(), summaryFile).section("model", ModelConfig.class);

        TrainingState state;
        try (InputStream in = HadoopFiles.open(stateFile, conf)) {
            state = TrainingState.read(in);
        } catch (IOException e) {
            throw new ArtefactException("cannot read " + stateFile + ": " + e.getMessage(), e);
        }

        ObjectNode training = JSON.createObjectNode();
        training.put("data_fingerprint", summary.path("data_fingerprint").asText("unknown"));
        training.put("prepared", summary.path("prepared").asText());
        training.put("trainer", summary.path("trainer").asText("local"));
        training.put("workers", summary.path("workers").asInt(1));
        training.put("steps", state.step);
        training.put("epochs", state.epoch);
        training.put("training_windows", summary.path("training_windows").asLong());
        NgramFilter filter = null;
        if (config.ngramFiltered()) {
            try {
                filter = NgramFilters.read(trained, config.ngramFilterBits, conf);
            } catch (IllegalArgumentException e) {
                throw new ArtefactException(e.getMessage());
            }
            training.set("ngram_filter", summary.path("ngram_filter"));
        }
        // A summary written while the recipe was part of model: the manifest has it under train.
        training.set("train", TrainConfig.withRecipeFrom(summary.path("train"), summary.path("model")));
        training.setAll(provenance);

        Map<String, Double> metrics = new LinkedHashMap<>();
        JsonNode epochs = summary.path("epochs");
        if (epochs.size() > 0) {
            JsonNode last = epochs.get(epochs.size() - 1);
            metrics.put("validation_accuracy", last.path("validation_accuracy").asDouble());
            metrics.put("validation_loss", last.path("validation_loss").asDouble());
        }
        String metricsFile = trained + "/" + TrainJob.METRICS_FILE;
        byte[] metricsLog = HadoopFiles.exists(metricsFile, conf)
                ? HadoopFiles.readString(metricsFile, conf).getBytes(StandardCharsets.UTF_8) : null;
        return ModelArtefact.create(config, state.parameters, filter, training, metrics, metricsLog, created);
    }
}
