package org.langid.jobs.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.langid.model.io.HadoopFiles;
import org.langid.model.predict.LanguageDetector;
import org.langid.serving.LinePredictions;
import org.langid.serving.TextDetector;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "predict", mixinStandardHelpOptions = true,
        description = "Detect the language of each UTF-8 line of stdin (or --input) and write one line per input line: "
                + "<language>\\t<confidence>\\t<input> (tsv), or a JSON object with every language's probability (json). "
                + "Lines with nothing the model reads as language (no letters, or letters mostly of scripts its alphabet lacks) "
                + "get 'und' with confidence 0.")
public final class PredictCommand implements Callable<Integer> {

    @Mixin
    DetectorOptions detectorOptions;

    @Option(names = {"-i", "--input"}, paramLabel = "FILE", description = "Read this file (local, hdfs://, s3a://; .gz decompressed) instead of stdin.")
    String input;

    @Option(names = "--format", defaultValue = "tsv", description = "tsv or json. Default: ${DEFAULT-VALUE}.")
    String format;

    @Option(names = "--languages", split = ",", paramLabel = "LANG",
            description = "Answer from these of the model's languages only (e.g. en,de), their probabilities renormalised over them. "
                    + "Default: all of them.")
    List<String> languages;

    @Option(names = "--confidence-floor", paramLabel = "P",
            description = "Answer und for a line whose combined probability is below P, instead of the floor the model's manifest names "
                    + "(0: never). Default: the manifest's (none: 0).")
    Double confidenceFloor;

    @Option(names = "--threads", paramLabel = "N",
            description = "Model calls side by side, each on one thread. Default: the machine's cores.")
    Integer threads;

    @Override
    public Integer call() throws IOException {
        LinePredictions.Format chosen = LinePredictions.Format.of(format);
        Configuration conf = new Configuration();
        LanguageDetector detector = detectorOptions.load(conf, threads != null ? threads : Runtime.getRuntime().availableProcessors());
        LinePredictions.Counts counts;
        try (InputStream in = input == null ? System.in : HadoopFiles.open(input, conf)) {
            TextDetector answering = languages == null ? detector.textDetector() : detector.restrictedTo(languages);
            if (confidenceFloor != null) {
                answering = answering.withConfidenceFloor(confidenceFloor);
            }
            counts = LinePredictions.write(in, System.out, answering::detectAll, chosen);
        }
        if (counts.undecodableNotice() != null) {
            System.err.println(counts.undecodableNotice());
        }
        return 0;
    }
}
