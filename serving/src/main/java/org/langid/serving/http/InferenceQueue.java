package org.langid.serving.http;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.langid.serving.Detection;
import org.langid.serving.TextDetector;

/**
 * A fixed pool of inference threads in front of a detector, fed by a bounded queue. Concurrent
 * requests are batched: a thread takes the oldest waiting request and every other one waiting,
 * until the batch holds {@code maxBatchTexts} texts, and runs them through the model in one call (one call of 64
 * sentences costs little more than one of a single sentence). A full queue refuses new requests
 * at once ({@link #submit} returns null) instead of letting them, and memory, pile up.
 */
final class InferenceQueue implements AutoCloseable {

    /** One request's texts, the model it runs on, and where its answer goes. */
    private record Job(TextDetector detector, List<String> texts, CompletableFuture<List<Detection>> result) {
    }

    private final BlockingQueue<Job> waiting;
    private final int maxBatchTexts;
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean closed;

    /**
     * @param threads       inference threads (about one per core: each call runs on its own thread)
     * @param capacity      requests that may wait; beyond it {@link #submit} refuses
     * @param maxBatchTexts most texts one model call combines
     */
    InferenceQueue(int threads, int capacity, int maxBatchTexts) {
        this.waiting = new ArrayBlockingQueue<>(capacity);
        this.maxBatchTexts = maxBatchTexts;
        for (int i = 0; i < threads; i++) {
            Thread thread = new Thread(this::work, "langid-inference-" + (i + 1));
            thread.setDaemon(true);
            thread.start();
            this.threads.add(thread);
        }
    }

    /** The detections of {@code texts}, later; null when the queue is full (the caller answers 503). */
    CompletableFuture<List<Detection>> submit(TextDetector detector, List<String> texts) {
        CompletableFuture<List<Detection>> result = new CompletableFuture<>();
        return waiting.offer(new Job(detector, texts, result)) ? result : null;
    }

    private void work() {
        List<Job> batch = new ArrayList<>();
        while (!closed) {
            try {
                Job first = waiting.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                int texts = first.texts().size();
                // Whatever else waits joins, until the batch holds maxBatchTexts (the last job may take it past).
                for (Job next; texts < maxBatchTexts && (next = waiting.poll()) != null; ) {
                    batch.add(next);
                    texts += next.texts().size();
                }
                run(batch, texts);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } finally {
                batch.clear();
            }
        }
    }

    private void run(List<Job> batch, int texts) {
        TextDetector detector = batch.get(0).detector();
        List<String> all = new ArrayList<>(texts);
        for (Job job : batch) {
            if (job.detector() == detector) {
                all.addAll(job.texts());
            }
        }
        try {
            List<Detection> detections = detector.detectAll(all);
            int from = 0;
            for (Job job : batch) {
                if (job.detector() != detector) {   // queued before a model reload: run on its own model
                    job.result().complete(job.detector().detectAll(job.texts()));
                    continue;
                }
                job.result().complete(detections.subList(from, from + job.texts().size()));
                from += job.texts().size();
            }
        } catch (RuntimeException e) {
            for (Job job : batch) {
                job.result().completeExceptionally(e);
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        threads.forEach(Thread::interrupt);
        for (Job job; (job = waiting.poll()) != null; ) {
            job.result().completeExceptionally(new IllegalStateException("the server is shutting down"));
        }
    }
}
