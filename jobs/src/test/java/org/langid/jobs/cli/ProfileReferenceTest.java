package org.langid.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.langid.jobs.prepare.PrepareConfig;
import org.langid.model.config.ConfigTree;
import org.langid.model.graph.ModelConfig;
import org.langid.model.train.TrainConfig;

/**
 * data-schemas/profile.yaml is the one list of a profile's keys and their defaults: it names every
 * key the code reads, at the value the code gives it (DeployFilesTest checks conf/'s profiles).
 */
class ProfileReferenceTest {

    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    private static final Map<String, Object> DEFAULTS = Map.of(
            "prepare", new PrepareConfig(), "model", new ModelConfig(), "train", new TrainConfig());

    @Test
    void theReferenceNamesEveryKeyAtTheCodesDefault() throws IOException {
        JsonNode reference = new ObjectMapper(new YAMLFactory()).readTree(REPO.resolve("data-schemas/profile.yaml").toFile());
        assertEquals(new TreeSet<>(DEFAULTS.keySet()), fieldNames(reference), "the sections");
        List<String> differences = new ArrayList<>();
        DEFAULTS.forEach((section, config) -> compare(section, ConfigTree.toJson(config), reference.get(section), differences));
        assertTrue(differences.isEmpty(), "data-schemas/profile.yaml against the code's defaults:\n  " + String.join("\n  ", differences));
    }

    /** Equal keys at every level; numbers by value (the YAML's 10.0 is the code's 10). */
    private static void compare(String path, JsonNode code, JsonNode written, List<String> differences) {
        if (written == null) {
            differences.add(path + ": missing (the code's default: " + code + ")");
        } else if (code.isObject()) {
            TreeSet<String> keys = fieldNames(code);
            keys.addAll(fieldNames(written));
            for (String key : keys) {
                if (!code.has(key)) {
                    differences.add(path + "." + key + ": not a key the code reads");
                } else {
                    compare(path + "." + key, code.get(key), written.get(key), differences);
                }
            }
        } else if (code.isNumber() && written.isNumber()
                ? code.doubleValue() != written.doubleValue() : !code.equals(written)) {
            differences.add(path + ": " + written + ", the code's default is " + code);
        }
    }

    private static TreeSet<String> fieldNames(JsonNode node) {
        TreeSet<String> names = new TreeSet<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
