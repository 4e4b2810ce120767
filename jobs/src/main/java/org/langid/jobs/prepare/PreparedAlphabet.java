package org.langid.jobs.prepare;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.langid.model.graph.ModelConfig;
import org.langid.model.io.HadoopFiles;
import org.langid.model.schema.JsonSchemas;
import org.langid.text.Alphabet;

/**
 * The alphabet of a prepared directory, {@code alphabet.json} ({@code {normalisation,
 * vocabulary}}, as manifests name them): how its sentences were normalised and the symbols a
 * model trained on its windows reads. Directories without the file were prepared with the
 * {@link Alphabet#SEED seed} alphabet.
 */
public final class PreparedAlphabet {

    public static final String FILE = "alphabet.json";
    public static final String SCHEMA_FILE = "alphabet.schema.json";
    private static final ObjectMapper JSON = new ObjectMapper();

    private PreparedAlphabet() {
    }

    /** The alphabet {@code prepared} was cut with. */
    public static Alphabet read(String prepared, Configuration conf) {
        Path file = new Path(prepared, FILE);
        try {
            FileSystem fs = HadoopFiles.fileSystem(file, conf);
            if (!fs.exists(file)) {
                return Alphabet.SEED;
            }
            JsonNode node;
            try (InputStream in = fs.open(file)) {
                node = JSON.readTree(in);
            }
            return Alphabet.fromJson(node);
        } catch (IOException e) {
            throw new PrepareException("cannot read " + file + ": " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new PrepareException(file + ": " + e.getMessage());
        }
    }

    /** Writes {@code alphabet} into {@code prepared} (nothing for the seed alphabet, which is the default). */
    public static void write(Alphabet alphabet, String prepared, Configuration conf) {
        if (alphabet.isSeed()) {
            return;
        }
        Path file = new Path(prepared, FILE);
        try {
            FileSystem fs = HadoopFiles.fileSystem(file, conf);
            JsonNode document = JSON.valueToTree(alphabet.toJson());
            JsonSchemas.requireValid(SCHEMA_FILE, document, "the prepared alphabet being written");
            try (OutputStream out = fs.create(file, true)) {
                out.write(JSON.writeValueAsString(document).getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new PrepareException("cannot write " + file + ": " + e.getMessage());
        }
    }

    /** {@code model} reading text as {@code prepared}'s windows were cut. */
    public static ModelConfig applyTo(ModelConfig model, String prepared, Configuration conf) {
        Alphabet alphabet = read(prepared, conf);
        return alphabet.equals(model.alphabet) ? model : model.withAlphabet(alphabet);
    }
}
