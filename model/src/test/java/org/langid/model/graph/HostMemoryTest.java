package org.langid.model.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataBuffer;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.concurrency.AffinityManager;
import org.nd4j.linalg.api.concurrency.BasicAffinityManager;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;

/**
 * On CUDA a write through host memory that ND4J is not told of is lost to the GPU's next op.
 * No GPU runs here, so this checks the logic: every bulk write path tells ND4J's affinity manager
 * (the CPU backend's does nothing with it; CUDA's marks the host copy newer) about what it wrote.
 */
class HostMemoryTest {

    /** Records what it is told, as CUDA's manager would act on it. */
    private static final class Recording extends BasicAffinityManager {
        final List<Object> hostWrites = new ArrayList<>();

        @Override
        public void tagLocation(INDArray array, Location location) {
            if (location == Location.HOST) {
                hostWrites.add(array.data());
            }
        }

        @Override
        public void tagLocation(DataBuffer buffer, Location location) {
            if (location == Location.HOST) {
                hostWrites.add(buffer);
            }
        }

        @Override
        public void touch(INDArray array) {
        }

        @Override
        public void touch(DataBuffer buffer) {
        }
    }

    private Field managerField;
    private AffinityManager backendManager;
    private Recording recording;

    @BeforeEach
    void installRecordingManager() throws Exception {
        managerField = Nd4j.class.getDeclaredField("affinityManager");
        managerField.setAccessible(true);
        backendManager = Nd4j.getAffinityManager();
        recording = new Recording();
        managerField.set(null, recording);
    }

    @AfterEach
    void restoreBackendManager() throws Exception {
        managerField.set(null, backendManager);
    }

    /** The buffer that owns the memory (a view's buffer wraps its array's; CUDA keeps one allocation point for both). */
    private static DataBuffer owner(DataBuffer buffer) {
        DataBuffer original = buffer.originalDataBuffer();
        return original == null || original == buffer ? buffer : owner(original);
    }

    private boolean toldOf(INDArray array) {
        return recording.hostWrites.stream().anyMatch(d -> owner((DataBuffer) d) == owner(array.data()));
    }

    @Test
    void bulkArraysTellWhatTheyFilled() {
        INDArray fromFloats = BulkArrays.floats(new float[] {1, 2, 3});
        assertTrue(toldOf(fromFloats), "floats(float[])");
        INDArray fromDoubles = BulkArrays.floats(new double[] {1, 2, 3});
        assertTrue(toldOf(fromDoubles), "floats(double[])");
    }

    @Test
    void tableRowsTellWhatTheyChanged() {
        INDArray flat = Nd4j.zeros(DataType.FLOAT, 7 + 6 * 4);
        INDArray table = flat.get(NDArrayIndex.interval(7, 7 + 6 * 4)).reshape(6, 4);   // the table inside the parameters
        int[] rows = {4, 1};

        TableRows.assign(table, rows, new float[] {1, 2, 3, 4, 5, 6, 7, 8});
        assertTrue(toldOf(table), "assign(float[])");
        recording.hostWrites.clear();
        TableRows.assign(table, rows, new double[] {1, 2, 3, 4, 5, 6, 7, 8});
        assertTrue(toldOf(table), "assign(double[])");
        recording.hostWrites.clear();
        TableRows.write(table, 2, 2, new float[8], 0);
        assertTrue(toldOf(table), "write");
        recording.hostWrites.clear();
        TableRows.sgd(table, rows, new double[8], 0.5);
        assertTrue(toldOf(table), "sgd");
        assertTrue(toldOf(flat), "the parameters' buffer is the one marked");

        recording.hostWrites.clear();
        float[] read = new float[24];
        TableRows.read(table, 0, 6, read, 0);
        TableRows.gather(table, rows);
        assertEquals(List.of(), recording.hostWrites, "reads change nothing");
    }

    @Test
    void aStateReadInBulkTellsWhatItFilled() throws Exception {
        INDArray written = BulkArrays.floats(new float[] {0.5f, -2f, 3e-7f});
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        Nd4jFormat.write(written, out);
        out.flush();
        recording.hostWrites.clear();
        INDArray read = Nd4jFormat.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        assertTrue(toldOf(read));
        assertArrayEquals(written.toFloatVector(), read.toFloatVector(), 0f);
    }
}
