package org.langid.model.graph;

import java.nio.FloatBuffer;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.shape.Shape;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Java arrays into and out of ND4J FLOAT arrays in one pass over an NIO view. ND4J
 * 1.0.0-M2.1's {@code Nd4j.createFromArray} and {@code data().asDouble()} move one element at a
 * time through its typed accessors: a step's n-gram input at batch 1024 (262,144 values) and its
 * gradient cost milliseconds each way, and a training state's floats as many per round.
 */
public final class BulkArrays {

    private BulkArrays() {
    }

    /** A rank-1 FLOAT array holding {@code values}. */
    public static INDArray floats(float[] values) {
        if (values.length == 0) {
            return Nd4j.createFromArray(values);
        }
        INDArray array = Nd4j.createUninitialized(DataType.FLOAT, values.length);
        FloatBuffer buffer = array.data().asNioFloat();
        buffer.put(values);   // from its position: the array's first value
        HostMemory.written(array);
        return array;
    }

    /** A rank-1 FLOAT array holding {@code values}, each rounded to the nearest float (as ND4J's cast does). */
    public static INDArray floats(double[] values) {
        if (values.length == 0) {
            return Nd4j.createFromArray(values).castTo(DataType.FLOAT);
        }
        INDArray array = Nd4j.createUninitialized(DataType.FLOAT, values.length);
        FloatBuffer buffer = array.data().asNioFloat();
        int base = buffer.position();
        for (int i = 0; i < values.length; i++) {
            buffer.put(base + i, (float) values[i]);
        }
        HostMemory.written(array);
        return array;
    }

    /** A rank-1 array of type {@code type} holding {@code values}: FLOAT in one pass, other types through ND4J's cast. */
    public static INDArray of(double[] values, DataType type) {
        return type == DataType.FLOAT ? floats(values) : Nd4j.createFromArray(values).castTo(type);
    }

    /** A rank-1 array of type {@code type} holding {@code values}: FLOAT in one pass, other types through ND4J's cast. */
    public static INDArray of(float[] values, DataType type) {
        return type == DataType.FLOAT ? floats(values) : Nd4j.createFromArray(values).castTo(type);
    }

    /**
     * The values of an array in C order, as floats: a FLOAT array laid out in C order (a
     * contiguous view too) in one pass over its NIO view, anything else copied so first. What
     * {@code toFloatVector()} gives a vector, without its copy and its value-at-a-time read
     * (~1 s for a pipeline model's 50M floats of parameters and moments).
     */
    public static float[] floatValues(INDArray array) {
        if (array.length() == 0) {
            return new float[0];
        }
        if (array.dataType() != DataType.FLOAT) {
            return floatValues(array.castTo(DataType.FLOAT));
        }
        if (array.ordering() != 'c' || !Shape.hasDefaultStridesForShape(array)) {
            return floatValues(array.dup('c'));
        }
        FloatBuffer buffer = array.data().asNioFloat();   // positioned at the array's first value, views too
        float[] values = new float[Math.toIntExact(array.length())];
        buffer.get(values);
        return values;
    }

    /** The values of a FLOAT array in C order, as doubles (other types through ND4J). */
    public static double[] doubles(INDArray array) {
        if (array.dataType() != DataType.FLOAT) {
            return array.dup('c').data().asDouble();
        }
        INDArray dense = array.ordering() == 'c' && !array.isView() ? array : array.dup('c');
        FloatBuffer buffer = dense.data().asNioFloat();
        int base = buffer.position();
        double[] values = new double[Math.toIntExact(dense.length())];
        for (int i = 0; i < values.length; i++) {
            values[i] = buffer.get(base + i);
        }
        return values;
    }
}
