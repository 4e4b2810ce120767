package org.langid.serving;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import org.langid.text.Alphabet;

/**
 * A model artefact as a serving process loads it, from a local directory, without Spark, ND4J
 * or Hadoop: its manifest and one ONNX flavour ({@value #ONNX_INT8} when it has one, unless asked
 * for {@value #ONNX}), checked the way model/'s ModelArtefact checks them (the file must match its
 * SHA-256 in the manifest, and its alphabet one this code implements). A registry (a directory with {@code current} and
 * {@code versions/}) resolves to its current version. Artefacts on HDFS or S3 are copied to local
 * disk first (the serving image bakes the released model in).
 */
public final class ServingModel implements AutoCloseable {

    public static final String MANIFEST = "manifest.json";
    public static final String ONNX = "model.onnx";
    /** The ONNX flavour with the blocks' matrix products in int8: run instead of model.onnx when the artefact has it. */
    public static final String ONNX_INT8 = "model.int8.onnx";
    public static final String CURRENT = "current";
    public static final String VERSIONS = "versions";
    /** The newest artefact layout this code reads (as ModelArtefact.FORMAT_VERSION). */
    public static final int FORMAT_VERSION = 1;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path directory;
    private final ObjectNode manifest;
    private final TextDetector detector;

    private ServingModel(Path directory, ObjectNode manifest, TextDetector detector) {
        this.directory = directory;
        this.manifest = manifest;
        this.detector = detector;
    }

    /**
     * Loads the artefact at {@code location} (or a registry's current version) for detection.
     *
     * @param intraOpThreads threads ONNX Runtime may use for one batch
     */
    public static ServingModel load(Path location, TextDetector.Options options, int intraOpThreads) {
        return load(location, options, intraOpThreads, 1);
    }

    /**
     * As {@link #load(Path, TextDetector.Options, int)}, for a caller with batches of texts to run
     * side by side (predict's quick path).
     *
     * @param parallelism batches of one {@link TextDetector#detectAll} call classified at once
     */
    public static ServingModel load(Path location, TextDetector.Options options, int intraOpThreads, int parallelism) {
        return load(location, options, intraOpThreads, parallelism, true);
    }

    /**
     * @param int8 run {@value #ONNX_INT8} when the artefact has it and its integer products are
     *             exact on this CPU (the default: as accurate within a hundredth of a point, ~1.1×
     *             faster); false: {@value #ONNX}, float32 as trained
     */
    public static ServingModel load(Path location, TextDetector.Options options, int intraOpThreads, int parallelism, boolean int8) {
        Path directory = resolve(location);
        ObjectNode manifest = readManifest(directory);
        String version = text(manifest, "model_version", directory);
        int window = manifest.path("window").asInt(-1);
        List<String> languages = new ArrayList<>();
        manifest.path("languages").forEach(l -> languages.add(l.asText()));
        if (manifest.path("format_version").asInt(Integer.MAX_VALUE) > FORMAT_VERSION) {
            throw new ModelLoadException(directory + ": artefact format " + manifest.path("format_version")
                    + " is newer than this langid reads (up to " + FORMAT_VERSION + ")");
        }
        Alphabet alphabet = alphabet(directory.toString(), manifest.path("normalisation").asText(),
                manifest.path("vocabulary").asText(), manifest.path("pad_index").asInt(-1));
        if (window < 1 || languages.isEmpty()) {
            throw new ModelLoadException(directory + "/" + MANIFEST + " names no window length or no languages: the artefact is damaged");
        }
        boolean fast = int8 && manifest.path("files").has(ONNX_INT8);
        OnnxWindowClassifier classifier = open(directory, location, manifest, fast ? ONNX_INT8 : ONNX, version, window, languages.size(),
                intraOpThreads, fast ? ONNX_INT8 : ONNX);
        String inexact = fast ? classifier.int8Inexactness() : null;
        if (inexact != null) {
            classifier.close();
            classifier = open(directory, location, manifest, ONNX, version, window, languages.size(), intraOpThreads,
                    ONNX + " instead of " + inexact + "; 'langid export --add-onnx' rewrites it with 7-bit weights");
        }
        return new ServingModel(directory, manifest, new TextDetector(classifier, languages, window, alphabet, options, parallelism)
                .withConfidenceFloor(confidenceFloor(manifest, directory.toString())));
    }

    /** The artefact's {@code flavour} file, read, checked against its SHA-256 and opened; {@code label} names it in the engine. */
    private static OnnxWindowClassifier open(Path directory, Path location, ObjectNode manifest, String flavour, String version, int window,
                                             int classes, int intraOpThreads, String label) {
        JsonNode listed = manifest.path("files").path(flavour).path("sha256");
        if (listed.isMissingNode()) {
            throw new ModelLoadException(directory + " has no " + ONNX + " (an artefact made before the ONNX flavour): give it one with "
                    + "'langid export --add-onnx " + location + "'");
        }
        byte[] onnx = read(directory.resolve(flavour), directory);
        // The digest and ONNX Runtime's parsing of the same bytes side by side (each ~0.05-0.1 s in a
        // fresh JVM, a fifth of predict's start-up); the session is dropped unless the digest matches.
        FutureTask<String> digest = new FutureTask<>(() -> sha256(onnx));
        Thread hashing = new Thread(digest, "langid-sha256");
        hashing.setDaemon(true);
        hashing.start();
        OnnxWindowClassifier classifier = null;
        IllegalArgumentException unloadable = null;
        try {
            classifier = new OnnxWindowClassifier(onnx, version, window, classes, intraOpThreads, label);
        } catch (IllegalArgumentException e) {
            unloadable = e;
        }
        String actual = joined(digest, flavour);
        if (!actual.equals(listed.asText())) {
            if (classifier != null) {
                classifier.close();
            }
            throw new ModelLoadException(directory + ": " + flavour + " does not match its SHA-256 in " + MANIFEST + " (expected "
                    + listed.asText().substring(0, Math.min(12, listed.asText().length())) + "…, found " + actual.substring(0, 12)
                    + "…): the artefact is damaged");
        }
        if (unloadable != null) {
            throw new ModelLoadException(directory + ": " + unloadable.getMessage());
        }
        return classifier;
    }

