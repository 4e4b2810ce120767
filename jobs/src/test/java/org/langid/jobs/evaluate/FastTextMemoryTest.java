package org.langid.jobs.evaluate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** fastText's prediction processes are bounded by memory, not only by threads. */
class FastTextMemoryTest {

    private static final long MB = 1L << 20;
    private static final long GB = 1L << 30;

    @Test
    void aLargeModelGetsOnlyTheProcessesThatMemoryHolds() {
        // The full corpus's model: 1.6 GB on disk, ~6.7 GB resident per process. With 10 GB free,
        // two processes would be killed; one fits.
        assertEquals(1, FastTextCandidate.predictProcesses(2, 1600 * MB, 10 * GB));
        assertEquals(2, FastTextCandidate.predictProcesses(2, 1600 * MB, 20 * GB));
        // Too little memory for even one still runs one (it may fit; there is no other way to score).
        assertEquals(1, FastTextCandidate.predictProcesses(4, 1600 * MB, 1 * GB));
    }

    @Test
    void aSmallModelGetsOneProcessPerThreadAndUnknownMemoryChangesNothing() {
        assertEquals(8, FastTextCandidate.predictProcesses(8, 400 * MB, 24 * GB));
        assertEquals(2, FastTextCandidate.predictProcesses(2, 1600 * MB, 0));
        assertEquals(2, FastTextCandidate.predictProcesses(2, 0, 10 * GB));
    }
}
