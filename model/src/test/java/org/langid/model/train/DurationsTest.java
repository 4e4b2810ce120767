package org.langid.model.train;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DurationsTest {

    @Test
    void secondsMinutesAndHoursAsAProgressLineShowsThem() {
        assertEquals("45s", Durations.format(44.6));
        assertEquals("2m13s", Durations.format(133));
        assertEquals("1h02m", Durations.format(3725));
        assertEquals("?", Durations.format(Double.NaN));
    }

    @Test
    void theTimeLeftAtTheRateSoFar() {
        assertEquals("1m30s", Durations.eta(30, 100, 400), "100 of 400 steps in 30 s: 300 more take 90 s");
        assertEquals("?", Durations.eta(5, 0, 400), "no step yet: no rate");
        assertEquals("0s", Durations.eta(30, 400, 400));
    }
}
