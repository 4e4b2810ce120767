package org.langid.model.train;

import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Reads and writes chosen rows of a (rows, width) table held by ND4J (the n-gram table, its
 * gradient and moments; the Spark rounds' changed rows), in Java on the table's own buffer (an
 * NIO view of the whole underlying buffer, positioned at the table's first value). ND4J's
 * {@code scatterUpdate} did the same for the ~20,000 rows a minibatch of 256 selects and took 30%
 * of a training step's main thread with a million-row table (JFR, bench/PROFILE.md); these loops
 * touch only those rows.
 * Values are the table's data type throughout, so results equal the ND4J ops they replace bit
 * for bit (TableRowsTest).
 */
public final class TableRows {

    private TableRows() {
    }

    /** table[rows[i], :] = values[i·width .. (i+1)·width), each value rounded to the table's type. */
    public static void assign(INDArray table, int[] rows, double[] values) {
        int width = checkedWidth(table, rows, values.length);
        if (table.dataType() == DataType.FLOAT) {
            FloatBuffer out = table.data().asNioFloat();
            int base = out.position();
            for (int i = 0; i < rows.length; i++) {
                int at = base + rows[i] * width;
                int from = i * width;
                for (int j = 0; j < width; j++) {
                    out.put(at + j, (float) values[from + j]);
                }
            }
        } else {
            DoubleBuffer out = table.data().asNioDouble();
            int base = out.position();
            for (int i = 0; i < rows.length; i++) {
                int at = base + rows[i] * width;
                int from = i * width;
                for (int j = 0; j < width; j++) {
                    out.put(at + j, values[from + j]);
                }
            }
        }
    }

    /** table[rows[i], :] = values[i·width .. (i+1)·width) of a FLOAT table (the Spark rounds' packed rows). */
    public static void assign(INDArray table, int[] rows, float[] values) {
        int width = checkedWidth(table, rows, values.length);
        if (table.dataType() != DataType.FLOAT) {
            double[] widened = new double[values.length];
            for (int i = 0; i < values.length; i++) {
                widened[i] = values[i];
            }
            assign(table, rows, widened);
            return;
        }
        FloatBuffer out = table.data().asNioFloat();
            int base = out.position();
        for (int i = 0; i < rows.length; i++) {
            int at = base + rows[i] * width;
            int from = i * width;
            for (int j = 0; j < width; j++) {
                out.put(at + j, values[from + j]);
            }
        }
    }

    /** (rows.length, width) row-major copy of table[rows, :], as floats (rounded when the table is DOUBLE). */
    public static float[] gatherFloats(INDArray table, int[] rows) {
        int width = checkedWidth(table, rows, -1);
        float[] values = new float[rows.length * width];
        if (table.dataType() == DataType.FLOAT) {
            FloatBuffer in = table.data().asNioFloat();
            int base = in.position();
            for (int i = 0; i < rows.length; i++) {
                int at = base + rows[i] * width;
                for (int j = 0; j < width; j++) {
                    values[i * width + j] = in.get(at + j);
                }
            }
        } else {
            double[] wide = gather(table, rows);
            for (int i = 0; i < wide.length; i++) {
                values[i] = (float) wide[i];
            }
        }
        return values;
    }

    /** (rows.length, width) row-major copy of table[rows, :], as doubles. */
    public static double[] gather(INDArray table, int[] rows) {
        int width = checkedWidth(table, rows, -1);
        double[] values = new double[rows.length * width];
        if (table.dataType() == DataType.FLOAT) {
            FloatBuffer in = table.data().asNioFloat();
            int base = in.position();
            for (int i = 0; i < rows.length; i++) {
                int at = base + rows[i] * width;
                for (int j = 0; j < width; j++) {
                    values[i * width + j] = in.get(at + j);
                }
            }
        } else {
            DoubleBuffer in = table.data().asNioDouble();
            int base = in.position();
            for (int i = 0; i < rows.length; i++) {
                int at = base + rows[i] * width;
                for (int j = 0; j < width; j++) {
                    values[i * width + j] = in.get(at + j);
                }
            }
        }
        return values;
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
        if (table.dataType() == DataType.FLOAT) {
            FloatBuffer values = table.data().asNioFloat();
            int base = values.position();
            float r = (float) rate;
            for (int i = 0; i < rows.length; i++) {
                int at = base + rows[i] * width;
                int from = i * width;
                for (int j = 0; j < width; j++) {
                    float step = (float) gradients[from + j] * r;
                    values.put(at + j, values.get(at + j) - step);
                }
            }
        } else {
            DoubleBuffer values = table.data().asNioDouble();
            int base = values.position();
            for (int i = 0; i < rows.length; i++) {
                int at = base + rows[i] * width;
                int from = i * width;
                for (int j = 0; j < width; j++) {
                    double step = gradients[from + j] * rate;
                    values.put(at + j, values.get(at + j) - step);
                }
            }
        }
    }

    /** The width of a contiguous row-major (rows, width) FLOAT or DOUBLE table; checks rows and the values' length (-1: none). */
    private static int checkedWidth(INDArray table, int[] rows, int valuesLength) {
        if (table.rank() != 2 || table.ordering() != 'c' || table.stride(1) != 1 || table.stride(0) != table.size(1)) {
            throw new IllegalArgumentException("not a contiguous row-major table: shape "
                    + java.util.Arrays.toString(table.shape()) + ", strides " + java.util.Arrays.toString(table.stride()));
        }
        if (table.length() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a table of " + table.length() + " values is beyond NIO's int indices");
        }
        if (table.dataType() != DataType.FLOAT && table.dataType() != DataType.DOUBLE) {
            throw new IllegalArgumentException("table of " + table.dataType() + ": FLOAT or DOUBLE expected");
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
