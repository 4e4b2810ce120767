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
 * rewritten whole (atomically) at each epoch end; a resumed run keeps the earlier lines.
 */
final class MetricsLog {

    static final String SCHEMA_FILE = "metrics-record.schema.json";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String file;
    private final Configuration hadoop;
    private final List<String> lines = new ArrayList<>();
    private final long started = System.nanoTime();

    MetricsLog(String file, Configuration hadoop, boolean keepExisting) {
        this.file = file;
        this.hadoop = hadoop;
        if (keepExisting && HadoopFiles.exists(file, hadoop)) {
            HadoopFiles.readString(file, hadoop).lines().filter(l -> !l.isBlank()).forEach(lines::add);
        }
    }

    void round(int epoch, int round, long step, double loss, double samplesPerSecond) {
        ObjectNode line = line("round", epoch + 1, step);
        line.put("round", round + 1);
        line.put("loss", loss);
        line.put("samples_per_second", samplesPerSecond);
        add(line);
    }

    void epoch(LocalTrainer.EpochResult epoch) {
        ObjectNode line = line("epoch", epoch.epoch(), epoch.step());
        line.put("loss", epoch.trainLoss());
        line.put("samples_per_second", epoch.samplesPerSecond());
        line.put("validation_accuracy", epoch.validation().accuracy());
        line.put("validation_loss", epoch.validation().meanLoss());
        add(line);
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
