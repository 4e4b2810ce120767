package org.langid.serving;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The eight-language model of the seed alphabet committed in models/versions (the release before
 * the 82-language one), and sentences written for these tests. The serving code's behaviour is
 * tested on it, as written for its alphabet (Greek or Cyrillic text is und, accents are dropped);
 * that artefacts made before the alphabet became part of the model keep loading and answering is
 * part of what these tests check. The 82-language release is tested end to end in jobs'
 * ReleasedModelTest. {@link #REGISTRY} is a registry of its own (current → the seed model) under
 * target/, linking to the committed files.
 */
public final class ReleasedModel {

    public static final String VERSION = "20261128T222203Z-b9cd9045";
    /** The registry, relative to the module directory the tests run in. */
    public static final Path REGISTRY = seedRegistry();
    public static final List<String> LANGUAGES = List.of("en", "de", "fr", "es", "it", "pt", "nl", "sv");
    /** The defaults of predict and serve. */
    public static final TextDetector.Options DEFAULTS = new TextDetector.Options(TextDetector.DEFAULT_STRIDE, 256, TextDetector.DEFAULT_BATCH, true);

    /** Three everyday sentences per language, written for these tests. */
    public static final Map<String, List<String>> SENTENCES = sentences();

    /**
     * The int8 flavour quantises activations per model call, so a text's probabilities move a
     * little with the other texts of its batch. Measured: at most 3.3e-5 on the sentences, 0.013
     * on texts of 2-8 characters; int8 against float at most 1.7e-4 and 0.026.
     */
    public static final double SENTENCE_TOLERANCE = 1e-3;
    public static final double SHORT_TEXT_TOLERANCE = 0.05;

    private ReleasedModel() {
    }

    private static Path seedRegistry() {
        Path registry = Path.of("target", "seed-model-registry");
        Path version = registry.resolve(ServingModel.VERSIONS).resolve(VERSION);
        try {
            Files.createDirectories(version.getParent());
            if (!Files.exists(version, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                Files.createSymbolicLink(version, Path.of("..", "models", ServingModel.VERSIONS, VERSION).toAbsolutePath().normalize());
            }
            Files.writeString(registry.resolve(ServingModel.CURRENT), VERSION + "\n");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return registry;
    }

    public static ServingModel load(boolean int8) {
        return ServingModel.load(REGISTRY, DEFAULTS, 1, 1, int8);
    }

    public static Path versionDirectory() {
        return ServingModel.resolve(REGISTRY);
    }

    public static ObjectNode manifest() throws IOException {
        return (ObjectNode) new ObjectMapper().readTree(versionDirectory().resolve(ServingModel.MANIFEST).toFile());
    }

    /**
     * The release's manifest and int8 flavour in {@code directory}, with {@code edit} applied to
     * the int8 bytes (the manifest keeps the original digest): a damaged artefact when edit changes them.
     */
    public static Path copyWithInt8(Path directory, java.util.function.UnaryOperator<byte[]> edit) throws IOException {
        Files.createDirectories(directory);
        Files.copy(versionDirectory().resolve(ServingModel.MANIFEST), directory.resolve(ServingModel.MANIFEST));
        Files.write(directory.resolve(ServingModel.ONNX_INT8), edit.apply(Files.readAllBytes(versionDirectory().resolve(ServingModel.ONNX_INT8))));
        return directory;
    }

    /**
     * The release published again under {@code version} (as long as the release's own version) in
     * {@code registry}: its int8 flavour with the version in its metadata replaced, and a manifest
     * that names the version and lists the new digest. Made current.
     */
    public static void publishRelabelled(Path registry, String version) throws IOException {
        ObjectNode manifest = manifest();
        String released = manifest.get("model_version").asText();
        if (version.length() != released.length()) {
            throw new IllegalArgumentException("a relabelled version must be as long as " + released);
        }
        byte[] onnx = Files.readAllBytes(versionDirectory().resolve(ServingModel.ONNX_INT8));
        byte[] from = released.getBytes(StandardCharsets.US_ASCII);
        byte[] to = version.getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i + from.length <= onnx.length; i++) {
            if (java.util.Arrays.equals(onnx, i, i + from.length, from, 0, from.length)) {
                System.arraycopy(to, 0, onnx, i, to.length);
            }
        }
        manifest.put("model_version", version);
        ObjectNode files = manifest.putObject("files");
        files.putObject(ServingModel.ONNX_INT8).put("sha256", ServingModel.sha256(onnx)).put("bytes", onnx.length);
        Path directory = Files.createDirectories(registry.resolve(ServingModel.VERSIONS).resolve(version));
        Files.write(directory.resolve(ServingModel.ONNX_INT8), onnx);
        new ObjectMapper().writeValue(directory.resolve(ServingModel.MANIFEST).toFile(), manifest);
        Files.writeString(registry.resolve(ServingModel.CURRENT), version + "\n");
    }

    /** Every sentence, language by language. */
    public static List<String> allSentences() {
        return SENTENCES.values().stream().flatMap(List::stream).toList();
    }

    private static Map<String, List<String>> sentences() {
        Map<String, List<String>> sentences = new LinkedHashMap<>();
        sentences.put("en", List.of("The train to the city leaves every morning at seven.",
                "Could you tell me where the nearest pharmacy is?",
                "We spent the whole weekend painting the kitchen walls."));
        sentences.put("de", List.of("Der Zug in die Stadt fährt jeden Morgen um sieben ab.",
                "Können Sie mir sagen, wo die nächste Apotheke ist?",
                "Wir haben das ganze Wochenende die Küche gestrichen."));
        sentences.put("fr", List.of("Le train pour la ville part chaque matin à sept heures.",
                "Pourriez-vous me dire où se trouve la pharmacie la plus proche ?",
                "Nous avons passé tout le week-end à repeindre la cuisine."));
        sentences.put("es", List.of("El tren a la ciudad sale todas las mañanas a las siete.",
                "¿Podría decirme dónde está la farmacia más cercana?",
                "Pasamos todo el fin de semana pintando las paredes de la cocina."));
        sentences.put("it", List.of("Il treno per la città parte ogni mattina alle sette.",
                "Potrebbe dirmi dove si trova la farmacia più vicina?",
                "Abbiamo passato tutto il fine settimana a dipingere la cucina."));
        sentences.put("pt", List.of("O comboio para a cidade parte todas as manhãs às sete.",
                "Você sabe onde fica a farmácia mais próxima?",
                "Passámos o fim de semana inteiro a pintar as paredes da cozinha."));
        sentences.put("nl", List.of("De trein naar de stad vertrekt elke ochtend om zeven uur.",
                "Kunt u mij vertellen waar de dichtstbijzijnde apotheek is?",
                "We hebben het hele weekend de muren van de keuken geverfd."));
        sentences.put("sv", List.of("Tåget till staden går varje morgon klockan sju.",
                "Kan du säga mig var närmaste apotek ligger?",
                "Vi tillbringade hela helgen med att måla om köksväggarna."));
        return java.util.Collections.unmodifiableMap(sentences);
    }

    /** The sentences, then short, ambiguous, mixed and capitalised texts (under 20 characters: "short"). */
    public static List<String> withShortAndMixedTexts() {
        List<String> texts = new ArrayList<>(allSentences());
        texts.addAll(List.of("Hallo", "ja", "casa", "OK!", "Hej då", "Até logo", "the the the the the the the the",
                "Bonjour, how are you? Gut, danke.", "DAS IST EIN KLEINES HAUS"));
        return texts;
    }

    /**
     * The same windows, probabilities within the tolerance for the text's length, and the same
     * language wherever the runner-up is further behind than the probabilities may move.
     */
    public static void assertAgree(Detection expected, Detection actual, String text) {
        double tolerance = text.length() < 20 ? SHORT_TEXT_TOLERANCE : SENTENCE_TOLERANCE;
        assertEquals(expected.windows(), actual.windows(), text);
        assertProbabilitiesClose(expected, actual, tolerance);
        double runnerUp = expected.probabilities().entrySet().stream().filter(e -> !e.getKey().equals(expected.language()))
                .mapToDouble(Map.Entry::getValue).max().orElse(0);
        if (expected.confidence() - runnerUp > 2 * tolerance || !expected.isDetermined()) {
            assertEquals(expected.language(), actual.language(), text);
        }
    }

    public static void assertProbabilitiesClose(Detection expected, Detection actual, double tolerance) {
        assertEquals(expected.probabilities().keySet(), actual.probabilities().keySet());
        for (Map.Entry<String, Double> entry : expected.probabilities().entrySet()) {
            assertEquals(entry.getValue(), actual.probabilities().get(entry.getKey()), tolerance, entry.getKey());
        }
    }
}
