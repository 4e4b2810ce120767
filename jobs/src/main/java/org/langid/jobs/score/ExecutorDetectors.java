package org.langid.jobs.score;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.langid.model.artefact.ModelArtefact;
import org.langid.model.predict.LanguageDetector;

/**
 * One {@link LanguageDetector} per JVM and model: tasks of an executor (and, in local mode, the
 * driver) share it instead of loading the artefact per task. A detector may hold native memory
 * and is thread-safe, so sharing is both cheaper and safe.
 */
public final class ExecutorDetectors {

    /** What makes two detectors different: the artefact directory (never a registry) and how text is cut into windows. */
    public record Key(String artefactLocation, int stride, int maxWindowsPerText, int windowBatch, boolean foldCapitals)
            implements java.io.Serializable {
    }

    private static final Map<Key, LanguageDetector> DETECTORS = new ConcurrentHashMap<>();

    private ExecutorDetectors() {
    }

    /** The detector for {@code key}, loaded (and checked against its manifest) on first use in this JVM. */
    public static LanguageDetector get(Key key, Configuration conf) {
        return DETECTORS.computeIfAbsent(key, k -> new LanguageDetector(ModelArtefact.load(k.artefactLocation(), conf),
                // One graph copy per core: as many tasks as cores call it at once.
                new LanguageDetector.Options(k.stride(), k.maxWindowsPerText(), k.windowBatch(),
                        Runtime.getRuntime().availableProcessors(), k.foldCapitals())));
    }
}
