package org.langid.model.onnx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import onnx.Onnx;
import org.junit.jupiter.api.Test;

/**
 * The serving module's integer product probe ({@code IntegerKernels}) is a committed ONNX file,
 * because serving has no ONNX protobuf classes; this writes it from them and checks the committed
 * bytes are exactly these. On a mismatch the fresh bytes are left in target/ to copy over.
 */
class IntegerProductProbeTest {

    private static final String RESOURCE = "/org/langid/serving/integer-product-probe.onnx";

    /** y (M, N) int32 = MatMulInteger(a (M, K) uint8, b (K, N) int8), no zero points; opset 17. */
    static byte[] probeModel() {
        Onnx.GraphProto graph = Onnx.GraphProto.newBuilder().setName("integer_product_probe")
                .addNode(Onnx.NodeProto.newBuilder().setOpType("MatMulInteger").setName("product").addInput("a").addInput("b").addOutput("y"))
                .addInput(matrix("a", Onnx.TensorProto.DataType.UINT8, "m", "k"))
                .addInput(matrix("b", Onnx.TensorProto.DataType.INT8, "k", "n"))
                .addOutput(matrix("y", Onnx.TensorProto.DataType.INT32, "m", "n"))
                .build();
        return Onnx.ModelProto.newBuilder().setIrVersion(OnnxGraphWriter.IR_VERSION).setProducerName("langid")
                .addOpsetImport(Onnx.OperatorSetIdProto.newBuilder().setDomain("").setVersion(OnnxGraphWriter.OPSET))
                .setGraph(graph).build().toByteArray();
    }

    private static Onnx.ValueInfoProto matrix(String name, Onnx.TensorProto.DataType type, String rows, String columns) {
        Onnx.TensorShapeProto shape = Onnx.TensorShapeProto.newBuilder()
                .addDim(Onnx.TensorShapeProto.Dimension.newBuilder().setDimParam(rows))
                .addDim(Onnx.TensorShapeProto.Dimension.newBuilder().setDimParam(columns)).build();
        return Onnx.ValueInfoProto.newBuilder().setName(name).setType(Onnx.TypeProto.newBuilder()
                .setTensorType(Onnx.TypeProto.Tensor.newBuilder().setElemType(type.getNumber()).setShape(shape))).build();
    }

    @Test
    void theCommittedProbeIsTheModelWrittenHere() throws Exception {
        byte[] expected = probeModel();
        Path fresh = Path.of("target", "integer-product-probe.onnx");
        Files.createDirectories(fresh.getParent());
        Files.write(fresh, expected);
        try (InputStream in = IntegerProductProbeTest.class.getResourceAsStream(RESOURCE)) {
            assertNotNull(in, "serving lacks " + RESOURCE + ": copy model/" + fresh + " to serving/src/main/resources" + RESOURCE);
            assertArrayEquals(expected, in.readAllBytes(), "serving's probe differs from the one written here: copy model/" + fresh
                    + " to serving/src/main/resources" + RESOURCE);
        }
    }
}
