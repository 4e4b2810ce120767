package org.langid.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class WindowsTest {

    @Test
    void strideOneGivesNMinusFifteenWindowsOfSixteen() {
        for (int n = 0; n < 200; n++) {
            int expected = Math.max(0, n - 15);
            assertEquals(expected, Windows.count(n, 16, 1), "n=" + n);
            assertEquals(expected, Windows.cut("x".repeat(n), 16, 1).size(), "n=" + n);
        }
    }

    @Test
    void windowsAreTheSeedsSlices() {
        String sentence = "abcdefghijklmnopqrst"; // 20 characters: 5 windows
        List<String> windows = Windows.cut(sentence, 16, 1);
        assertEquals(List.of("abcdefghijklmnop", "bcdefghijklmnopq", "cdefghijklmnopqr", "defghijklmnopqrs", "efghijklmnopqrst"), windows);
    }

    @Test
    void largerStridesSkipAndNeverRunPastTheEnd() {
        assertEquals(List.of("abcd", "efgh"), Windows.cut("abcdefghij", 4, 4));
        assertEquals(List.of("abcd", "cdef", "efgh", "ghij"), Windows.cut("abcdefghij", 4, 2));
        assertEquals(3, Windows.count(10, 4, 3));
    }

    @Test
    void refusesNonsenseShapes() {
        assertThrows(IllegalArgumentException.class, () -> Windows.count(10, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> Windows.count(10, 16, 0));
    }
}
