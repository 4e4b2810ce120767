package org.langid.serving;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether ONNX Runtime's uint8 × int8 matrix products (MatMulInteger, and the fused kernels the
 * int8 flavour's linear layers become at load) are exact on this CPU, measured rather than
 * assumed. On x86-64 without VNNI its kernels multiply byte pairs with {@code vpmaddubsw}, which
 * sums each pair of products into int16 with saturation: 2 · 255 · |w| overflows 32,767 once a
 * weight passes 64, so 8-bit weights come out wrong there and 7-bit weights (|w| ≤ 64) never do.
 * With VNNI ({@code vpdpbusd}) every product is summed in int32 and both are exact.
 */
public final class IntegerKernels {

    /** The largest |weight| whose products no x86-64 kernel saturates: 2 · 255 · 64 = 32,640 ≤ 32,767. */
    public static final int EXACT_EVERYWHERE = 64;
    /** The largest |weight| of 8-bit symmetric weights. */
    public static final int EIGHT_BIT = 127;

    /** The probe: y (M, N) int32 = MatMulInteger(a (M, K) uint8, b (K, N) int8), zero points 0. */
    static final String PROBE_RESOURCE = "integer-product-probe.onnx";
    private static final int M = 32;
    private static final int K = 128;
    private static final int N = 16;

    private static final Map<Integer, Boolean> EXACT = new ConcurrentHashMap<>();

    private IntegerKernels() {
    }

    /**
     * Whether a uint8 × int8 product with weights up to {@code magnitude} is exact here: the
     * probe multiplies activations of 255 by weights of ±{@code magnitude} (the worst case for
     * int16 pair sums) and compares every sum with the exact one. Measured once per magnitude.
     */
    public static boolean exactWithWeightsUpTo(int magnitude) {
        if (magnitude < 1 || magnitude > 128) {
            throw new IllegalArgumentException("int8 weights have magnitudes 1 to 128, not " + magnitude);
        }
        return EXACT.computeIfAbsent(magnitude, IntegerKernels::probe);
    }

    private static boolean probe(int magnitude) {
        byte[] a = new byte[M * K];
        java.util.Arrays.fill(a, (byte) 255);
        byte[] b = new byte[K * N];
        for (int k = 0; k < K; k++) {
            for (int n = 0; n < N; n++) {
                // Columns of all +magnitude, all −magnitude, and mixtures whose pairs still add up.
                int sign = n % 2 == 0 ? 1 : -1;
                b[k * N + n] = (byte) (n < 2 || (k + n) % 3 != 0 ? sign * magnitude : -sign * (magnitude / 2));
            }
        }
        OrtEnvironment environment = OrtEnvironment.getEnvironment();
        try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
            options.setIntraOpNumThreads(1);
            try (OrtSession session = environment.createSession(probeModel(), options);
                 OnnxTensor left = OnnxTensor.createTensor(environment, ByteBuffer.wrap(a), new long[] {M, K}, ai.onnxruntime.OnnxJavaType.UINT8);
                 OnnxTensor right = OnnxTensor.createTensor(environment, ByteBuffer.wrap(b), new long[] {K, N}, ai.onnxruntime.OnnxJavaType.INT8);
                 OrtSession.Result result = session.run(Map.of("a", left, "b", right))) {
                IntBuffer y = ((OnnxTensor) result.get(0)).getIntBuffer();
                for (int m = 0; m < M; m++) {
                    for (int n = 0; n < N; n++) {
                        long exact = 0;
                        for (int k = 0; k < K; k++) {
                            exact += 255L * b[k * N + n];
                        }
                        if (y.get(m * N + n) != exact) {
                            return false;
                        }
                    }
                }
                return true;
            }
        } catch (OrtException e) {
            throw new IllegalStateException("ONNX Runtime cannot run its integer product probe: " + e.getMessage(), e);
        }
    }

    static byte[] probeModel() {
        try (InputStream in = IntegerKernels.class.getResourceAsStream(PROBE_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the build lacks " + PROBE_RESOURCE);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The integer instructions ONNX Runtime's x86-64 kernels choose on this CPU, from the flags in
     * {@code /proc/cpuinfo}, e.g. "AVX2 without VNNI (vpmaddubsw: int16 pair sums)"; "unknown"
     * where that cannot be read (another OS or architecture).
     */
    public static String instructionSet() {
        Set<String> flags = cpuFlags();
        if (flags.isEmpty()) {
            return "unknown (no /proc/cpuinfo flags)";
        }
        if (flags.contains("avx512_vnni") && flags.contains("avx512bw")) {
            return "AVX-512 with VNNI (vpdpbusd: int32 sums)";
        }
        if (flags.contains("avx_vnni")) {
            return "AVX2 with AVX-VNNI (vpdpbusd: int32 sums)";
        }
        if (flags.contains("avx512bw")) {
            return "AVX-512 without VNNI (vpmaddubsw: int16 pair sums)";
        }
        if (flags.contains("avx2")) {
            return "AVX2 without VNNI (vpmaddubsw: int16 pair sums)";
        }
        return "neither AVX2 nor AVX-512 (SSE kernels)";
    }

    private static Set<String> cpuFlags() {
        Path cpuinfo = Path.of("/proc/cpuinfo");
        if (!Files.isReadable(cpuinfo)) {
            return Set.of();
        }
        try (var lines = Files.lines(cpuinfo)) {
            return lines.filter(line -> line.startsWith("flags"))
                    .findFirst()
                    .map(line -> Set.<String>copyOf(java.util.Arrays.asList(line.substring(line.indexOf(':') + 1).trim().split("\\s+"))))
                    .orElse(Set.of());
        } catch (IOException | UncheckedIOException e) {
            return Set.of();
        }
    }
}
