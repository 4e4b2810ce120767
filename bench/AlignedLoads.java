// What a cache-line-straddling vector load costs here: y = 1.0001·y + x over N floats with the
// preferred vector species, once with both arrays starting a 64-byte line and once 16 bytes past
// one (where ND4J's 16-byte-aligned native buffers start three times in four). bench/PROFILE.md,
// "Memory on cache lines".
//   java --add-modules jdk.incubator.vector bench/AlignedLoads.java N   (N: 4096 fits L1, 65536 L2, 1048576 neither)
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

public class AlignedLoads {

    private static final VectorSpecies<Float> SPECIES = FloatVector.SPECIES_PREFERRED;
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    /** y = 1.0001·y + x: two streams read, one written. */
    static float axpy(ByteBuffer x, ByteBuffer y, int n) {
        FloatVector a = FloatVector.broadcast(SPECIES, 1.0001f);
        for (int i = 0; i < n * 4; i += SPECIES.length() * 4) {
            FloatVector xv = FloatVector.fromByteBuffer(SPECIES, x, i, NATIVE);
            FloatVector yv = FloatVector.fromByteBuffer(SPECIES, y, i, NATIVE);
            yv.fma(a, xv).intoByteBuffer(y, i, NATIVE);
        }
        return y.getFloat(0);
    }

    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        ByteBuffer first = ByteBuffer.allocateDirect(n * 4 + 256);
        ByteBuffer second = ByteBuffer.allocateDirect(n * 4 + 256);
        ByteBuffer xAligned = first.alignedSlice(64).slice(0, n * 4).order(NATIVE);
        ByteBuffer yAligned = second.alignedSlice(64).slice(0, n * 4).order(NATIVE);
        ByteBuffer xOff = first.alignedSlice(64).slice(16, n * 4).order(NATIVE);
        ByteBuffer yOff = second.alignedSlice(64).slice(16, n * 4).order(NATIVE);
        long reps = Math.max(1, 400_000_000L / n);
        float sink = 0;
        for (int round = 0; round < 6; round++) {   // the first rounds warm the JIT up: read the last ones
            long t0 = System.nanoTime();
            for (long r = 0; r < reps; r++) {
                sink += axpy(xAligned, yAligned, n);
            }
            long t1 = System.nanoTime();
            for (long r = 0; r < reps; r++) {
                sink += axpy(xOff, yOff, n);
            }
            long t2 = System.nanoTime();
            System.out.printf("n=%d  on a line %.3f ns/float  16 bytes past one %.3f ns/float  ratio %.2f%n", n,
                    (t1 - t0) / (double) (reps * n), (t2 - t1) / (double) (reps * n), (t2 - t1) / (double) (t1 - t0));
        }
        if (sink == 42) {
            System.out.println();
        }
    }
}
