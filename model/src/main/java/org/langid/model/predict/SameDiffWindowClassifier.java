package org.langid.model.predict;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.langid.model.artefact.ModelArtefact;
import org.langid.model.graph.LanguageIdGraph;
import org.langid.model.graph.NgramFilter;
import org.langid.model.train.StepArena;
import org.langid.serving.WindowClassifier;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The artefact's SameDiff graph as a {@link WindowClassifier}: the training truth, op by op.
 * Concurrent callers each borrow one of up to {@code concurrency} graph copies. Also gives the
 * attention weights, which the ONNX flavour does not export.
 */
final class SameDiffWindowClassifier implements WindowClassifier {

    private final ModelArtefact artefact;
    private final int window;
    private final org.langid.model.graph.ModelConfig config;
    private final int concurrency;
    private final BlockingQueue<PooledGraph> idleGraphs;
    private final AtomicInteger graphsCreated = new AtomicInteger();

    /**
     * A graph copy and the arena its sessions allocate from: batches of one shape then reuse
     * the previous batch's arrays instead of fresh native memory (see {@link StepArena}).
     */
    private record PooledGraph(SameDiff sd, StepArena arena, NgramFilter filter) {
        PooledGraph(SameDiff sd, org.langid.model.graph.ModelConfig config) {
            this(sd, new StepArena(), LanguageIdGraph.filter(config, sd));   // the filter read once, not per batch
        }
    }

    SameDiffWindowClassifier(ModelArtefact artefact, int concurrency) {
        this.artefact = artefact;
        this.window = artefact.manifest().window();
        this.config = artefact.manifest().modelConfig();
        this.concurrency = concurrency;
        this.idleGraphs = new ArrayBlockingQueue<>(concurrency);
        idleGraphs.add(new PooledGraph(artefact.newGraph(), config));   // fails here, at load, if the graph cannot be built
        graphsCreated.set(1);
    }

    @Override
    public float[] probabilities(int[] symbols, int rows) {
        int[] exact = symbols.length == rows * window ? symbols : java.util.Arrays.copyOf(symbols, rows * window);
        return run(exact, rows, List.of(LanguageIdGraph.PROBABILITIES)).get(LanguageIdGraph.PROBABILITIES).data().asFloat();
    }

    @Override
    public String engine() {
        return "samediff";
    }

    /** Runs the graph on (rows, T) symbols; the outputs are copies, in c order. */
    Map<String, INDArray> run(int[] symbols, int rows, List<String> outputs) {
        PooledGraph graph = borrow();
        try {
            Map<String, INDArray> feed = LanguageIdGraph.inputs(config, graph.sd(), graph.filter(), symbols, rows);   // windows (B, T) [, n-grams]
            Map<String, INDArray> results = graph.sd().output(feed, outputs.toArray(String[]::new));
            Map<String, INDArray> copies = new HashMap<>();
            results.forEach((name, array) -> copies.put(name, array.dup('c')));   // copied out before the arena recycles them
            graph.arena().recycle();
            graph.arena().install(graph.sd());   // the session exists after the first call on this thread
            return copies;
        } finally {
            idleGraphs.add(graph);
        }
    }

    private PooledGraph borrow() {
        PooledGraph graph = idleGraphs.poll();
        if (graph != null) {
            return graph;
        }
        if (graphsCreated.incrementAndGet() <= concurrency) {
            return new PooledGraph(artefact.newGraph(), config);
        }
        graphsCreated.decrementAndGet();
        try {
            return idleGraphs.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a free model graph", e);
        }
    }

    @Override
    public void close() {
        // graphs are garbage-collected with this object
    }
}
