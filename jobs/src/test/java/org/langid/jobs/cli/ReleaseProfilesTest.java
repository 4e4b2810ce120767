package org.langid.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.langid.jobs.prepare.PrepareConfig;
import org.langid.model.artefact.ModelArtefact;
import org.langid.model.config.ConfigTree;
import org.langid.model.graph.ModelConfig;
import org.langid.model.train.TrainConfig;

/**
 * The committed models can be trained again from a profile alone: each profile's model, its
 * languages and its training recipe are those its model's manifest records.
 */
class ReleaseProfilesTest {

    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    private static final Configuration HADOOP = new Configuration();

    @Test
    void theSeedProfileIsTheRecipeOfTheEightLanguageSeedModel() {
        assertProfileReproduces("seed.yaml", REPO.resolve("models/versions/20261128T222203Z-b9cd9045"));
    }

    @Test
    void theManyLanguageProfileIsTheRecipeOfTheRelease() throws java.io.IOException {
        String current = java.nio.file.Files.readString(REPO.resolve("models/current")).strip();
        assertProfileReproduces("many.yaml", REPO.resolve("models/versions").resolve(current));
    }

    private static void assertProfileReproduces(String profile, Path artefact) {
        ConfigTree tree = ProfileOptions.read(REPO.resolve("conf").resolve(profile).toString(), HADOOP);
        ModelArtefact model = ModelArtefact.load(artefact.toString(), HADOOP);
        PrepareConfig prepare = tree.section("prepare", PrepareConfig.class);
        assertEquals(model.manifest().languages().stream().filter(l -> !l.equals("und")).toList(), prepare.languages,
                profile + ": prepare.languages");
        ObjectNode fromProfile = (ObjectNode) ConfigTree.toJson(tree.section("model", ModelConfig.class));
        ObjectNode fromManifest = (ObjectNode) ConfigTree.toJson(model.manifest().modelConfig());
        fromProfile.remove("languages");    // the profile's default: prepare's languages (above)
        fromManifest.remove("languages");
        fromProfile.remove("alphabet");     // prepare's choice, derived from the data (above for the seed)
        fromManifest.remove("alphabet");
        assertEquals(fromManifest, fromProfile, profile + ": the model section");
        JsonNode recorded = model.manifest().training().get("train");
        assertSameRecipe(profile + ": train", recorded, ConfigTree.toJson(tree.section("train", TrainConfig.class)));
        assertEquals(model.manifest().normalisation().startsWith("nfd-drop-marks") ? PrepareConfig.SEED_ALPHABET : PrepareConfig.SCRIPTS_ALPHABET,
                prepare.alphabet, profile + ": prepare.alphabet");
    }

    /** Every key the manifest recorded has the profile's value; numbers compare by value (0 and 0L alike). */
    private static void assertSameRecipe(String where, JsonNode recorded, JsonNode fromProfile) {
        if (recorded.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = recorded.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> key = it.next();
                String at = where + "." + key.getKey();
                if (RETIRED_OR_SCHEDULING.contains(at.substring(at.indexOf(": ") + 2))) {
                    continue;
                }
                JsonNode actual = fromProfile.get(key.getKey());
                assertEquals(true, actual != null, at + " is not a setting any more");
                assertSameRecipe(at, key.getValue(), actual);
            }
        } else if (recorded.isNumber() && fromProfile.isNumber()) {
            assertEquals(recorded.doubleValue(), fromProfile.doubleValue(), where);
        } else {
            assertEquals(recorded, fromProfile, where);
        }
    }

    /** Recorded keys that do not change the model: when checkpoints and log lines were written, a retired name. */
    private static final java.util.Set<String> RETIRED_OR_SCHEDULING = java.util.Set.of(
            "train.checkpoint_every_epochs", "train.checkpoint_every_minutes", "train.log_every_seconds",
            "train.optimizer.name");   // Adam, the only optimiser, was once named
}
