package org.langid.model.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** The arena's float arrays start at cache lines, are plain dense arrays to ND4J and the replay, and keep their memory. */
class StepArenaTest {

    // the step's shapes at batch 1024 and odd ones, down to a single float
    private static final long[][] SHAPES = {{1024, 16, 64}, {1024, 4, 16, 16}, {1024, 16}, {37, 5}, {3}, {1}};

    @Test
    void floatArraysStartAtACacheLineAndAreDenseArraysOfTheirOwn() {
        try (StepArena arena = new StepArena()) {
            for (int round = 0; round < 8; round++) {
                for (long[] shape : SHAPES) {
                    INDArray array = arena.allocate(false, DataType.FLOAT, shape);
                    assertEquals(0, array.data().addressPointer().address() % 64, "start of " + array.shapeInfoToString());
                    assertArrayEquals(shape, array.shape());
                    assertTrue(org.langid.model.train.kernels.VectorKernels.denseFloats(array), "the replay's kernels may read it as plain floats: " + array.shapeInfoToString());
                }
            }
        }
    }

    @Test
    void nativeOpsAndTheBufferSeeTheSameValues() {
        try (StepArena arena = new StepArena()) {
            INDArray x = arena.allocate(false, DataType.FLOAT, 37, 5);
            INDArray z = arena.allocate(false, DataType.FLOAT, 37, 5);
            for (int i = 0; i < 185; i++) {
                x.putScalar(i, i + 1);
            }
            Nd4j.exec(new org.nd4j.linalg.api.ops.impl.transforms.pairwise.arithmetic.AddOp(x, x, z));
            FloatBuffer values = z.data().asNioFloat();
            assertEquals(185, values.limit());
            for (int i = 0; i < 185; i++) {
                assertEquals(2f * (i + 1), values.get(i));
            }
            assertEquals(z.sumNumber().doubleValue(), 185 * 186, 1e-3);
        }
    }

    @Test
    void aRecycledArrayIsHandedOutAgainForItsShape() {
        try (StepArena arena = new StepArena()) {
            INDArray first = arena.allocate(false, DataType.FLOAT, 1024, 16);
            arena.recycle();
            assertSame(first, arena.allocate(false, DataType.FLOAT, 1024, 16));
        }
    }

    @Test
    void anArraysMemoryOutlivesCollectionsWhileTheArrayIsHeld() {
        try (StepArena arena = new StepArena()) {
            INDArray held = arena.allocate(false, DataType.FLOAT, 4096);
            held.assign(7f);
            for (int i = 0; i < 5; i++) {
                System.gc();
                List<INDArray> others = new ArrayList<>();   // fresh native memory, which would reuse a freed block
                for (int j = 0; j < 50; j++) {
                    others.add(Nd4j.valueArrayOf(new long[] {4096}, -1f, DataType.FLOAT));
                }
                others.forEach(INDArray::close);
            }
            assertEquals(7f * 4096, held.sumNumber().floatValue());
        }
    }

    @Test
    void placedParametersHaveTheGivenElementAtALineAndTheSameValues() {
        for (long element : new long[] {0, 1, 5, 15, 16, 49_993}) {
            INDArray parameters = Nd4j.rand(DataType.FLOAT, 60_000);
            float[] values = parameters.toFloatVector();
            TrainingState state = TrainingState.start(parameters);
            state.placeParameters(element);
            assertTrue(org.langid.model.graph.AlignedFloats.startsALine(state.parameters, element), "element " + element);
            assertTrue(org.langid.model.train.kernels.VectorKernels.denseFloats(state.parameters));
            assertArrayEquals(values, state.parameters.toFloatVector());
            INDArray placed = state.parameters;
            state.placeParameters(element);
            assertSame(placed, state.parameters, "placed once");
        }
    }

    @Test
    void arenaMemoryIsLibnd4jsAndDoesNotCountAgainstJavaCppsLimit() {
        // JavaCPP refuses allocations past its maxBytes (by default the heap's size): a training's
        // step arrays exceed that, and CI's test JVM once died of it.
        try (StepArena arena = new StepArena()) {
            long before = org.bytedeco.javacpp.Pointer.totalBytes();
            INDArray large = arena.allocate(false, DataType.FLOAT, 4096, 4096);   // 64 MB
            large.assign(1f);
            assertTrue(org.bytedeco.javacpp.Pointer.totalBytes() - before < 1 << 20,
                    "JavaCPP counted " + (org.bytedeco.javacpp.Pointer.totalBytes() - before) + " bytes");
            assertEquals(4096L * 4096, large.sumNumber().longValue());
        }
    }

    @Test
    void otherTypesAreHandedOutAsBefore() {
        try (StepArena arena = new StepArena()) {
            INDArray ints = arena.allocate(false, DataType.INT, 3, 4);
            assertEquals(DataType.INT, ints.dataType());
            assertArrayEquals(new long[] {3, 4}, ints.shape());
        }
    }
}
