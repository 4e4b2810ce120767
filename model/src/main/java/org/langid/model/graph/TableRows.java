package org.langid.model.graph;

import java.nio.FloatBuffer;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Reads and writes chosen rows of a (rows, width) table held by ND4J (the n-gram table, its
 * gradient and moments; the Spark rounds' changed rows), in Java. ND4J's {@code scatterUpdate}
 * did the same for the ~20,000 rows a minibatch of 256 selects and took 30% of a training step's
 * main thread with a million-row table (JFR; bench/EXPERIMENTS.md, "Training speed: the step"); these loops touch only those
 * rows. FLOAT tables, the trainers' type, go through an NIO view of the table's buffer; other
 * types (the finite-difference tests' DOUBLE) through ND4J's element accessors. Values are the
 * table's type throughout, so results equal the ND4J ops they replace bit for bit (TableRowsTest).
 */
public final class TableRows {

    private TableRows() {
    }

    /** table[rows[i], :] = values[i·width .. (i+1)·width), each value rounded to the table's type. */
    public static void assign(INDArray table, int[] rows, double[] values) {
        int width = checkedWidth(table, rows, values.length);
        Floats floats = Floats.of(table);
        for (int i = 0; i < rows.length; i++) {
            for (int j = 0; j < width; j++) {
                floats.put(table, rows[i], j, width, values[i * width + j]);
            }
        }
        HostMemory.written(table);
    }

    /** table[rows[i], :] = values[i·width .. (i+1)·width) (the Spark rounds' packed rows). */
    public static void assign(INDArray table, int[] rows, float[] values) {
        int width = checkedWidth(table, rows, values.length);
        Floats floats = Floats.of(table);
        if (floats.buffer != null) {   // a row at a time (a round moves up to a few hundred thousand rows)
            for (int i = 0; i < rows.length; i++) {
                floats.buffer.put(floats.base + rows[i] * width, values, i * width, width);
            }
            HostMemory.written(table);
            return;
        }
        for (int i = 0; i < rows.length; i++) {
            for (int j = 0; j < width; j++) {
                floats.put(table, rows[i], j, width, values[i * width + j]);
            }
        }
    }

    /** (rows.length, width) row-major copy of table[rows, :], as doubles. */
    public static double[] gather(INDArray table, int[] rows) {
        int width = checkedWidth(table, rows, -1);
        Floats floats = Floats.of(table);
        double[] values = new double[rows.length * width];
        if (floats.buffer != null) {   // a row at a time: one bulk read per row
            float[] row = new float[width];
            for (int i = 0; i < rows.length; i++) {
                floats.buffer.get(floats.base + rows[i] * width, row, 0, width);
                for (int j = 0; j < width; j++) {
                    values[i * width + j] = row[j];
                }
            }
            return values;
        }
        for (int i = 0; i < rows.length; i++) {
            for (int j = 0; j < width; j++) {
                values[i * width + j] = floats.get(table, rows[i], j, width);
            }
        }
        return values;
    }

    /** (rows.length, width) row-major copy of table[rows, :], as floats (rounded when the table is DOUBLE). */
    public static float[] gatherFloats(INDArray table, int[] rows) {
        Floats floats = Floats.of(table);
        if (floats.buffer != null) {
            int width = checkedWidth(table, rows, -1);
            float[] values = new float[rows.length * width];
            for (int i = 0; i < rows.length; i++) {
                floats.buffer.get(floats.base + rows[i] * width, values, i * width, width);
            }
            return values;
        }
        double[] values = gather(table, rows);
        float[] narrowed = new float[values.length];
        for (int i = 0; i < values.length; i++) {
            narrowed[i] = (float) values[i];
        }
        return narrowed;
    }

    /** values[offset ..] = table[first .. first + count, :], row-major (a Spark round's whole table). */
    public static void read(INDArray table, int first, int count, float[] values, int offset) {
        int width = checkedSpan(table, first, count, values.length - offset);
        Floats floats = Floats.of(table);
        if (floats.buffer != null) {
            floats.buffer.get(floats.base + first * width, values, offset, count * width);
            return;
        }
        for (int i = 0; i < count * width; i++) {
            values[offset + i] = (float) floats.get(table, first + i / width, i % width, width);
        }
    }

    /** table[first .. first + count, :] = values[offset ..], row-major, each value rounded to the table's type. */
    public static void write(INDArray table, int first, int count, float[] values, int offset) {
        int width = checkedSpan(table, first, count, values.length - offset);
        Floats floats = Floats.of(table);
        if (floats.buffer != null) {
            floats.buffer.put(floats.base + first * width, values, offset, count * width);
            HostMemory.written(table);
            return;
        }
        for (int i = 0; i < count * width; i++) {
            floats.put(table, first + i / width, i % width, width, values[offset + i]);
        }
    }

    /**
     * Plain SGD on the chosen rows: table[rows[i], :] −= rate · gradients[i·width ..], in the
     * table's type: each gradient rounded to it, the product rounded, then the difference (what
     * ND4J's cast, muli and subi gave). The gradients are the compact (rows, width) ones, so only
     * the table's rows are visited at random: a million-row gradient table would double the
     * cache misses.
     */
    public static void sgd(INDArray table, int[] rows, double[] gradients, double rate) {
        int width = checkedWidth(table, rows, gradients.length);
        Floats floats = Floats.of(table);
        float r = (float) rate;
        if (floats.buffer != null) {   // a row at a time: read, step, write back
            float[] row = new float[width];
            for (int i = 0; i < rows.length; i++) {
                int at = floats.base + rows[i] * width;
                floats.buffer.get(at, row, 0, width);
                for (int j = 0; j < width; j++) {
                    row[j] -= (float) gradients[i * width + j] * r;
                }
                floats.buffer.put(at, row, 0, width);
            }
            HostMemory.written(table);
            return;
        }
        for (int i = 0; i < rows.length; i++) {   // other types, through ND4J's accessors
            for (int j = 0; j < width; j++) {
                floats.put(table, rows[i], j, width, table.getDouble(rows[i], j) - gradients[i * width + j] * rate);
            }
        }
    }

    /**
     * A FLOAT table's NIO view (the whole underlying buffer, positioned at the table's first
     * value), or none for other types, whose elements go through ND4J's accessors.
     */
    private record Floats(FloatBuffer buffer, int base) {

        static Floats of(INDArray table) {
            if (table.dataType() != DataType.FLOAT) {
                return new Floats(null, 0);
            }
            FloatBuffer buffer = table.data().asNioFloat();
            return new Floats(buffer, buffer.position());
        }

        double get(INDArray table, int row, int column, int width) {
            return buffer != null ? buffer.get(base + row * width + column) : table.getDouble(row, column);
        }

        void put(INDArray table, int row, int column, int width, double value) {
            if (buffer != null) {
                buffer.put(base + row * width + column, (float) value);
            } else {
                table.putScalar(row, column, value);
            }
        }
    }

    /** The width of a contiguous row-major table, after checking rows first .. first + count and room for them in {@code room} values. */
    private static int checkedSpan(INDArray table, int first, int count, int room) {
        int width = checkedWidth(table, new int[0], -1);
        if (first < 0 || count < 0 || first + (long) count > table.size(0)) {
            throw new IndexOutOfBoundsException("rows " + first + " .. " + (first + (long) count) + " of a table of " + table.size(0));
        }
        if ((long) count * width > room) {
            throw new IllegalArgumentException(count + " rows of " + width + " do not fit in " + room + " values");
        }
        return width;
    }

    /** The width of a contiguous row-major (rows, width) table; checks the rows and the values' length (-1: none). */
    private static int checkedWidth(INDArray table, int[] rows, int valuesLength) {
        if (table.rank() != 2 || table.ordering() != 'c' || table.stride(1) != 1 || table.stride(0) != table.size(1)) {
            throw new IllegalArgumentException("not a contiguous row-major table: shape "
                    + java.util.Arrays.toString(table.shape()) + ", strides " + java.util.Arrays.toString(table.stride()));
        }
        int width = (int) table.size(1);
        if (valuesLength >= 0 && valuesLength != rows.length * width) {
            throw new IllegalArgumentException(valuesLength + " values for " + rows.length + " rows of " + width);
        }
        long size = table.size(0);
        for (int row : rows) {
            if (row < 0 || row >= size) {
                throw new IndexOutOfBoundsException("row " + row + " of a table of " + size);
            }
        }
        return width;
    }
}
