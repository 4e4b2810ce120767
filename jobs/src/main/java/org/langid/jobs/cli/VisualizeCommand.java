package org.langid.jobs.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.langid.jobs.report.AttentionPage;
import org.langid.model.predict.LanguageDetector;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "visualize", mixinStandardHelpOptions = true,
        description = "Write a self-contained HTML page showing, for each layer and head, which characters attend to which "
                + "(a head view), the per-window language probabilities and the combined prediction for --text.")
public final class VisualizeCommand implements Callable<Integer> {

    @Mixin
    DetectorOptions detectorOptions;

    @Option(names = {"-t", "--text"}, required = true, description = "The text to look at.")
    String text;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", defaultValue = "attention.html",
            description = "Where to write the page. Default: ${DEFAULT-VALUE}.")
    Path output;

    @Option(names = "--max-windows", paramLabel = "N", defaultValue = "24",
            description = "Windows shown (each adds ~100 KB of attention weights to the page). Default: ${DEFAULT-VALUE}.")
    int maxWindows;

    @Override
    public Integer call() throws Exception {
        LanguageDetector detector = detectorOptions.load(new Configuration());
        LanguageDetector.Analysis analysis = detector.analyse(text, maxWindows);
        if (analysis.windows().isEmpty()) {
            throw new IllegalArgumentException("the text has nothing to classify after normalisation (no Latin letters, digits or "
                    + "punctuation), so there is no attention to show");
        }
        List<String> languages = detector.languages();
        double[] combined = languages.stream()
                .mapToDouble(l -> analysis.detection().probabilities().getOrDefault(l, 0.0)).toArray();
        List<AttentionPage.Window> windows = analysis.windows().stream()
                .map(w -> new AttentionPage.Window(w.start(), w.characters(), w.attention(), w.probabilities()))
                .toList();
        String page = AttentionPage.render(text, analysis.normalised(), languages, windows, detector.manifest().modelVersion(), combined);
        Files.writeString(output, page, StandardCharsets.UTF_8);
        System.out.printf("%s (%.1f%%); %d windows shown; page: %s%n", analysis.detection().language(),
                100 * analysis.detection().confidence(), windows.size(), output.toAbsolutePath());
        return 0;
    }
}
