package org.langid.model.train;

import org.nd4j.linalg.factory.Nd4j;

/**
 * How many threads ND4J's native ops may use in this JVM. One by default: on the 2-core
 * machine the figures were measured on, libnd4j's own threading made a 1M-element add 25 times
 * slower (8 ms against 0.3 ms) and training 1.7 times slower, and the Spark trainer runs one
 * single-threaded worker per core instead.
 */
public final class NativeThreads {

    private NativeThreads() {
    }

    public static void limit(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("native threads must be at least 1, got " + threads);
        }
        Nd4j.getEnvironment().setMaxThreads(threads);
        Nd4j.getEnvironment().setMaxMasterThreads(threads);
    }
}
