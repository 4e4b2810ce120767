package org.langid.jobs.evaluate;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Work over the items [0, n) in chunks, on a few threads: how the candidates spread detection over cores. */
final class Chunks {

    /** Does the work on the items [from, to). */
    interface Work {
        void run(int from, int to);
    }

    private Chunks() {
    }

    /** Runs {@code work} over [0, n) in chunks of at most {@code chunk}, {@code threads} chunks at a time; rethrows the first failure. */
    static void run(int n, int chunk, int threads, Work work) {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> tasks = new ArrayList<>();
            for (int from = 0; from < n; from += chunk) {
                int start = from;
                int end = Math.min(n, from + chunk);
                tasks.add(pool.submit(() -> work.run(start, end)));
            }
            for (Future<?> task : tasks) {
                task.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while detecting", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } finally {
            pool.shutdown();
        }
    }
}
