package org.langid.jobs.evaluate;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.langid.jobs.train.TrainJob;
import org.langid.jobs.train.WindowsReader;
import org.langid.model.predict.LanguageDetector;
import org.langid.model.train.LabelledWindows;

/** fastText peers for an evaluation, trained on a prepare output's train split; what {@code evaluate} and {@code pipeline} share. */
public final class FastTextPeers {

    private FastTextPeers() {
    }

    /**
     * One trained candidate per settings; none, each recorded in {@code unavailable} and said in one
     * line on stderr, when there is no fastText binary.
     *
     * @param binary the fasttext binary given by the user, or null for the one on the PATH
     * @param cache where trained models are kept; null for {@link FastTextCandidate#defaultCache()}
     */
    public static List<FastTextCandidate> train(SparkSession spark, LanguageDetector detector, List<FastTextSettings> settings, String prepared,
                                        String binary, Path cache, int threads, List<EvaluateJob.Unavailable> unavailable) {
        List<FastTextCandidate> candidates = new ArrayList<>();
        if (settings.isEmpty()) {
            return candidates;
        }
        Optional<Path> fastText = FastTextCandidate.locate(binary);
        if (fastText.isEmpty()) {
            String reason = (binary != null ? binary + " is not an executable file" : "no fasttext on the PATH")
                    + " (Debian: apt-get install fasttext)";
            System.err.println("fastText: not evaluated: " + reason);
            settings.forEach(s -> unavailable.add(new EvaluateJob.Unavailable(s.name(), reason)));
            return candidates;
        }
        String trainingWindows = prepared + "/windows/split=train";
        LabelledWindows windows = WindowsReader.readPath(spark, trainingWindows, detector.languages(), detector.manifest().window(),
                detector.manifest().alphabet());
        if (windows.size() == 0) {
            throw new IllegalArgumentException(trainingWindows + " has no training windows of the model's languages");
        }
        String fingerprint = TrainJob.dataFingerprint(prepared, spark.sparkContext().hadoopConfiguration());
        for (FastTextSettings setting : settings) {
            candidates.add(FastTextCandidate.train(fastText.get(), setting, windows, detector.manifest().alphabet(), trainingWindows, fingerprint,
                    cache != null ? cache : FastTextCandidate.defaultCache(), threads));
        }
        return candidates;
    }
}
