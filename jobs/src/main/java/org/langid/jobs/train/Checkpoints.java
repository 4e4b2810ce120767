package org.langid.jobs.train;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.langid.model.graph.ModelConfig;
import org.langid.model.train.TrainConfig;
import org.langid.model.train.TrainingState;

/**
 * Training checkpoints on any Hadoop FileSystem: {@code <dir>/epoch-NNNN/} after NNNN complete
 * epochs, {@code <dir>/epoch-NNNN-step-SSSSSSSSSS/} within the epoch after them (names sort in
 * the order they were made; writing one removes the within-epoch ones before it), each holding
 * {@code state.bin} (parameters, Adam moments, step, epoch) and {@code checkpoint.json} (epoch,
 * step, model and train config, training-data fingerprint). Each is written under a temporary
 * name and renamed, so a crash leaves the previous checkpoint whole.
 */
public final class Checkpoints {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String EPOCH_END = "epoch-\\d{4}";
    private static final String WITHIN_EPOCH = "epoch-\\d{4}-step-\\d{10}";

    private final Path root;
    private final Configuration hadoop;

    public Checkpoints(String directory, Configuration hadoop) {
        this.root = new Path(directory);
        this.hadoop = hadoop;
    }

    /** What a run must match to continue from a checkpoint. */
    public record Identity(JsonNode model, JsonNode train, String dataFingerprint) {
    }

    /** A checkpoint at the end of epoch {@code state.epoch}. */
    public void write(TrainingState state, Identity identity) {
        write(state, identity, String.format("epoch-%04d", state.epoch));
    }

    /** A checkpoint within the epoch after {@code state.epoch} complete ones, at {@code state.step}. */
    public void writeWithinEpoch(TrainingState state, Identity identity) {
        write(state, identity, String.format("epoch-%04d-step-%010d", state.epoch, state.step));
    }

    private void write(TrainingState state, Identity identity, String name) {
        Path target = new Path(root, name);
        Path temporary = new Path(root, "._tmp." + target.getName() + "." + System.nanoTime());
        try {
            FileSystem fs = root.getFileSystem(hadoop);
            fs.mkdirs(temporary);
            try (OutputStream out = fs.create(new Path(temporary, "state.bin"), true)) {
                state.write(out);
            }
            ObjectNode record = JSON.createObjectNode();
            record.put("epoch", state.epoch);
            record.put("step", state.step);
            record.put("data_fingerprint", identity.dataFingerprint());
            record.set("model", identity.model());
            record.set("train", identity.train());
            try (OutputStream out = fs.create(new Path(temporary, "checkpoint.json"), true)) {
                out.write(JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(record));
            }
            if (fs.exists(target)) {
                fs.delete(target, true);
            }
            if (!fs.rename(temporary, target)) {
                throw new IOException("cannot rename " + temporary + " to " + target);
            }
            for (FileStatus older : fs.listStatus(root)) {
                String olderName = older.getPath().getName();
                if (older.isDirectory() && olderName.matches(WITHIN_EPOCH) && olderName.compareTo(name) < 0) {
                    fs.delete(older.getPath(), true);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write checkpoint " + target + ": " + e.getMessage(), e);
        }
    }

    /** The latest checkpoint, refused with a clear message if it was made with another config or other data. */
    public Optional<TrainingState> latest(Identity identity) {
        try {
            FileSystem fs = root.getFileSystem(hadoop);
            if (!fs.exists(root)) {
                return Optional.empty();
            }
            Optional<FileStatus> newest = Arrays.stream(fs.listStatus(root))
                    .filter(s -> s.isDirectory() && (s.getPath().getName().matches(EPOCH_END) || s.getPath().getName().matches(WITHIN_EPOCH)))
                    .max(Comparator.comparing(s -> s.getPath().getName()));
            if (newest.isEmpty()) {
                return Optional.empty();
            }
            Path dir = newest.get().getPath();
            JsonNode record;
            try (InputStream in = fs.open(new Path(dir, "checkpoint.json"))) {
                record = JSON.readTree(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
            // Compared as parsed JSON: a long field and the same number read back differ as nodes. A
            // checkpoint written while the recipe was part of model is compared with it in train.
            JsonNode model = ModelConfig.withoutRecipe(record.path("model"));
            JsonNode train = TrainConfig.withRecipeFrom(record.path("train"), record.path("model"));
            if (!model.equals(JSON.readTree(identity.model().toString())) || !train.equals(JSON.readTree(identity.train().toString()))) {
                throw new IllegalArgumentException("checkpoint " + dir + " was made with another model or train config; "
                        + "resume with the same profile, or train into a new output directory");
            }
            if (!record.path("data_fingerprint").asText().equals(identity.dataFingerprint())) {
                throw new IllegalArgumentException("checkpoint " + dir + " was made from other training data (fingerprint "
                        + record.path("data_fingerprint").asText() + ", now " + identity.dataFingerprint() + ")");
            }
            try (InputStream in = fs.open(new Path(dir, "state.bin"))) {
                return Optional.of(TrainingState.read(in));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read checkpoints in " + root + ": " + e.getMessage(), e);
        }
    }
}
