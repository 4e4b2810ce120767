package org.langid.model.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.impl.scatter.ScatterUpdate;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;

/**
 * The row loops that replaced ND4J's pullRows/scatterUpdate for the n-gram table give the same
 * bits as those ops, on a table that is a view in the middle of a flat parameter vector (as the
 * layout makes it), in float and double.
 */
class TableRowsTest {

    private static final int BUCKETS = 50;
    private static final int WIDTH = 6;
    private static final int[] ROWS = {0, 7, 49, 13, 2};

    /** A (BUCKETS, WIDTH) view starting at an offset inside a longer random vector. */
    private static INDArray tableIn(INDArray flat) {
        return flat.get(NDArrayIndex.interval(11, 11 + BUCKETS * WIDTH)).reshape('c', BUCKETS, WIDTH);
    }

    private static INDArray flat(DataType type, long seed) {
        Nd4j.getRandom().setSeed(seed);
        return Nd4j.randn(type, 11 + BUCKETS * WIDTH + 5);
    }

    @Test
    void sgdEqualsNd4jsCastMultiplyAndSubtractBitForBit() {
        for (DataType type : new DataType[] {DataType.FLOAT, DataType.DOUBLE}) {
            INDArray ours = flat(type, 1);
            INDArray theirs = ours.dup();
            double[] rowGradients = flat(DataType.DOUBLE, 2).get(NDArrayIndex.interval(0, ROWS.length * WIDTH)).muli(1e-3).toDoubleVector();
            double rate = 0.37 * 10;

            TableRows.sgd(tableIn(ours), ROWS, rowGradients, rate);
            // What the step did with ND4J's ops: the row gradients scattered into a table-sized
            // gradient in the table's type, then pulled, multiplied, subtracted and scattered back.
            INDArray table = tableIn(theirs);
            INDArray gradient = Nd4j.zeros(type, BUCKETS, WIDTH);
            Nd4j.scatterUpdate(ScatterUpdate.UpdateOp.ASSIGN, gradient, Nd4j.createFromArray(ROWS),
                    Nd4j.createFromArray(rowGradients).reshape(ROWS.length, WIDTH).castTo(type), 1);
            INDArray stepped = Nd4j.pullRows(table, 1, ROWS).subi(Nd4j.pullRows(gradient, 1, ROWS).muli(rate));
            Nd4j.scatterUpdate(ScatterUpdate.UpdateOp.ASSIGN, table, Nd4j.createFromArray(ROWS), stepped, 1);

            assertArrayEquals(theirs.toDoubleVector(), ours.toDoubleVector(), 0.0, type.toString());
        }
    }

    @Test
    void assignWritesOnlyTheRowsAndGatherReadsThemBack() {
        for (DataType type : new DataType[] {DataType.FLOAT, DataType.DOUBLE}) {
            INDArray ours = flat(type, 3);
            INDArray theirs = ours.dup();
            double[] values = flat(DataType.DOUBLE, 4).get(NDArrayIndex.interval(0, ROWS.length * WIDTH)).toDoubleVector();

            TableRows.assign(tableIn(ours), ROWS, values);
            Nd4j.scatterUpdate(ScatterUpdate.UpdateOp.ASSIGN, tableIn(theirs), Nd4j.createFromArray(ROWS),
                    Nd4j.createFromArray(values).reshape(ROWS.length, WIDTH).castTo(type), 1);

            assertArrayEquals(theirs.toDoubleVector(), ours.toDoubleVector(), 0.0, type.toString());
            assertArrayEquals(Nd4j.pullRows(tableIn(ours), 1, ROWS).data().asDouble(), TableRows.gather(tableIn(ours), ROWS), 0.0);
        }
    }

    @Test
    void aSpanOfRowsIsReadAndWrittenInPlaceOnlyWithinTheTablesView() {
        for (DataType type : new DataType[] {DataType.FLOAT, DataType.DOUBLE}) {
            INDArray ours = flat(type, 8);
            INDArray theirs = ours.dup();
            float[] values = flat(DataType.FLOAT, 9).get(NDArrayIndex.interval(0, 3 + 4 * WIDTH)).toFloatVector();

            TableRows.write(tableIn(ours), 46, 4, values, 3);   // the table's last four rows, from values[3]
            tableIn(theirs).get(NDArrayIndex.interval(46, 50), NDArrayIndex.all())
                    .assign(Nd4j.createFromArray(java.util.Arrays.copyOfRange(values, 3, values.length)).reshape(4, WIDTH).castTo(type));
            assertArrayEquals(theirs.toDoubleVector(), ours.toDoubleVector(), 0.0, type + ": the rest of the flat vector untouched");

            float[] read = new float[2 + 5 * WIDTH];
            TableRows.read(tableIn(ours), 0, 5, read, 2);
            assertArrayEquals(tableIn(ours).get(NDArrayIndex.interval(0, 5), NDArrayIndex.all()).castTo(DataType.FLOAT).dup().reshape(5 * WIDTH).toFloatVector(),
                    java.util.Arrays.copyOfRange(read, 2, read.length), 0f, type + ": the table's first rows, not the vector's");
            assertThrows(IndexOutOfBoundsException.class, () -> TableRows.read(tableIn(ours), 47, 4, new float[4 * WIDTH], 0));
            assertThrows(IllegalArgumentException.class, () -> TableRows.write(tableIn(ours), 0, 4, new float[4 * WIDTH], 1));
        }
    }

    @Test
    void floatRowsAsTheSparkRoundsPackThem() {
        INDArray ours = flat(DataType.FLOAT, 6);
        INDArray theirs = ours.dup();
        float[] values = flat(DataType.FLOAT, 7).get(NDArrayIndex.interval(0, ROWS.length * WIDTH)).toFloatVector();

        TableRows.assign(tableIn(ours), ROWS, values);
        Nd4j.scatterUpdate(ScatterUpdate.UpdateOp.ASSIGN, tableIn(theirs), Nd4j.createFromArray(ROWS),
                Nd4j.createFromArray(values).reshape(ROWS.length, WIDTH), 1);

        assertArrayEquals(theirs.toFloatVector(), ours.toFloatVector(), 0f);
        assertArrayEquals(values, TableRows.gatherFloats(tableIn(ours), ROWS), 0f);
        assertEquals(0, TableRows.gatherFloats(tableIn(ours), new int[0]).length);
    }

    @Test
    void refusesRowsOutsideTheTableAndTablesThatAreNotRowMajor() {
        INDArray table = tableIn(flat(DataType.FLOAT, 5));
        IndexOutOfBoundsException outside = assertThrows(IndexOutOfBoundsException.class,
                () -> TableRows.gather(table, new int[] {BUCKETS}));
        assertEquals("row 50 of a table of 50", outside.getMessage());
        assertThrows(IllegalArgumentException.class, () -> TableRows.gather(table.transpose(), new int[] {0}));
        assertThrows(IllegalArgumentException.class, () -> TableRows.assign(table, new int[] {0}, new double[WIDTH + 1]));
    }
}
