package org.langid.serving;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LinePredictionsTest {

    @Test
    void confidenceIsWrittenAsFormatWouldWriteIt() {
        // predict's output must not change with the faster formatter: the ends, halfway cases, floats.
        double[] edges = {0.0, 1.0, 0.5, 0.00005, 0.99995, 0.12345, 0.99994999, 1e-9, 0.1, 0.3};
        for (double value : edges) {
            assertEquals(String.format(Locale.ROOT, "%.4f", value), LinePredictions.fourDecimals(value), "value " + value);
        }
        SplittableRandom random = new SplittableRandom(20261123);
        for (int i = 0; i < 200_000; i++) {
            double value = switch (i % 3) {
                case 0 -> random.nextDouble();
                case 1 -> (random.nextInt(100_000) + 0.5) / 100_000.0;   // exactly halfway between two outputs, as written
                default -> (float) random.nextDouble();
            };
            assertEquals(String.format(Locale.ROOT, "%.4f", value), LinePredictions.fourDecimals(value), "value " + value);
        }
    }
}
