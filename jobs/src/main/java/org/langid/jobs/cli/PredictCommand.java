package org.langid.jobs.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.langid.model.io.HadoopFiles;
import org.langid.serving.Detection;
import org.langid.model.predict.LanguageDetector;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "predict", mixinStandardHelpOptions = true,
        description = "Detect the language of each UTF-8 line of stdin (or --input) and write one line per input line: "
                + "<language>\\t<confidence>\\t<input> (tsv), or a JSON object with every language's probability (json). "
                + "Lines with nothing to classify (empty, or no Latin letters, digits or punctuation) get 'und' with confidence 0.")
public final class PredictCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();
    // Lines read before their windows go to the detector, which classifies them in batches side by side.
    private static final int LINES_PER_BATCH = 4096;

    @Mixin
    DetectorOptions detectorOptions;

    @Option(names = {"-i", "--input"}, paramLabel = "FILE", description = "Read this file (local, hdfs://, s3a://; .gz decompressed) instead of stdin.")
    String input;

    @Option(names = "--format", defaultValue = "tsv", description = "tsv or json. Default: ${DEFAULT-VALUE}.")
    String format;

    @Option(names = "--threads", paramLabel = "N",
            description = "Model calls side by side, each on one thread. Default: the machine's cores.")
    Integer threads;

    @Override
    public Integer call() throws IOException {
        if (!"tsv".equals(format) && !"json".equals(format)) {
            throw new IllegalArgumentException("--format " + format + " is not one of tsv, json");
        }
        Configuration conf = new Configuration();
        LanguageDetector detector = detectorOptions.load(conf, threads != null ? threads : Runtime.getRuntime().availableProcessors());
        long lines = 0;
        long undecodable = 0;
        // One batch is detected while this thread writes the one before and reads the one after.
        ExecutorService detecting = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "langid-predict");
            thread.setDaemon(true);
            return thread;
        });
        try (InputStream in = input == null ? System.in : HadoopFiles.open(input, conf);
             BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder()
                     .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE)));
             Writer out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16)) {
            List<String> batch = new ArrayList<>(LINES_PER_BATCH);
            List<String> pendingLines = null;
            Future<List<Detection>> pending = null;
            for (String line = reader.readLine(); ; line = reader.readLine()) {
                if (line != null) {
                    lines++;
                    if (line.indexOf('\uFFFD') >= 0) {
                        undecodable++;
                    }
                    batch.add(line);
                }
                if (batch.size() == LINES_PER_BATCH || line == null) {
                    List<String> submitted = batch;
                    Future<List<Detection>> next = detecting.submit(() -> detector.detectAll(submitted));
                    if (pending != null) {
                        write(pendingLines, result(pending), out);
                    }
                    pending = next;
                    pendingLines = submitted;
                    batch = new ArrayList<>(LINES_PER_BATCH);
                }
                if (line == null) {
                    break;
                }
            }
            write(pendingLines, result(pending), out);
        } finally {
            detecting.shutdownNow();
        }
        if (undecodable > 0) {
            System.err.printf("langid predict: %d of %d lines had bytes that are not UTF-8; they were read as U+FFFD, which "
                    + "carries no language%n", undecodable, lines);
        }
        return 0;
    }

    private static List<Detection> result(Future<List<Detection>> detections) {
        try {
            return detections.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while detecting", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
        }
    }

    /**
     * The confidence with four decimals, as %.4f would write it for a value in [0, 1], without
     * the Formatter (which looked up locale data on every line: a tenth of predict's time).
     */
    static String fourDecimals(double value) {
        long tenThousandths = Math.round(Math.min(Math.max(value, 0.0), 1.0) * 10_000);
        String digits = Long.toString(10_000 + tenThousandths);                      // "1xxxx" or "20000"
        return (char) (digits.charAt(0) - 1) + "." + digits.substring(1);
    }

    private void write(List<String> lines, List<Detection> detections, Writer out) {
        try {
            for (int i = 0; i < lines.size(); i++) {
                Detection detection = detections.get(i);
                if ("json".equals(format)) {
                    ObjectNode node = detection.toJson();
                    node.put("text", lines.get(i));
                    out.write(JSON.writeValueAsString(node));
                } else {
                    out.write(detection.language());
                    out.write('\t');
                    out.write(fourDecimals(detection.confidence()));
                    out.write('\t');
                    out.write(lines.get(i));
                }
                out.write('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the predictions: " + e.getMessage(), e);
        }
    }
}
