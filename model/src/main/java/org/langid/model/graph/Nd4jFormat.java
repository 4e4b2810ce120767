package org.langid.model.graph;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.nd4j.linalg.api.buffer.DataBuffer;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.shape.options.ArrayOptionsHelper;
import org.nd4j.linalg.compression.CompressedDataBuffer;
import org.nd4j.linalg.exception.ND4JUnknownDataTypeException;
import org.nd4j.linalg.factory.Nd4j;

/**
 * {@code Nd4j.write}'s and {@code Nd4j.read}'s binary format, with FLOAT and DOUBLE values moved
 * in bulk. ND4J 1.0.0-M2.1 writes and reads that format one value at a time through its typed
 * accessors: a pipeline model's training state (203 MB) took ~1.1 s to write and ~2 s to read,
 * for every checkpoint, {@code export} and {@code --resume}. The bytes are the same as ND4J's
 * ({@code Nd4jFormatTest}), so states written before still read, and state.bin hashes stay.
 *
 * <p>An array is its shape information buffer, then its data buffer; each buffer is the
 * allocation mode's name (modified UTF-8), its length (a long; an int for the legacy modes),
 * its type's name, then its values, big-endian.
 */
public final class Nd4jFormat {

    /** Bytes moved per copy between the native buffer and the stream. */
    static final int CHUNK = 1 << 16;

    private Nd4jFormat() {
    }

    /** Writes {@code array} as {@code Nd4j.write(array, out)} does. */
    public static void write(INDArray array, DataOutputStream out) throws IOException {
        write(array, out, CHUNK);
    }

    static void write(INDArray array, DataOutputStream out, int chunk) throws IOException {
        INDArray dense = array.isView() ? array.dup() : array;   // as Nd4j.write: a view's own values only
        dense.shapeInfoDataBuffer().write(out);
        DataBuffer data = dense.data();
        if (!inBulk(data.allocationMode(), data.length(), data.dataType())) {
            data.write(out);
            return;
        }
        out.writeUTF(data.allocationMode().name());
        out.writeLong(data.length());
        out.writeUTF(data.dataType().name());
        ByteBuffer values = data.asNio().order(ByteOrder.nativeOrder());
        values.limit(values.position() + Math.toIntExact(data.length() * data.getElementSize()));
        ByteBuffer bigEndian = ByteBuffer.allocate(chunk).order(ByteOrder.BIG_ENDIAN);
        while (values.hasRemaining()) {
            bigEndian.clear();
            int bytes = Math.min(chunk, values.remaining());
            copy(values, bigEndian, data.dataType(), bytes);
            out.write(bigEndian.array(), 0, bytes);
        }
    }

    /** Reads an array as {@code Nd4j.read(in)} does. */
    public static INDArray read(DataInputStream in) throws IOException {
        return read(in, CHUNK);
    }

    static INDArray read(DataInputStream in, int chunk) throws IOException {
        try {
            return readArray(in, chunk);
        } catch (EOFException e) {
            throw new EOFException("it ends before its array does: truncated, or not ND4J's format");
        }
    }

    private static INDArray readArray(DataInputStream in, int chunk) throws IOException {
        Header shapeHeader = Header.read(in);
        DataBuffer shapeInformation = Nd4j.createBufferDetached(new long[] {shapeHeader.length}, shapeHeader.type);
        shapeInformation.read(in, shapeHeader.mode, shapeHeader.length, shapeHeader.type);

        Header dataHeader = Header.read(in);
        DataBuffer data;
        if (inBulk(dataHeader.mode, dataHeader.length, dataHeader.type)) {
            data = Nd4j.createBuffer(dataHeader.type, dataHeader.length, false);
            ByteBuffer values = data.asNio().order(ByteOrder.nativeOrder());
            values.limit(values.position() + Math.toIntExact(dataHeader.length * data.getElementSize()));
            ByteBuffer bigEndian = ByteBuffer.allocate(chunk).order(ByteOrder.BIG_ENDIAN);
            while (values.hasRemaining()) {
                int bytes = Math.min(chunk, values.remaining());
                in.readFully(bigEndian.array(), 0, bytes);
                bigEndian.clear().limit(bytes);
                copy(bigEndian, values, dataHeader.type, bytes);
            }
            HostMemory.written(data);
        } else {
            data = CompressedDataBuffer.readUnknown(in, dataHeader.mode, dataHeader.length, dataHeader.type);
        }
        try {
            ArrayOptionsHelper.dataType(shapeInformation.asLong());
        } catch (ND4JUnknownDataTypeException e) {
            // written before the type went into the shape's extras: as Nd4j.read, take the data's
            shapeInformation.put(shapeInformation.length() - 3, ArrayOptionsHelper.setOptionBit(0L, dataHeader.type));
        }
        return Nd4j.createArrayFromShapeBuffer(data, shapeInformation);
    }

    /** FLOAT and DOUBLE buffers in today's allocation modes, addressable as one NIO buffer. */
    private static boolean inBulk(DataBuffer.AllocationMode mode, long length, DataType type) {
        return (type == DataType.FLOAT || type == DataType.DOUBLE) && mode.ordinal() >= 3
                && length * type.width() <= Integer.MAX_VALUE;
    }

    /** Copies {@code bytes} bytes of values from {@code from} to {@code to}, each in its buffer's byte order. */
    private static void copy(ByteBuffer from, ByteBuffer to, DataType type, int bytes) {
        ByteBuffer source = from.slice().order(from.order()).limit(bytes);
        ByteBuffer target = to.slice().order(to.order());
        if (type == DataType.FLOAT) {
            target.asFloatBuffer().put(source.asFloatBuffer());
        } else {
            target.asDoubleBuffer().put(source.asDoubleBuffer());
        }
        from.position(from.position() + bytes);
        to.position(to.position() + bytes);
    }

    private record Header(DataBuffer.AllocationMode mode, long length, DataType type) {
        static Header read(DataInputStream in) throws IOException {
            DataBuffer.AllocationMode mode;
            DataType type;
            long length;
            try {
                mode = DataBuffer.AllocationMode.valueOf(in.readUTF());
                length = mode.ordinal() < 3 ? in.readInt() : in.readLong();
                type = DataType.valueOf(in.readUTF());
            } catch (IllegalArgumentException e) {
                throw new IOException("not an ND4J array: " + e.getMessage());
            }
            if (length < 0) {
                throw new IOException("not an ND4J array: length " + length);
            }
            return new Header(mode, length, type);
        }
    }
}
