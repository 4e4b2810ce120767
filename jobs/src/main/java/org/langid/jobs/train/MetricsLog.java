package org.langid.jobs.train;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.langid.model.io.HadoopFiles;
import org.langid.model.schema.JsonSchemas;
import org.langid.model.train.LocalTrainer;

/**
 * The training metrics log, {@code metrics.jsonl}: one JSON line per averaging round and one per
 * epoch (data-schemas/metrics-record.schema.json). Object stores cannot append, so the file is
 * rewritten whole (atomically) at each epoch end and at each checkpoint within an epoch; a run
 * resumed from a checkpoint keeps the lines up to the checkpoint's step (the rounds after it are
 * taken again), so a run spread over several sessions has one unbroken record.
 */
final class MetricsLog {

    static final String SCHEMA_FILE = "metrics-record.schema.json";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String file;
    private final Configuration hadoop;
    private final List<String> lines = new ArrayList<>();
    private final long started = System.nanoTime();

    /** A new log (an existing file is replaced at the first write). */
    MetricsLog(String file, Configuration hadoop) {
        this(file, hadoop, -1);
    }

    /**
     * @param keepThroughStep keep the existing file's lines whose step is at most this (a resumed
     *                        run: its checkpoint's step); -1 keeps none
     */
    MetricsLog(String file, Configuration hadoop, long keepThroughStep) {
        this.file = file;
        this.hadoop = hadoop;
        if (keepThroughStep >= 0 && HadoopFiles.exists(file, hadoop)) {
            for (String line : HadoopFiles.readString(file, hadoop).lines().filter(l -> !l.isBlank()).toList()) {
                try {
                    if (JSON.readTree(line).path("step").asLong() <= keepThroughStep) {
                        lines.add(line);
                    }
                } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                    throw new IllegalArgumentException(file + " has a line that is not JSON: " + e.getOriginalMessage());
                }
            }
        }
    }

    void round(int epoch, int round, long step, double loss, double samplesPerSecond) {
        add(roundLine(epoch, round, step, loss, samplesPerSecond));
    }

    /** A Spark round, with its own duration. */
    void round(int epoch, int round, long step, double loss, long samples, double seconds) {
        ObjectNode line = roundLine(epoch, round, step, loss, samples / seconds);
        line.put("seconds", seconds);
        add(line);
    }

    private ObjectNode roundLine(int epoch, int round, long step, double loss, double samplesPerSecond) {
        ObjectNode line = line("round", epoch + 1, step);
        line.put("round", round + 1);
        line.put("loss", loss);
        line.put("samples_per_second", samplesPerSecond);
        return line;
    }

    void epoch(LocalTrainer.EpochResult epoch) {
        ObjectNode line = line("epoch", epoch.epoch(), epoch.step());
        line.put("loss", epoch.trainLoss());
        line.put("samples_per_second", epoch.samplesPerSecond());
        line.put("validation_accuracy", epoch.validation().accuracy());
        line.put("validation_loss", epoch.validation().meanLoss());
        add(line);
        write();
    }

    /** Writes every line so far (at a checkpoint: what a resumed run will keep). */
    void write() {
        HadoopFiles.writeStringAtomically(file, String.join("\n", lines) + "\n", hadoop);
    }

    private ObjectNode line(String kind, int epoch, long step) {
        ObjectNode line = JSON.createObjectNode();
        line.put("kind", kind);
        line.put("epoch", epoch);
        line.put("step", step);
        line.put("wall_seconds", (System.nanoTime() - started) / 1e9);
        return line;
    }

    private void add(ObjectNode line) {
        JsonSchemas.requireValid(SCHEMA_FILE, line, "a metrics record");
        lines.add(line.toString());
    }
}
