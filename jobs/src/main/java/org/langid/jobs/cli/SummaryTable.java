package org.langid.jobs.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintStream;
import java.util.Iterator;
import java.util.Map;
import org.langid.jobs.prepare.PrepareSummary;

/** The prepare summary as a table a person reads at the end of a run. */
final class SummaryTable {

    private SummaryTable() {
    }

    static void print(PrepareSummary summary, PrintStream out) {
        JsonNode json = summary.json();
        out.printf("%-8s %9s %10s   %-24s   %-30s%n", "", "", "", "sentences", "windows");
        out.printf("%-8s %9s %10s   %7s %7s %8s   %10s %9s %9s%n",
                "language", "records", "duplicates", "train", "valid.", "test", "train", "valid.", "test");
        for (Iterator<Map.Entry<String, JsonNode>> it = json.path("languages").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            JsonNode language = entry.getValue();
            JsonNode sentences = language.path("sentences");
            JsonNode windows = language.path("windows");
            out.printf("%-8s %9d %10d   %7d %7d %8d   %10d %9d %9d%n", entry.getKey(),
                    language.path("records").asLong(), language.path("duplicates").asLong(),
                    sentences.path("train").asLong(), sentences.path("validation").asLong(), sentences.path("test").asLong(),
                    windows.path("train").asLong(), windows.path("validation").asLong(), windows.path("test").asLong());
        }
        JsonNode records = json.path("records");
        out.printf("records read %d: %d sentences kept, %d duplicates, %d of unselected languages, %d quarantined%n",
                records.path("read").asLong(), records.path("sentences").asLong(), records.path("duplicates").asLong(),
                records.path("not_selected").asLong(), records.path("quarantined").asLong());
        StringBuilder reasons = new StringBuilder();
        json.path("quarantined").fields().forEachRemaining(e -> {
            if (e.getValue().asLong() > 0) {
                reasons.append(reasons.length() == 0 ? "" : ", ").append(e.getKey()).append(' ').append(e.getValue().asLong());
            }
        });
        if (reasons.length() > 0) {
            out.println("quarantined by reason: " + reasons);
        }
        JsonNode ignored = json.path("inputs").path("ignored_files");
        if (ignored.size() > 0) {
            out.println("ignored files (no corpus format): " + ignored);
        }
        out.println("fingerprint: " + summary.fingerprint());
    }
}
