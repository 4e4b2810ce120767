package org.langid.serving;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * What the int8 flavour relies on, on the CPU the suite runs on: ONNX Runtime's uint8 × int8
 * products are exact with 7-bit weights on every CPU, and exact with 8-bit weights exactly where
 * the CPU's flags say the kernels sum in int32 (VNNI).
 */
class IntegerKernelsTest {

    @Test
    void sevenBitWeightsGiveExactProductsOnThisCpu() {
        String kernels = IntegerKernels.instructionSet();
        System.out.println("integer kernels: " + kernels + "; 8-bit weights exact: " + IntegerKernels.exactWithWeightsUpTo(IntegerKernels.EIGHT_BIT));
        assertTrue(IntegerKernels.exactWithWeightsUpTo(IntegerKernels.EXACT_EVERYWHERE),
                "uint8 × int8 products with |w| ≤ 64 are not exact on " + kernels);
    }

    @Test
    void eightBitWeightsAreExactWhereTheKernelsSumInInt32() {
        String kernels = IntegerKernels.instructionSet();
        boolean exact = IntegerKernels.exactWithWeightsUpTo(IntegerKernels.EIGHT_BIT);
        if (kernels.contains("int32 sums")) {
            assertTrue(exact, "8-bit weights should be exact on " + kernels);
        } else if (kernels.contains("int16 pair sums")) {
            // 255 · 127 · 2 = 64,770 > 32,767: the probe's worst case saturates there.
            assertEquals(false, exact, "8-bit weights should saturate on " + kernels + ": the probe does not see it");
        }
    }

    @Test
    void weightMagnitudesOutsideInt8AreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> IntegerKernels.exactWithWeightsUpTo(129));
        assertEquals("int8 weights have magnitudes 1 to 128, not 129", e.getMessage());
    }
}
