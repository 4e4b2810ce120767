package org.langid.serving;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
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
import java.util.function.Function;

/**
 * What {@code langid predict} writes: one line per input line, {@code <language>\t<confidence>\t<input>}
 * (tsv) or a JSON object with every language's probability and the text (json). Shared by the
 * full command line (jobs/, any Hadoop path, either engine) and its quick path ({@link QuickPredict},
 * local files and ONNX Runtime only), so that both write the same bytes.
 */
public final class LinePredictions {

    /** Lines read before their windows go to the detector, which classifies them in batches side by side. */
    public static final int LINES_PER_BATCH = 4096;
    private static final ObjectMapper JSON = new ObjectMapper();

    public enum Format {
        TSV, JSON;

        /** {@code tsv} or {@code json}, as {@code --format} takes them. */
        public static Format of(String name) {
            return switch (name) {
                case "tsv" -> TSV;
                case "json" -> JSON;
                default -> throw new IllegalArgumentException("--format " + name + " is not one of tsv, json");
            };
        }
    }

    /** Lines read, and how many of them had bytes that are not UTF-8 (read as U+FFFD). */
    public record Counts(long lines, long undecodable) {

        /** The line for stderr when some input was not UTF-8, or null. */
        public String undecodableNotice() {
            return undecodable == 0 ? null : String.format("langid predict: %d of %d lines had bytes that are not UTF-8; they were "
                    + "read as U+FFFD, which carries no language", undecodable, lines);
        }
    }

    private LinePredictions() {
    }

    /**
     * Reads UTF-8 lines from {@code in} and writes one prediction per line to {@code out} (flushed,
     * not closed). One batch of lines is detected while this thread writes the batch before and
     * reads the one after.
     *
     * @param detectAll detects a batch of texts, one {@link Detection} each, in order
     */
    public static Counts write(InputStream in, OutputStream out, Function<List<String>, List<Detection>> detectAll, Format format)
            throws IOException {
        long lines = 0;
        long undecodable = 0;
        ExecutorService detecting = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "langid-predict");
            thread.setDaemon(true);
            return thread;
        });
        try {
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE)));
            Writer writer = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
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
                    Future<List<Detection>> next = detecting.submit(() -> detectAll.apply(submitted));
                    if (pending != null) {
                        write(pendingLines, result(pending), writer, format);
                    }
                    pending = next;
                    pendingLines = submitted;
                    batch = new ArrayList<>(LINES_PER_BATCH);
                }
                if (line == null) {
                    break;
                }
            }
            write(pendingLines, result(pending), writer, format);
            writer.flush();
        } finally {
            detecting.shutdownNow();
        }
        return new Counts(lines, undecodable);
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
    public static String fourDecimals(double value) {
        long tenThousandths = Math.round(Math.min(Math.max(value, 0.0), 1.0) * 10_000);
        String digits = Long.toString(10_000 + tenThousandths);                      // "1xxxx" or "20000"
        return (char) (digits.charAt(0) - 1) + "." + digits.substring(1);
    }

    private static void write(List<String> lines, List<Detection> detections, Writer out, Format format) {
        try {
            for (int i = 0; i < lines.size(); i++) {
                Detection detection = detections.get(i);
                if (format == Format.JSON) {
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
