package org.langid.model.artefact;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.langid.model.config.ConfigTree;
import org.langid.model.graph.LanguageIdGraph;
import org.langid.model.graph.ModelConfig;
import org.langid.model.graph.NgramFilter;
import org.langid.model.graph.ParameterLayout;
import org.langid.model.io.HadoopFiles;
import org.langid.model.onnx.OnnxGraphWriter;
import org.langid.serving.OnnxWindowClassifier;
import org.langid.model.schema.JsonSchemas;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A trained model as a self-describing directory on any Hadoop FileSystem:
 * <pre>
 *   manifest.json   what it is, where it came from, how good, SHA-256 of the files below
 *   graph.fb        the SameDiff inference graph with its parameters (FlatBuffers, no updater state)
 *   model.onnx      the same model for inference engines (ONNX opset 17, float32)
 *   model.int8.onnx the same with its blocks' matrix products in int8 (what detection runs by default)
 *   metrics.jsonl   the training metrics log, when the trainer wrote one (optional)
 * </pre>
 * {@link #create} makes one in memory, {@link #writeTo} writes it (manifest last, so a
 * half-written directory has no manifest and is refused), {@link #load} reads and verifies it.
 */
public final class ModelArtefact {

    /** The newest directory layout this code writes and reads. */
    public static final int FORMAT_VERSION = 1;
    public static final String MANIFEST = "manifest.json";
    public static final String GRAPH = "graph.fb";
    public static final String ONNX = "model.onnx";
    public static final String ONNX_INT8 = org.langid.serving.ServingModel.ONNX_INT8;
    public static final String METRICS = "metrics.jsonl";
    private static final DateTimeFormatter VERSION_TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private final Manifest manifest;
    private final Map<String, byte[]> files;

    private ModelArtefact(Manifest manifest, Map<String, byte[]> files) {
        this.manifest = manifest;
        this.files = files;
    }

    /**
     * An artefact of {@code parameters} (laid out by {@link ParameterLayout} for {@code config}).
     *
     * @param training   provenance; must hold data_fingerprint (see the manifest schema)
     * @param metrics    held-out figures, e.g. validation_accuracy
     * @param metricsLog the trainer's metrics.jsonl, or null
     */
    public static ModelArtefact create(ModelConfig config, INDArray parameters, ObjectNode training,
                                       Map<String, Double> metrics, byte[] metricsLog, Instant created) {
        return create(config, parameters, null, training, metrics, metricsLog, created);
    }

    /**
     * As {@link #create(ModelConfig, INDArray, ObjectNode, Map, byte[], Instant)}, with the n-gram
     * filter of the training windows (required when the model has {@code ngram_filter_bits}, null
     * otherwise), which the graph and both ONNX flavours carry.
     */
    public static ModelArtefact create(ModelConfig config, INDArray parameters, NgramFilter filter, ObjectNode training,
                                       Map<String, Double> metrics, byte[] metricsLog, Instant created) {
        SameDiff graph = LanguageIdGraph.build(config.validated(), parameters.dup(), filter).sameDiff();
        ByteBuffer buffer = graph.asFlatBuffers(false);
        byte[] graphBytes = new byte[buffer.remaining()];
        buffer.get(graphBytes);

        Instant time = created.truncatedTo(ChronoUnit.SECONDS);
        String modelVersion = VERSION_TIME.format(time) + "-" + sha256(graphBytes).substring(0, 8);
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put(GRAPH, graphBytes);
        putOnnxFlavours(files, config, parameters, filter, modelVersion);
        if (metricsLog != null) {
            files.put(METRICS, metricsLog);
        }
        ObjectNode document = Manifest.JSON.createObjectNode();
        document.put("format_version", FORMAT_VERSION);
        document.put("model_version", modelVersion);
        document.put("created", time.toString());
        config.languages.forEach(document.putArray("languages")::add);
        document.put("vocabulary", config.alphabet.symbols());
        document.put("pad_index", config.alphabet.pad());
        document.put("normalisation", config.alphabet.normalisation());
        document.put("window", config.window);
        ObjectNode model = (ObjectNode) ConfigTree.toJson(config);
        model.remove("alphabet");   // the manifest's vocabulary and normalisation
        document.set("model", model);
        document.set("training", training.deepCopy());
        ObjectNode metricsNode = document.putObject("metrics");
        metrics.forEach(metricsNode::put);
        listFiles(document, files);
        JsonSchemas.requireValid(Manifest.SCHEMA_FILE, document, "the manifest being written");
        return new ModelArtefact(new Manifest(document), files);
    }

    /** model.onnx and model.int8.onnx of {@code parameters}, into {@code files}. */
    private static void putOnnxFlavours(Map<String, byte[]> files, ModelConfig config, INDArray parameters, NgramFilter filter,
                                        String modelVersion) {
        files.put(ONNX, OnnxGraphWriter.write(config, parameters, modelVersion, OnnxGraphWriter.Precision.FLOAT, filter));
        files.put(ONNX_INT8, OnnxGraphWriter.write(config, parameters, modelVersion, OnnxGraphWriter.Precision.INT8, filter));
    }

    private static void listFiles(ObjectNode document, Map<String, byte[]> files) {
        ObjectNode fileNode = document.putObject("files");
        files.forEach((name, bytes) -> {
            ObjectNode entry = fileNode.putObject(name);
            entry.put("sha256", sha256(bytes));
            entry.put("bytes", bytes.length);
        });
    }

    /**
     * This artefact with its ONNX flavours (float and int8) written from its graph's parameters (for
     * artefacts made before they existed); the model version and everything else stay as they are.
     */
    public ModelArtefact withOnnxFlavour() {
        Map<String, byte[]> withOnnx = new LinkedHashMap<>(files);
        putOnnxFlavours(withOnnx, manifest.modelConfig(), parameters(), ngramFilter(), manifest.modelVersion());
        ObjectNode document = manifest.toJson();
        listFiles(document, withOnnx);
        JsonSchemas.requireValid(Manifest.SCHEMA_FILE, document, "the manifest being written");
        return new ModelArtefact(new Manifest(document), withOnnx);
    }

    /**
     * This artefact with {@code confidence_floor} in its manifest: detectors that load it answer
     * und for a text whose combined probability is below {@code floor} (0 removes the field).
     */
    public ModelArtefact withConfidenceFloor(double floor) {
        if (!(floor >= 0 && floor < 1)) {
            throw new IllegalArgumentException("the confidence floor must be in [0, 1), got " + floor);
        }
        ObjectNode document = manifest.toJson();
        if (floor > 0) {
            document.put("confidence_floor", floor);
        } else {
            document.remove("confidence_floor");
        }
        JsonSchemas.requireValid(Manifest.SCHEMA_FILE, document, "the manifest being written");
        return new ModelArtefact(new Manifest(document), files);
    }

    /** The ONNX flavour, when the artefact has one (artefacts written before it existed do not). */
    public java.util.Optional<byte[]> onnxModel() {
        return java.util.Optional.ofNullable(files.get(ONNX));
    }

    /** The int8 ONNX flavour, when the artefact has one (artefacts written before 2026-11-28 do not). */
    public java.util.Optional<byte[]> onnxInt8Model() {
        return java.util.Optional.ofNullable(files.get(ONNX_INT8));
    }

    /** Writes the artefact into directory {@code dir} (created if needed); the manifest goes last. */
    public void writeTo(String dir, Configuration conf) {
        try {
            Path root = new Path(dir);
            FileSystem fs = HadoopFiles.fileSystem(root, conf);
            fs.mkdirs(root);
            for (Map.Entry<String, byte[]> file : files.entrySet()) {
                write(fs, new Path(root, file.getKey()), file.getValue());
            }
            write(fs, new Path(root, MANIFEST), manifest.toText().getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new ArtefactException("cannot write the model artefact to " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads the artefact in {@code dir} and verifies it: the manifest validates, its format is
     * not newer than {@link #FORMAT_VERSION}, every listed file exists with its SHA-256, and the
     * model's normalisation and vocabulary are the ones this code implements.
     */
    public static ModelArtefact load(String dir, Configuration conf) {
        try {
            Path root = new Path(dir);
            FileSystem fs = HadoopFiles.fileSystem(root, conf);
            Path manifestPath = new Path(root, MANIFEST);
            if (!fs.exists(manifestPath)) {
                throw new ArtefactException(dir + " has no " + MANIFEST + ": it is not a model artefact (an artefact holds "
                        + MANIFEST + " and " + GRAPH + "; a registry holds 'current' and versions/)");
            }
            Manifest manifest = Manifest.parse(new String(read(fs, manifestPath), StandardCharsets.UTF_8),
                    dir + "/" + MANIFEST, FORMAT_VERSION);
            Map<String, byte[]> files = new LinkedHashMap<>();
            for (Map.Entry<String, String> expected : manifest.fileChecksums().entrySet()) {
                Path file = new Path(root, expected.getKey());
                byte[] bytes;
                try {
                    bytes = read(fs, file);
                } catch (FileNotFoundException e) {
                    throw new ArtefactException(dir + ": " + expected.getKey() + " is listed in " + MANIFEST
                            + " but missing: the artefact is damaged or incomplete");
                }
                String actual = sha256(bytes);
                if (!actual.equals(expected.getValue())) {
                    throw new ArtefactException(dir + ": " + expected.getKey() + " does not match its SHA-256 in " + MANIFEST
                            + " (expected " + expected.getValue().substring(0, 12) + "…, found " + actual.substring(0, 12)
                            + "…): the artefact is damaged");
                }
                files.put(expected.getKey(), bytes);
            }
            if (!files.containsKey(GRAPH)) {
                throw new ArtefactException(dir + ": " + MANIFEST + " lists no " + GRAPH);
            }
            requireCompatible(manifest, dir);
            for (String onnx : List.of(ONNX, ONNX_INT8)) {
                if (files.containsKey(onnx)) {
                    requireWrittenFor(manifest, onnx, files.get(onnx), dir);
                }
            }
            return new ModelArtefact(manifest, files);
        } catch (IOException e) {
            throw new ArtefactException("cannot read the model artefact " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * model.onnx names the model version it was written for (metadata {@value OnnxWindowClassifier#MODEL_VERSION_KEY}):
     * a file from another model is refused like a damaged one. Read by a scan for the metadata entry
     * (key, then field 2: the value) rather than a full protobuf parse, which cost ~0.3 s of start-up.
     */
    private static void requireWrittenFor(Manifest manifest, String file, byte[] onnxBytes, String dir) {
        String writtenFor = metadataValue(onnxBytes, OnnxWindowClassifier.MODEL_VERSION_KEY);
        if (!manifest.modelVersion().equals(writtenFor)) {
            throw new ArtefactException(dir + ": " + file + " was written for model " + (writtenFor == null ? "(none named)" : writtenFor)
                    + ", not for " + manifest.modelVersion() + ": the artefact mixes files of two models");
        }
    }

    /** The value of a string metadata entry {@code key} in serialised ONNX, or null. */
    static String metadataValue(byte[] bytes, String key) {
        byte[] keyBytes = key.getBytes(StandardCharsets.UTF_8);
        outer:
        for (int i = 0; i + keyBytes.length + 2 < bytes.length; i++) {
            for (int j = 0; j < keyBytes.length; j++) {
                if (bytes[i + j] != keyBytes[j]) {
                    continue outer;
                }
            }
            int at = i + keyBytes.length;
            if (bytes[at] != 0x12) {   // field 2 (value), length-delimited
                continue;
            }
            int length = 0;
            int shift = 0;
            at++;
            while (at < bytes.length && shift < 28) {
                byte b = bytes[at++];
                length |= (b & 0x7f) << shift;
                shift += 7;
                if ((b & 0x80) == 0) {
                    break;
                }
            }
            if (at + length <= bytes.length) {
                return new String(bytes, at, length, StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    private static void requireCompatible(Manifest manifest, String dir) {
        try {
            org.langid.serving.ServingModel.alphabet(dir, manifest.normalisation(), manifest.vocabulary(), manifest.padIndex());
        } catch (org.langid.serving.ServingModel.ModelLoadException e) {
            throw new ArtefactException(e.getMessage());
        }
        ModelConfig config = manifest.modelConfig();
        if (config.window != manifest.window() || !config.languages.equals(manifest.languages())) {
            throw new ArtefactException(dir + ": " + MANIFEST + " contradicts itself (window or languages differ from its model section)");
        }
    }

    public Manifest manifest() {
        return manifest;
    }

    /** A fresh copy of the inference graph: placeholder {@code windows} (INT32, [B, T]); outputs as {@link LanguageIdGraph}. */
    public SameDiff newGraph() {
        try {
            return SameDiff.fromFlatBuffers(ByteBuffer.wrap(files.get(GRAPH)));
        } catch (IOException | RuntimeException e) {
            throw new ArtefactException("the graph of model " + manifest.modelVersion() + " cannot be loaded: " + e.getMessage(), e);
        }
    }

    /** The trained parameters as one flat vector laid out by {@link ParameterLayout} (to warm-start training from). */
    public INDArray parameters() {
        ModelConfig config = manifest.modelConfig();
        SameDiff graph = newGraph();
        ParameterLayout layout = ParameterLayout.of(config);
        INDArray flat = org.nd4j.linalg.factory.Nd4j.zeros(org.nd4j.linalg.api.buffer.DataType.FLOAT, layout.size());
        layout.views(flat).forEach((name, view) -> {
            INDArray value = graph.getArrForVarName(name);
            if (value == null) {
                throw new ArtefactException("the graph of model " + manifest.modelVersion() + " has no parameter " + name);
            }
            view.assign(value);
        });
        return flat;
    }

    /** The n-gram filter of the model's training windows, or null if the model has none ({@code ngram_filter_bits} 0). */
    public NgramFilter ngramFilter() {
        return LanguageIdGraph.filter(manifest.modelConfig(), newGraph());
    }

    /**
     * A new model: this one's parameters reading its n-grams through {@code filter}, made from this
     * model's own training windows (the caller checks that), with {@code ngram_filter_bits} set to
     * its size and {@code provenance} (how the filter was made) added to the training section. Its
     * predictions differ, so it gets a version of its own; the manifest keeps this one's metrics.
     */
    public ModelArtefact withNgramFilter(NgramFilter filter, ObjectNode provenance, Instant created) {
        ModelConfig config = manifest.modelConfig();
        if (!config.ngrams()) {
            throw new ArtefactException("model " + manifest.modelVersion() + " has no n-grams to filter");
        }
        config.ngramFilterBits = (int) filter.size();
        ObjectNode training = ((ObjectNode) manifest.training()).deepCopy();
        training.put("ngram_filter_added_to", manifest.modelVersion());
        training.setAll(provenance);
        byte[] metricsLog = files.get(METRICS);
        return create(config, parameters(), filter, training, manifest.metrics(), metricsLog, created);
    }

    /** The training metrics log stored with the artefact, if any. */
    public java.util.Optional<String> metricsLog() {
        byte[] bytes = files.get(METRICS);
        return bytes == null ? java.util.Optional.empty() : java.util.Optional.of(new String(bytes, StandardCharsets.UTF_8));
    }

    static String sha256(byte[] bytes) {
        return org.langid.serving.ServingModel.sha256(bytes);   // one definition for both loaders
    }

    private static void write(FileSystem fs, Path path, byte[] bytes) throws IOException {
        try (OutputStream out = fs.create(path, true)) {
            out.write(bytes);
        }
    }

    private static byte[] read(FileSystem fs, Path path) throws IOException {
        try (InputStream in = fs.open(path)) {
            return in.readAllBytes();
        }
    }
}
