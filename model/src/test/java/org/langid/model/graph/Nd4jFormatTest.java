package org.langid.model.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;

/** Checkpoints and exports rely on these bytes being ND4J's own: old states read, hashes hold. */
class Nd4jFormatTest {

    private static float[] awkwardFloats(int n, long seed) {
        Random random = new Random(seed);
        float[] values = new float[n];
        for (int i = 0; i < n; i++) {
            values[i] = (float) (random.nextGaussian() * Math.pow(10, random.nextInt(61) - 30));
        }
        float[] edges = {-0.0f, Float.MIN_VALUE, -Float.MAX_VALUE, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 1e-40f};
        System.arraycopy(edges, 0, values, 0, Math.min(n, edges.length));
        return values;
    }

    private static List<INDArray> arrays() {
        INDArray matrix = Nd4j.createFromArray(awkwardFloats(7 * 13, 2)).reshape(7, 13);
        INDArray aligned = AlignedFloats.vector(1_003, 5);
        aligned.assign(Nd4j.createFromArray(awkwardFloats(1_003, 3)));
        double[] doubles = new double[517];
        Random random = new Random(4);
        for (int i = 0; i < doubles.length; i++) {
            doubles[i] = random.nextGaussian() * 1e100 * random.nextDouble();
        }
        return List.of(
                Nd4j.createFromArray(awkwardFloats(10_001, 1)),             // several chunks, a tail
                matrix,                                                       // rank 2
                matrix.get(NDArrayIndex.interval(2, 5), NDArrayIndex.all()),  // a view: its own rows only
                aligned,                                                      // the trainer's cache-line placement
                Nd4j.createFromArray(doubles),                                // DOUBLE
                Nd4j.createFromArray(new int[] {3, -1, 7}),                   // other types: ND4J's own path
                Nd4j.createFromArray(new float[] {42f}));
    }

    private static byte[] nd4jBytes(INDArray array) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        Nd4j.write(array, out);
        out.flush();
        return bytes.toByteArray();
    }

    private static byte[] ourBytes(INDArray array, int chunk) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        Nd4jFormat.write(array, out, chunk);
        out.flush();
        return bytes.toByteArray();
    }

    @Test
    void writesTheBytesNd4jWrites() throws IOException {
        for (INDArray array : arrays()) {
            byte[] expected = nd4jBytes(array);
            assertArrayEquals(expected, ourBytes(array, Nd4jFormat.CHUNK), array.dataType() + " " + Arrays.toString(array.shape()));
            assertArrayEquals(expected, ourBytes(array, 24), "in chunks of 24 bytes: " + Arrays.toString(array.shape()));
        }
    }

    @Test
    void readsWhatNd4jWroteAsNd4jReadsIt() throws IOException {
        for (INDArray array : arrays()) {
            byte[] written = nd4jBytes(array);
            INDArray expected = Nd4j.read(new DataInputStream(new ByteArrayInputStream(written)));
            for (int chunk : new int[] {Nd4jFormat.CHUNK, 16}) {
                DataInputStream in = new DataInputStream(new ByteArrayInputStream(written));
                INDArray read = Nd4jFormat.read(in, chunk);
                assertEquals(-1, in.read(), "reads the array and nothing more");
                assertEquals(expected.dataType(), read.dataType());
                assertArrayEquals(expected.shape(), read.shape());
                assertEquals(expected.ordering(), read.ordering());
                assertArrayEquals(nd4jBytes(expected), nd4jBytes(read), "the same values, bit for bit: " + Arrays.toString(array.shape()));
            }
        }
    }

    @Test
    void aTruncatedOrForeignStreamIsAnIOException() throws IOException {
        byte[] written = nd4jBytes(Nd4j.createFromArray(awkwardFloats(1_000, 5)));
        IOException truncated = assertThrows(IOException.class,
                () -> Nd4jFormat.read(new DataInputStream(new ByteArrayInputStream(Arrays.copyOf(written, written.length - 10)))));
        assertEquals("it ends before its array does: truncated, or not ND4J's format", truncated.getMessage());
        byte[] zip = "PK\u0003\u0004 not an array at all".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        IOException fromZip = assertThrows(IOException.class, () -> Nd4jFormat.read(new DataInputStream(new ByteArrayInputStream(zip))));
        assertEquals(truncated.getMessage(), fromZip.getMessage(), "its first string's length runs past the end");
        ByteArrayOutputStream foreign = new ByteArrayOutputStream();
        new DataOutputStream(foreign).writeUTF("NOT_A_MODE");
        IOException notAnArray = assertThrows(IOException.class,
                () -> Nd4jFormat.read(new DataInputStream(new ByteArrayInputStream(foreign.toByteArray()))));
        assertTrue(notAnArray.getMessage().startsWith("not an ND4J array"), notAnArray.getMessage());
    }
}
