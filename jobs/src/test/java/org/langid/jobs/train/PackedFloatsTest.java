package org.langid.jobs.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PackedFloatsTest {

    private static byte[] serialize(Object value) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        }
        return bytes.toByteArray();
    }

    private static Object deserialize(byte[] bytes) throws IOException, ClassNotFoundException {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
            return in.readObject();
        }
    }

    @Test
    void everyValueSurvivesSerializationBitForBit() throws Exception {
        // Lengths around the 2^18-float block: empty, one, a partial block, exactly one, one more.
        for (int length : new int[] {0, 1, 1000, 1 << 18, (1 << 18) + 1, 3 * (1 << 18) - 7}) {
            float[] values = new float[length];
            Random random = new Random(length);
            for (int i = 0; i < length; i++) {
                values[i] = (float) random.nextGaussian();
            }
            if (length > 4) {
                values[0] = Float.NaN;
                values[1] = Float.NEGATIVE_INFINITY;
                values[2] = -0.0f;
                values[3] = Float.MIN_VALUE;
            }
            PackedFloats back = (PackedFloats) deserialize(serialize(new PackedFloats(values)));
            int[] expected = new int[length];
            int[] actual = new int[length];
            for (int i = 0; i < length; i++) {
                expected[i] = Float.floatToRawIntBits(values[i]);
                actual[i] = Float.floatToRawIntBits(back.values()[i]);
            }
            assertArrayEquals(expected, actual, "length " + length);
        }
    }
}