    /**
     * The alphabet a manifest records ({@code normalisation}, {@code vocabulary}, {@code pad_index}),
     * or a one-line reason why this langid cannot read text as that model does. Every loader asks
     * this (ModelArtefact too).
     */
    public static Alphabet alphabet(String directory, String normalisation, String vocabulary, int padIndex) {
        Alphabet alphabet;
        try {
            alphabet = Alphabet.of(normalisation, vocabulary);
        } catch (IllegalArgumentException e) {
            throw new ModelLoadException(directory + " reads text in a way this langid does not: " + e.getMessage());
        }
        if (padIndex != alphabet.pad()) {
            throw new ModelLoadException(directory + " pads windows with symbol " + padIndex + ", not " + alphabet.pad()
                    + " after its " + alphabet.size() + " symbols: the artefact is damaged");
        }
        return alphabet;
    }

    /**
     * The manifest's {@code confidence_floor}: below it a text is {@value TextDetector#UNDETERMINED}
     * (the model's languages exclude it); 0 when the manifest names none.
     */
    public static double confidenceFloor(JsonNode manifest, String directory) {
        JsonNode floor = manifest.path("confidence_floor");
        if (floor.isMissingNode()) {
            return 0;
        }
        if (!floor.isNumber() || floor.asDouble() < 0 || floor.asDouble() >= 1) {
            throw new ModelLoadException(directory + "/" + MANIFEST + ": confidence_floor must be a number in [0, 1), not " + floor);
        }
        return floor.asDouble();
    }

    /** The artefact directory {@code location} names: itself, or a registry's current version. */
    public static Path resolve(Path location) {
        Path pointer = location.resolve(CURRENT);
        if (!Files.exists(pointer) && !Files.isDirectory(location.resolve(VERSIONS))) {
            return location;
        }
        String version = currentVersion(location).orElseThrow(() -> new ModelLoadException(
                "the model registry " + location + " has no current model yet (nothing was published to it)"));
        return location.resolve(VERSIONS).resolve(version);
    }

    /** The version a registry's {@code current} names, if it has one. */
    public static Optional<String> currentVersion(Path registry) {
        try {
            return Optional.of(Files.readString(registry.resolve(CURRENT), StandardCharsets.UTF_8).strip()).filter(v -> !v.isEmpty());
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new ModelLoadException("cannot read " + registry.resolve(CURRENT) + ": " + e.getMessage());
        }
    }

    public static boolean isRegistry(Path location) {
        return Files.exists(location.resolve(CURRENT)) || Files.isDirectory(location.resolve(VERSIONS));
    }

    public TextDetector detector() {
        return detector;
    }

    public String modelVersion() {
        return manifest.get("model_version").asText();
    }

    /** The manifest (a copy). */
    public ObjectNode manifest() {
        return manifest.deepCopy();
    }

    public Path directory() {
        return directory;
    }

    @Override
    public void close() {
        detector.classifier().close();
    }

    private static ObjectNode readManifest(Path directory) {
        Path file = directory.resolve(MANIFEST);
        if (!Files.exists(file)) {
            throw new ModelLoadException(directory + " has no " + MANIFEST + ": it is not a model artefact (an artefact holds "
                    + MANIFEST + " and " + ONNX + "; a registry holds 'current' and versions/)");
        }
        JsonNode tree;
        try {
            tree = JSON.readTree(read(file, directory));
        } catch (IOException e) {
            throw new ModelLoadException(file + " is not valid JSON: the artefact is damaged");
        }
        if (!(tree instanceof ObjectNode object)) {
            throw new ModelLoadException(file + " is not a JSON object: the artefact is damaged");
        }
        return object;
    }

    private static String text(ObjectNode manifest, String field, Path directory) {
        JsonNode value = manifest.get(field);
        if (value == null || !value.isTextual()) {
            throw new ModelLoadException(directory + "/" + MANIFEST + " has no " + field + ": the artefact is damaged");
        }
        return value.asText();
    }

    private static byte[] read(Path file, Path directory) {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new ModelLoadException(directory + ": " + file.getFileName() + " is listed in " + MANIFEST
                    + " but missing: the artefact is damaged or incomplete");
        } catch (IOException e) {
            throw new ModelLoadException("cannot read " + file + ": " + e.getMessage());
        }
    }

    private static String joined(FutureTask<String> digest, String file) {
        try {
            return digest.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ModelLoadException("interrupted while checking " + file);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    /** Hex SHA-256, as manifests list their files. */
    public static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A model that cannot be served, with a one-line reason. */
    public static final class ModelLoadException extends RuntimeException {
        public ModelLoadException(String message) {
            super(message);
        }
    }
}
