package org.langid.model.graph;

import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.javacpp.indexer.FloatIndexer;
import org.nd4j.linalg.api.buffer.DataBuffer;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.shape.Shape;
import org.nd4j.linalg.factory.Nd4j;

/**
 * FLOAT arrays placed on cache lines. ND4J's native buffers are only 16-byte aligned, so three
 * arrays in four begin mid-line: every 64-byte vector load of a kernel that streams them then
 * straddles two lines (1.2–1.5× slower on bench/EXPERIMENTS.md, "Training speed: the step"), and a table of
 * 16-float rows has every row on two lines instead of one. The arrays are plain dense arrays to
 * ND4J (no view, no offset) over native memory a few floats into a slightly longer allocation.
 */
public final class AlignedFloats {

    /** Bytes. */
    public static final int CACHE_LINE = 64;
    private static final int FLOATS_PER_LINE = CACHE_LINE / Float.BYTES;

    private AlignedFloats() {
    }

    /**
     * Uninitialised, {@code shape} in {@code order}, its first element at the start of a cache line
     * (on the CPU backend; elsewhere a plain array: a device array has no host line to start).
     */
    public static INDArray create(long[] shape, char order) {
        if (!HostMemory.cpuBackend()) {
            return Nd4j.createUninitialized(DataType.FLOAT, shape, order);
        }
        return Nd4j.create(buffer(Shape.lengthOf(shape), 0), shape, Nd4j.getStrides(shape, order), 0, order);
    }

    /** Uninitialised, rank 1, element {@code lineStart} (0 ≤ it < length) at the start of a cache line (CPU backend; as {@link #create}). */
    public static INDArray vector(long length, long lineStart) {
        if (!HostMemory.cpuBackend()) {
            return Nd4j.createUninitialized(DataType.FLOAT, length);
        }
        return Nd4j.create(buffer(length, lineStart), new long[] {length}, new long[] {1}, 0, 'c');
    }

    /** Whether element {@code element} of {@code array}'s buffer starts a cache line. */
    public static boolean startsALine(INDArray array, long element) {
        return (array.data().addressPointer().address() + element * array.dataType().width()) % CACHE_LINE == 0;
    }

    private static DataBuffer buffer(long length, long lineStart) {
        if (length <= 0 || lineStart < 0 || (lineStart > 0 && lineStart >= length)) {
            throw new IllegalArgumentException("an aligned array of " + length + " floats, line at element " + lineStart);
        }
        Memory memory = new Memory(Nd4j.createBuffer(DataType.FLOAT, length + FLOATS_PER_LINE, false), length, lineStart);
        return Nd4j.createBuffer(memory, DataType.FLOAT, length, FloatIndexer.create(memory));
    }

    /**
     * {@code length} floats inside an ND4J buffer of one line more, which this pointer holds so
     * that it lives as long as the pointer (and the buffer over it) is reachable. The memory is
     * libnd4j's, like any array's: a JavaCPP allocation would count against JavaCPP's own limit
     * (by default the heap's size), and a training's step arrays exceed it.
     */
    private static final class Memory extends FloatPointer {
        @SuppressWarnings({"unused", "FieldCanBeLocal"})   // held, never read: it owns the memory
        private final DataBuffer allocation;

        Memory(DataBuffer allocation, long length, long lineStart) {
            super((org.bytedeco.javacpp.Pointer) null);
            this.allocation = allocation;
            long start = allocation.addressPointer().address();
            long past = (start + lineStart * Float.BYTES) % CACHE_LINE;   // where the element would be at no shift
            this.address = start + (past == 0 ? 0 : CACHE_LINE - past);
            this.position = 0;
            this.limit = length;
            this.capacity = length;
        }
    }
}
