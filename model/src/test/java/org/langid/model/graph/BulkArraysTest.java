package org.langid.model.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;

class BulkArraysTest {

    private static double[] randomDoubles(int n, long seed) {
        Random random = new Random(seed);
        double[] values = new double[n];
        for (int i = 0; i < n; i++) {
            values[i] = random.nextGaussian() * Math.pow(10, random.nextInt(7) - 3);
        }
        return values;
    }

    @Test
    void floatsHoldWhatNd4jsOwnCopyHolds() {
        double[] doubles = randomDoubles(1_001, 1);
        float[] floats = new float[doubles.length];
        for (int i = 0; i < floats.length; i++) {
            floats[i] = (float) doubles[i] * 3;
        }
        INDArray fromFloats = BulkArrays.floats(floats);
        assertEquals(DataType.FLOAT, fromFloats.dataType());
        assertArrayEquals(new long[] {floats.length}, fromFloats.shape());
        assertArrayEquals(Nd4j.createFromArray(floats).toFloatVector(), fromFloats.toFloatVector(), 0f);

        INDArray fromDoubles = BulkArrays.floats(doubles);
        assertEquals(DataType.FLOAT, fromDoubles.dataType());
        assertArrayEquals(Nd4j.createFromArray(doubles).castTo(DataType.FLOAT).toFloatVector(), fromDoubles.toFloatVector(), 0f,
                "rounded as ND4J's cast rounds");
        assertEquals(0, BulkArrays.floats(new float[0]).length());
        assertEquals(0, BulkArrays.floats(new double[0]).length());
    }

    @Test
    void doublesReadArraysViewsAndOtherOrdersInCOrder() {
        INDArray matrix = BulkArrays.floats(randomDoubles(12 * 7, 2)).reshape(12, 7);
        assertArrayEquals(matrix.dup('c').data().asDouble(), BulkArrays.doubles(matrix), 0);
        INDArray view = matrix.get(NDArrayIndex.interval(3, 9), NDArrayIndex.all());                 // offset into the buffer
        assertArrayEquals(view.dup('c').data().asDouble(), BulkArrays.doubles(view), 0);
        INDArray fortran = matrix.dup('f');
        assertArrayEquals(matrix.dup('c').data().asDouble(), BulkArrays.doubles(fortran), 0);
        INDArray transposed = matrix.transpose();
        assertArrayEquals(transposed.dup('c').data().asDouble(), BulkArrays.doubles(transposed), 0);
        INDArray doubles = Nd4j.createFromArray(randomDoubles(10, 3));
        assertArrayEquals(doubles.data().asDouble(), BulkArrays.doubles(doubles), 0);
    }

    /** What the Spark rounds send and receive: the state's values as toFloatVector() gives them. */
    @Test
    void floatValuesReadArraysViewsAndOtherOrdersInCOrder() {
        INDArray flat = BulkArrays.floats(randomDoubles(1_000, 4));
        assertArrayEquals(flat.toFloatVector(), BulkArrays.floatValues(flat), 0f);
        INDArray slice = flat.get(NDArrayIndex.interval(137, 811));                                   // a round's dense part
        assertArrayEquals(slice.toFloatVector(), BulkArrays.floatValues(slice), 0f);
        INDArray matrix = flat.get(NDArrayIndex.interval(100, 184)).reshape(12, 7);
        assertArrayEquals(matrix.dup('c').data().asFloat(), BulkArrays.floatValues(matrix), 0f);
        INDArray rows = matrix.get(NDArrayIndex.interval(3, 9), NDArrayIndex.all());
        assertArrayEquals(rows.dup('c').data().asFloat(), BulkArrays.floatValues(rows), 0f);
        INDArray columns = matrix.get(NDArrayIndex.all(), NDArrayIndex.interval(2, 5));                 // strided: copied first
        assertArrayEquals(columns.dup('c').data().asFloat(), BulkArrays.floatValues(columns), 0f);
        assertArrayEquals(matrix.dup('c').data().asFloat(), BulkArrays.floatValues(matrix.dup('f')), 0f);
        INDArray doubles = Nd4j.createFromArray(randomDoubles(10, 5));
        assertArrayEquals(doubles.toFloatVector(), BulkArrays.floatValues(doubles), 0f);
        assertEquals(0, BulkArrays.floatValues(Nd4j.create(DataType.FLOAT, 0)).length);
    }
}
