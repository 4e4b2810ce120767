package org.langid.jobs.train;

import java.io.Serializable;
import org.langid.model.train.LabelledWindows;

/**
 * One worker's training windows, cached on its executor in compact form: one char a symbol
 * (N, T) and one label a window, not one object a row.
 */
public record WorkerShard(int worker, char[] symbols, int[] labels, int windowLength) implements Serializable {

    /** A shard holding {@code windows}. */
    public static WorkerShard of(int worker, LabelledWindows windows) {
        return new WorkerShard(worker, windows.symbols(), windows.labels(), windows.windowLength());
    }

    public int size() {
        return labels.length;
    }

    LabelledWindows windows(java.util.List<String> languages) {
        return new LabelledWindows(symbols, labels, windowLength, languages);
    }
}
