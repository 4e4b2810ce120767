package org.langid.model.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class EarlyStoppingTest {

    @Test
    void stopsAfterPatienceEpochsWithoutARealImprovement() {
        EarlyStopping stopping = new EarlyStopping(2, 0.001);
        assertFalse(stopping.shouldStop(0.80));
        assertFalse(stopping.shouldStop(0.85));
        assertFalse(stopping.shouldStop(0.8505), "first epoch without a real improvement (0.0005 < 0.001)");
        assertTrue(stopping.shouldStop(0.84), "second: patience 2 is used up");
        assertEquals(0.85, stopping.best());
    }

    @Test
    void anImprovementResetsThePatienceAndZeroPatienceNeverStops() {
        EarlyStopping stopping = new EarlyStopping(2, 0);
        assertFalse(stopping.shouldStop(0.5));
        assertFalse(stopping.shouldStop(0.4));
        assertFalse(stopping.shouldStop(0.6));
        assertFalse(stopping.shouldStop(0.6));
        assertTrue(stopping.shouldStop(0.6));
        EarlyStopping never = new EarlyStopping(0, 0);
        for (int i = 0; i < 10; i++) {
            assertFalse(never.shouldStop(0.5));
        }
    }
}
