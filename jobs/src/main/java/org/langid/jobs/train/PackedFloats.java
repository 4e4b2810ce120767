package org.langid.jobs.train;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serial;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.langid.model.graph.BulkArrays;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A float vector that Java serialization writes as blocks of little-endian bytes. Spark
 * serializes every round's broadcast state and every worker's result; ObjectOutputStream writes a
 * {@code float[]} one element at a time, several times slower than bytes at a training state's
 * tens of MB (a 65,536-bucket n-gram table: 50 MB of parameters and moments per worker a round).
 */
final class PackedFloats implements Serializable {

    @Serial
    private static final long serialVersionUID = 1L;
    /** Floats per block: a 1 MiB buffer, not a second copy of the whole vector. */
    private static final int BLOCK = 1 << 18;

    static final PackedFloats EMPTY = new PackedFloats(new float[0]);

    private transient float[] values;

    PackedFloats(float[] values) {
        this.values = values;
    }

    /** {@code array}'s values in C order, read in bulk ({@link BulkArrays#floatValues}). */
    static PackedFloats of(INDArray array) {
        return new PackedFloats(BulkArrays.floatValues(array));
    }

    /** The values themselves, not a copy. */
    float[] values() {
        return values;
    }

    int length() {
        return values.length;
    }

    /** Serialized size, about: 4 bytes a float; 0 for null. */
    static long bytes(PackedFloats floats) {
        return floats == null ? 0 : 4L * floats.values.length;
    }

    /** Element-wise a + b, as a new vector (the sums of parameter averaging). */
    static PackedFloats sum(PackedFloats a, PackedFloats b) {
        float[] sum = a.values.clone();
        float[] other = b.values;
        for (int i = 0; i < sum.length; i++) {
            sum[i] += other[i];
        }
        return new PackedFloats(sum);
    }

    @Serial
    private void writeObject(ObjectOutputStream out) throws IOException {
        out.defaultWriteObject();
        out.writeInt(values.length);
        byte[] block = new byte[4 * Math.min(BLOCK, values.length)];
        ByteBuffer bytes = ByteBuffer.wrap(block).order(ByteOrder.LITTLE_ENDIAN);
        for (int from = 0; from < values.length; from += BLOCK) {
            int n = Math.min(BLOCK, values.length - from);
            bytes.clear();
            bytes.asFloatBuffer().put(values, from, n);
            out.write(block, 0, 4 * n);
        }
    }

    @Serial
    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        int length = in.readInt();
        if (length < 0) {
            throw new IOException("a packed float vector of negative length " + length);
        }
        values = new float[length];
        byte[] block = new byte[4 * Math.min(BLOCK, length)];
        ByteBuffer bytes = ByteBuffer.wrap(block).order(ByteOrder.LITTLE_ENDIAN);
        for (int from = 0; from < length; from += BLOCK) {
            int n = Math.min(BLOCK, length - from);
            in.readFully(block, 0, 4 * n);
            bytes.clear();
            bytes.asFloatBuffer().get(values, from, n);
        }
    }
}
