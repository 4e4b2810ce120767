package org.langid.jobs.train;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.langid.model.schema.JsonSchemas;
import org.langid.model.train.Evaluation;
import org.langid.model.train.LocalTrainer;

class MetricsLogTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static List<JsonNode> read(Path file) throws Exception {
        List<JsonNode> records = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            JsonNode record = JSON.readTree(line);
            assertEquals(List.of(), JsonSchemas.problems(MetricsLog.SCHEMA_FILE, record), line);
            records.add(record);
        }
        return records;
    }

    private static void rounds(MetricsLog log, int fromRound, int toRound) {
        for (int round = fromRound; round < toRound; round++) {
            log.round(0, round, 5L * (round + 1), 0.5, 2 * 5 * 16, 0.25);
        }
    }

    @Test
    void aRunResumedFromACheckpointWithinAnEpochKeepsOneUnbrokenRecordOfItsRounds(@TempDir Path temp) throws Exception {
        Path file = temp.resolve("metrics.jsonl");
        Configuration hadoop = new Configuration();

        MetricsLog first = new MetricsLog(file.toString(), hadoop);
        rounds(first, 0, 4);                  // steps 5..20
        first.write();                        // the checkpoint at step 20
        rounds(first, 4, 6);                  // steps 25, 30: taken, then the run is killed
        List<JsonNode> atCheckpoint = read(file);
        assertEquals(4, atCheckpoint.size(), "what the checkpoint wrote survives the kill");
        assertEquals(0.25, atCheckpoint.get(0).path("seconds").asDouble(), "a Spark round records its own duration");
        assertEquals(2 * 5 * 16 / 0.25, atCheckpoint.get(0).path("samples_per_second").asDouble(), 1e-9);

        MetricsLog resumed = new MetricsLog(file.toString(), hadoop, 20);
        rounds(resumed, 4, 8);                // steps 25..40 again, from the checkpoint
        resumed.epoch(new LocalTrainer.EpochResult(1, 40, 0.5, new Evaluation(100, 90, 0.3), 2.0, 640));

        List<JsonNode> record = read(file);
        List<Long> steps = record.stream().map(r -> r.path("step").asLong()).toList();
        assertEquals(List.of(5L, 10L, 15L, 20L, 25L, 30L, 35L, 40L, 40L), steps, "each step once, in order, then the epoch line");
        assertEquals("epoch", record.get(8).path("kind").asText());
    }

    @Test
    void aFreshRunReplacesAnEarlierLog(@TempDir Path temp) throws Exception {
        Path file = temp.resolve("metrics.jsonl");
        Configuration hadoop = new Configuration();
        MetricsLog earlier = new MetricsLog(file.toString(), hadoop);
        rounds(earlier, 0, 3);
        earlier.write();

        MetricsLog fresh = new MetricsLog(file.toString(), hadoop);
        rounds(fresh, 0, 1);
        fresh.write();
        assertEquals(1, read(file).size());
    }
}
