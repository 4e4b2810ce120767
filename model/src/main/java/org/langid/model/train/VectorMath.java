package org.langid.model.train;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;

/**
 * The arithmetic of {@link VectorKernels} on the JDK's vector API: many small matrix products at
 * once, {@code C[p] = op(A[p]) · op(B[p])} for every p of a batch, row-major blocks packed one
 * after another (the attention's (B, H, T, T) and (B, H, T, d) products).
 * Loaded only when the {@code jdk.incubator.vector} module is present.
 */
final class VectorMath {

    private static final VectorSpecies<Float> SPECIES = FloatVector.SPECIES_PREFERRED;

    private VectorMath() {
    }

    /** Lanes of the widest float vector this CPU runs (16 with AVX-512, 8 with AVX2). */
    static int lanes() {
        return SPECIES.length();
    }

    /**
     * For each of {@code batch} blocks: C (m, n) = op(A) (m, k) · op(B) (k, n), where A is stored
     * (k, m) if {@code transposeA} and (m, k) otherwise, B (n, k) if {@code transposeB} and (k, n)
     * otherwise. {@code rows}: scratch of at least k·n floats.
     */
    static void multiply(float[] a, boolean transposeA, float[] b, boolean transposeB, float[] c,
                         int batch, int m, int k, int n, float[] rows) {
        int lanes = SPECIES.length();
        for (int p = 0; p < batch; p++) {
            int aBlock = p * m * k;
            int bBlock = p * k * n;
            int cBlock = p * m * n;
            // op(B) as k rows of n, so that each step of the sum adds one scaled row.
            float[] bRows = b;
            int bRowsBlock = bBlock;
            if (transposeB) {
                for (int j = 0; j < n; j++) {
                    for (int kk = 0; kk < k; kk++) {
                        rows[kk * n + j] = b[bBlock + j * k + kk];
                    }
                }
                bRows = rows;
                bRowsBlock = 0;
            }
            for (int j0 = 0; j0 < n; j0 += lanes) {
                VectorMask<Float> inRange = SPECIES.indexInRange(j0, n);
                int i = 0;
                // Four rows at a time: four independent chains of fused multiply-adds.
                for (; i + 4 <= m; i += 4) {
                    FloatVector c0 = FloatVector.zero(SPECIES);
                    FloatVector c1 = c0;
                    FloatVector c2 = c0;
                    FloatVector c3 = c0;
                    for (int kk = 0; kk < k; kk++) {
                        FloatVector row = FloatVector.fromArray(SPECIES, bRows, bRowsBlock + kk * n + j0, inRange);
                        c0 = row.fma(FloatVector.broadcast(SPECIES, a[index(aBlock, transposeA, i, kk, m, k)]), c0);
                        c1 = row.fma(FloatVector.broadcast(SPECIES, a[index(aBlock, transposeA, i + 1, kk, m, k)]), c1);
                        c2 = row.fma(FloatVector.broadcast(SPECIES, a[index(aBlock, transposeA, i + 2, kk, m, k)]), c2);
                        c3 = row.fma(FloatVector.broadcast(SPECIES, a[index(aBlock, transposeA, i + 3, kk, m, k)]), c3);
                    }
                    c0.intoArray(c, cBlock + i * n + j0, inRange);
                    c1.intoArray(c, cBlock + (i + 1) * n + j0, inRange);
                    c2.intoArray(c, cBlock + (i + 2) * n + j0, inRange);
                    c3.intoArray(c, cBlock + (i + 3) * n + j0, inRange);
                }
                for (; i < m; i++) {
                    FloatVector c0 = FloatVector.zero(SPECIES);
                    for (int kk = 0; kk < k; kk++) {
                        c0 = FloatVector.fromArray(SPECIES, bRows, bRowsBlock + kk * n + j0, inRange)
                                .fma(FloatVector.broadcast(SPECIES, a[index(aBlock, transposeA, i, kk, m, k)]), c0);
                    }
                    c0.intoArray(c, cBlock + i * n + j0, inRange);
                }
            }
        }
    }

    /** Where op(A)[i, kk] is in {@code a}. */
    private static int index(int block, boolean transposed, int i, int kk, int m, int k) {
        return transposed ? block + kk * m + i : block + i * k + kk;
    }
}
