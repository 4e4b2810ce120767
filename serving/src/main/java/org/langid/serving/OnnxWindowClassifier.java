package org.langid.serving;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.util.Map;

/**
 * Runs an exported {@code model.onnx} with ONNX Runtime: one session, shared by all callers
 * (ONNX Runtime's {@code run} is thread-safe), each call one batch of windows.
 *
 * <p>Threads: {@code intraOpThreads} is the session's own pool for one call. A server that runs
 * one call per core at once wants 1; a batch job with one caller wants the cores it has.
 */
public final class OnnxWindowClassifier implements WindowClassifier {

    public static final String INPUT = "windows";
    public static final String OUTPUT = "probabilities";
    /** Custom metadata of model.onnx: the model version it was written for. */
    public static final String MODEL_VERSION_KEY = "langid.model_version";
    /** Custom metadata of model.int8.onnx: its weights' bits (7); int8 files without it have 8-bit weights. */
    public static final String INT8_WEIGHT_BITS_KEY = "langid.int8_weight_bits";

    private final OrtEnvironment environment;
    private final OrtSession session;
    private final int window;
    private final int classes;
    private final String file;

    /**
     * @param model          the bytes of {@code model.onnx} or {@code model.int8.onnx} (already checked against the manifest)
     * @param modelVersion   the manifest's model version: a file written for another model is refused
     * @param window         characters per window (the input's second dimension)
     * @param classes        languages (the output's second dimension)
     * @param intraOpThreads threads one call may use
     */
    public OnnxWindowClassifier(byte[] model, String modelVersion, int window, int classes, int intraOpThreads) {
        this(model, modelVersion, window, classes, intraOpThreads, null);
    }

    /** @param file the artefact's file the bytes are (model.onnx, model.int8.onnx), named by {@link #engine()}; or null */
    public OnnxWindowClassifier(byte[] model, String modelVersion, int window, int classes, int intraOpThreads, String file) {
        this.window = window;
        this.classes = classes;
        this.file = file;
        this.environment = OrtEnvironment.getEnvironment();
        try (OrtSession.SessionOptions options = sessionOptions(intraOpThreads)) {
            this.session = environment.createSession(model, options);
        } catch (OrtException e) {
            throw new IllegalArgumentException("ONNX Runtime cannot load the model: " + e.getMessage(), e);
        }
        String writtenFor = writtenFor();
        if (!modelVersion.equals(writtenFor)) {
            close();
            throw new IllegalArgumentException("model.onnx was written for model " + writtenFor + ", not for " + modelVersion
                    + ": the artefact mixes files of two models");
        }
        long[] inputShape = shapeOf(INPUT);
        long[] outputShape = shapeOf(OUTPUT);
        if (inputShape.length != 2 || inputShape[1] != window || outputShape.length != 2 || outputShape[1] != classes) {
            close();
            throw new IllegalArgumentException("model.onnx takes " + java.util.Arrays.toString(inputShape) + " and gives "
                    + java.util.Arrays.toString(outputShape) + "; the manifest says windows of " + window + " and " + classes + " languages");
        }
    }

    /**
     * How detection sets up an ONNX Runtime session; public so that benchmarks of the graph alone
     * (bench/detect/OnnxGraphRatio.java) time it as detection runs it.
     */
    public static OrtSession.SessionOptions sessionOptions(int intraOpThreads) throws OrtException {
        OrtSession.SessionOptions options = new OrtSession.SessionOptions();
        try {
            options.setIntraOpNumThreads(intraOpThreads);
            // Idle pool threads sleep instead of spinning: spinning burnt a core per idle thread
            // between our batches, and on a busy machine it starves the threads doing the work.
            options.addConfigEntry("session.intra_op.allow_spinning", "0");
            options.setInterOpNumThreads(1);
            options.setExecutionMode(OrtSession.SessionOptions.ExecutionMode.SEQUENTIAL);
            options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
            // Batch sizes vary from call to call (a server batches whatever requests wait): with
            // the arena and memory patterns, ONNX Runtime keeps the largest shapes' buffers forever.
            options.setCPUArenaAllocator(false);
            options.setMemoryPatternOptimization(false);
            return options;
        } catch (OrtException | RuntimeException e) {
            options.close();   // the caller's try-with-resources never gets them
            throw e;
        }
    }

    private String writtenFor() {
        return metadata(MODEL_VERSION_KEY, "(none)");
    }

    private String metadata(String key, String otherwise) {
        try {
            return session.getMetadata().getCustomMetadata().getOrDefault(key, otherwise);
        } catch (OrtException e) {
            throw new IllegalArgumentException("model.onnx has unreadable metadata: " + e.getMessage(), e);
        }
    }

    /**
     * For an int8 flavour: null when its integer products are exact on this CPU (always, for
     * 7-bit weights), else why not: a file written with 8-bit weights, on integer kernels that sum
     * byte pairs in int16 (x86-64 without VNNI). Its answers would then differ from the float
     * graph's and from other CPUs', so loaders run model.onnx instead.
     */
    public String int8Inexactness() {
        String bits = metadata(INT8_WEIGHT_BITS_KEY, "8");
        int magnitude;
        try {
            magnitude = Integer.parseInt(bits) <= 7 ? 1 << (Integer.parseInt(bits) - 1) : IntegerKernels.EIGHT_BIT;
        } catch (NumberFormatException e) {
            magnitude = IntegerKernels.EIGHT_BIT;
        }
        if (magnitude >= 1 && IntegerKernels.exactWithWeightsUpTo(magnitude)) {
            return null;
        }
        return (file == null ? "the int8 flavour" : file) + " has " + bits + "-bit weights, which this CPU's integer kernels ("
                + IntegerKernels.instructionSet() + ") do not multiply exactly";
    }

    private long[] shapeOf(String name) {
        try {
            var info = session.getInputInfo().containsKey(name) ? session.getInputInfo().get(name) : session.getOutputInfo().get(name);
            if (info == null) {
                close();
                throw new IllegalArgumentException("model.onnx has no tensor named '" + name + "'");
            }
            return ((ai.onnxruntime.TensorInfo) info.getInfo()).getShape();
        } catch (OrtException e) {
            throw new IllegalArgumentException("model.onnx cannot be inspected: " + e.getMessage(), e);
        }
    }

    @Override
    public float[] probabilities(int[] symbols, int rows) {
        if (symbols.length < rows * window) {
            throw new IllegalArgumentException(symbols.length + " symbols hold fewer than " + rows + " windows of " + window);
        }
        float[] out = new float[rows * classes];
        if (rows == 0) {
            return out;
        }
        try (OnnxTensor input = OnnxTensor.createTensor(environment, IntBuffer.wrap(symbols, 0, rows * window), new long[] {rows, window});
             OrtSession.Result result = session.run(Map.of(INPUT, input))) {
            FloatBuffer values = ((OnnxTensor) result.get(0)).getFloatBuffer();   // (rows, C)
            values.get(out);
            return out;
        } catch (OrtException e) {
            throw new IllegalStateException("ONNX Runtime failed on a batch of " + rows + " windows: " + e.getMessage(), e);
        }
    }

    @Override
    public String engine() {
        return "onnxruntime " + environment.getVersion() + (file == null ? "" : " (" + file + ")");
    }

    @Override
    public void close() {
        try {
            session.close();
        } catch (OrtException | RuntimeException e) {
            // nothing left to release: closing twice is harmless
        }
    }
}
