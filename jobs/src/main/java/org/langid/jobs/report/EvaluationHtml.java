package org.langid.jobs.report;

import static org.langid.jobs.report.Html.escape;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The evaluation report of {@code langid evaluate} as one self-contained HTML page. Only inline CSS
 * and inline SVG are used, so the page can be archived or mailed and opened offline without
 * fetching anything.
 */
public final class EvaluationHtml {

    /** Shown wherever the report has no value or a non-finite one, so "NaN" never reaches the page. */
    private static final String MISSING = "–";
    private static final int ERROR_PAIRS_SHOWN = 12;

    private static final String[] LEVELS = {"windows", "sentences", "word_pairs", "single_words"};
    private static final String[] METRICS = {"precision", "recall", "f1"};
    private static final String[] METRIC_NAMES = {"precision", "recall", "F1"};
    private static final String[] METRIC_COLOURS = {"#93c5fd", "#6ee7b7", "#4f46e5"};

    private static final String LOSS_COLOUR = "#2563eb";
    private static final String ACCURACY_COLOUR = "#d97706";

    private static final String STYLE = """
            body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2937;\
            max-width:1200px;margin:0 auto;padding:24px 32px;background:#fff}
            h1{font-size:22px;margin:0 0 12px}
            h2{font-size:18px;margin:36px 0 10px;padding-bottom:4px;border-bottom:1px solid #e5e7eb}
            h3{font-size:15px;margin:22px 0 4px}
            code{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f3f4f6;\
            padding:1px 4px;border-radius:3px;word-break:break-all}
            dl.facts{display:grid;grid-template-columns:max-content auto;gap:3px 16px;margin:0}
            dl.facts dt{color:#6b7280}
            dl.facts dd{margin:0}
            table{border-collapse:collapse;font-variant-numeric:tabular-nums}
            table.summary th,table.summary td,table.epochs th,table.epochs td{padding:6px 12px;\
            border-bottom:1px solid #e5e7eb;text-align:right}
            table.summary th:first-child,table.summary td:first-child{text-align:left}
            table.summary thead th,table.epochs thead th{font-size:12px;color:#6b7280;font-weight:600}
            tr.difference{background:#f9fafb;font-weight:600}
            .description,.level-facts,.note{color:#6b7280;font-size:12px;margin:2px 0 10px}
            .legend{font-size:12px;color:#374151;margin:4px 0}
            .swatch{display:inline-block;width:12px;height:12px;border-radius:2px;vertical-align:-2px;\
            margin:0 4px 0 14px}
            .swatch.hollow{background:#fff;border:2px solid #2563eb;border-radius:50%;width:8px;height:8px}
            .pair{display:flex;flex-wrap:wrap;gap:28px;align-items:flex-start}
            table.heatmap{font-size:12px}
            table.heatmap th,table.heatmap td{padding:4px 7px;text-align:right;min-width:34px}
            table.heatmap thead th{color:#374151}
            table.heatmap th.declined{font-style:italic;color:#6b7280}
            table.heatmap td.cell{border:1px solid #fff}
            table.heatmap td.diagonal{outline:2px solid #1e3a8a;outline-offset:-2px;font-weight:700}
            table.heatmap td.zero{color:#c0c4cc}
            table.heatmap td.total{color:#6b7280}
            table.heatmap caption{caption-side:bottom;text-align:left;color:#6b7280;font-size:11px;padding-top:6px}
            svg{font-family:inherit;max-width:100%;height:auto}
            table.errors{font-size:12px;margin-top:8px}
            table.errors th,table.errors td{padding:4px 10px;border-bottom:1px solid #e5e7eb;text-align:left;\
            vertical-align:top}
            table.errors td.count{text-align:right}
            td.unknown,td.no-probability{color:#6b7280;font-style:italic}
            details.related{margin:6px 0 10px}
            table.errors code{white-space:pre;word-break:normal;display:inline-block;margin:0 6px 3px 0}
            footer{margin-top:44px;padding-top:8px;border-top:1px solid #e5e7eb;color:#6b7280;font-size:12px}
            """;

    private EvaluationHtml() {
    }

    /** The whole page; every string taken from {@code report} is HTML-escaped. */
    public static String render(JsonNode report) {
        StringBuilder html = new StringBuilder(64 * 1024);
        html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>langid evaluation ").append(escape(text(report.path("model").path("version"))))
                .append("</title>\n<style>\n").append(STYLE).append("</style>\n</head>\n<body>\n");
        header(html, report);
        summary(html, report.path("detectors"));
        leads(html, report.path("detectors"));
        calibration(html, report.path("detectors"));
        unavailable(html, report.path("unavailable"));
        shared(html, report.path("detectors"));
        perLanguage(html, report.path("detectors"), report.path("languages"));
        perScript(html, report.path("detectors"), report.path("scripts_counted_from"));
        related(html, report.path("detectors"));
        training(html, report.path("training"));
        for (JsonNode detector : report.path("detectors")) {
            detector(html, detector, report.path("languages"));
        }
        html.append("<footer>\n<p>Confusion matrices are row-normalised: a cell's colour is its count divided by")
                .append(" the number of samples of that row's true language, so each row shows where that")
                .append(" language's samples went; the count itself is printed in the cell and the diagonal")
                .append(" (correct answers) is outlined. A row without samples stays uncoloured.</p>\n")
                .append("<p>The predicted label <em>und</em> (undetermined) means the detector declined to")
                .append(" answer; it counts as a wrong answer.</p>\n</footer>\n</body>\n</html>\n");
        return html.toString();
    }

    private static void header(StringBuilder html, JsonNode report) {
        JsonNode model = report.path("model");
        JsonNode data = report.path("data");
        JsonNode languages = report.path("languages");
        List<String> codes = new ArrayList<>();
        languages.forEach(code -> codes.add(text(code)));
        html.append("<header>\n<h1>Language identification: evaluation</h1>\n<dl class=\"facts\">\n")
                .append("<dt>Model</dt><dd><code>").append(escape(text(model.path("version"))))
                .append("</code> at <code>").append(escape(text(model.path("path")))).append("</code></dd>\n")
                .append("<dt>Data</dt><dd><code>").append(escape(text(data.path("input"))))
                .append("</code>, split <strong>").append(escape(text(data.path("split")))).append("</strong></dd>\n")
                .append("<dt>Languages</dt><dd>").append(escape(String.join(", ", codes)))
                .append(" (").append(codes.size()).append(")</dd>\n")
                .append(restriction(report))
                .append("<dt>Created</dt><dd>").append(escape(text(report.path("created")))).append("</dd>\n");
        JsonNode cut = data.path("short_items");
        if (cut.isObject()) {
            html.append("<dt>Short items</dt><dd>").append(whole(number(cut.path("word_pairs").path("scored")))).append(" word pairs and ")
                    .append(whole(number(cut.path("single_words").path("scored")))).append(" single words cut from the sentences:")
                    .append(" lower case, letters only (punctuation and digits dropped), a single word of at least ")
                    .append(cut.path("min_letters").asInt()).append(" letters, a pair two consecutive words; scripts written without")
                    .append(" spaces cut into pieces of ").append(cut.path("unspaced_piece_letters").path(0).asInt()).append("–")
                    .append(cut.path("unspaced_piece_letters").path(1).asInt()).append(" letters</dd>\n");
        }
        html.append("</dl>\n</header>\n");
    }

    /** A restricted evaluation (report.json's {@code restricted_to}) says so in the header; "" otherwise. */
    private static String restriction(JsonNode report) {
        String text = org.langid.jobs.evaluate.EvaluateJob.restrictionText(report);
        return text == null ? "" : "<dt>Restricted</dt><dd class=\"restricted\">" + escape(text.substring(0, 1).toUpperCase(java.util.Locale.ROOT)
                + text.substring(1)) + "</dd>\n";
    }

    private static void summary(StringBuilder html, JsonNode detectors) {
        List<String> levels = levels(detectors);
        html.append("<section>\n<h2>Summary</h2>\n<table class=\"summary\">\n<thead><tr><th>Detector</th>");
        for (String level : levels) {
            html.append("<th>").append(title(level)).append(": accuracy</th><th>").append(title(level)).append(": macro-F1</th>");
        }
        List<String> rates = levels.stream().filter(l -> l.equals("windows") || l.equals("sentences")).toList();
        for (String level : rates) {
            html.append("<th>").append(title(level)).append(" / s</th>");
        }
        html.append("</tr></thead>\n<tbody>\n");
        for (JsonNode detector : detectors) {
            html.append("<tr><td><strong>").append(escape(text(detector.path("name")))).append("</strong>")
                    .append("<div class=\"description\">").append(escape(text(detector.path("description"))))
                    .append("</div></td>");
            for (String level : levels) {
                html.append(cell(percent(number(detector.path(level).path("accuracy")))))
                        .append(cell(percent(number(detector.path(level).path("macro_f1")))));
            }
            for (String level : rates) {
                html.append(cell(rate(number(detector.path(level).path("per_second")))));
            }
            html.append("</tr>\n");
        }
        if (detectors.size() == 2) {
            differenceRow(html, detectors.get(0), detectors.get(1), levels, rates.size());
        }
        html.append("</tbody>\n</table>\n</section>\n");
    }

    /** The levels any detector was scored at, in report order. */
    private static List<String> levels(JsonNode detectors) {
        List<String> levels = new ArrayList<>();
        for (String level : LEVELS) {
            for (JsonNode detector : detectors) {
                if (detector.path(level).isObject() && !levels.contains(level)) {
                    levels.add(level);
                }
            }
        }
        return levels;
    }

    /** A level's name in a heading: Windows, Sentences, Word pairs, Single words. */
    private static String title(String level) {
        String words = level.replace('_', ' ');
        return Character.toUpperCase(words.charAt(0)) + words.substring(1);
    }

    /** A level's items in running text: windows, sentences, word pairs, single words. */
    private static String items(String level) {
        return level.replace('_', ' ');
    }

    /**
     * The model's lead over each peer with its 95% interval (report.json's {@code model_lead}):
     * whether a difference in the summary is more than the test data's own spread.
     */
    private static void leads(StringBuilder html, JsonNode detectors) {
        List<JsonNode> peers = new ArrayList<>();
        for (int i = 1; i < detectors.size(); i++) {
            JsonNode peer = detectors.get(i);
            for (String level : LEVELS) {
                if (peer.path(level).path("model_lead").isObject() && !peers.contains(peer)) {
                    peers.add(peer);
                }
            }
        }
        if (peers.isEmpty()) {
            return;
        }
        List<String> levels = levels(detectors);
        html.append("<section>\n<h2>The model against each peer</h2>\n<table class=\"summary\">\n<thead><tr><th>Peer</th>");
        for (String level : levels) {
            html.append("<th>").append(title(level)).append(": model − peer</th>");
        }
        html.append("</tr></thead>\n<tbody>\n");
        for (JsonNode peer : peers) {
            html.append("<tr><td><strong>").append(escape(text(peer.path("name")))).append("</strong></td>");
            for (String level : levels) {
                html.append(cell(lead(peer.path(level).path("model_lead"), level)));
            }
            html.append("</tr>\n");
        }
        html.append("</tbody>\n</table>\n<p class=\"note\">Accuracy points the model is ahead (negative: behind) on the same")
                .append(" items, and in brackets the 95% interval of that difference from a paired bootstrap")
                .append(" (1,000 resamples; a sentence's windows overlap and are resampled together, every other item on its own). An")
                .append(" interval that holds 0 is a difference this test data cannot tell from chance.</p>\n</section>\n");
    }

    private static String lead(JsonNode lead, String level) {
        if (!lead.isObject()) {
            return MISSING;
        }
        JsonNode interval = lead.path("interval_95");
        return format("%+.2f pt", 100 * number(lead.path("accuracy_difference")))
                + format(" (%+.2f to %+.2f; %,d %s)", 100 * number(interval.path(0)), 100 * number(interval.path(1)),
                lead.path("clusters").asLong(), level.equals("windows") ? "sentences" : items(level));
    }

    /** Peers asked for that could not run: said on the page, so a missing column is never a silent one. */
    private static void unavailable(StringBuilder html, JsonNode unavailable) {
        for (JsonNode peer : unavailable) {
            html.append("<p class=\"note\">Not evaluated: <strong>").append(escape(text(peer.path("name"))))
                    .append("</strong> (").append(escape(text(peer.path("reason")))).append(")</p>\n");
        }
    }

    /** Accuracy on each language's items (its recall), every detector side by side, for windows and sentences. */
    private static void perLanguage(StringBuilder html, JsonNode detectors, JsonNode languages) {
        if (detectors.size() < 2 || !languages.isArray()) {
            return;
        }
        List<String> levels = levels(detectors);
        html.append("<section>\n<h2>Accuracy per language</h2>\n<table class=\"summary\">\n<thead><tr><th>Language</th>");
        for (String level : levels) {
            for (JsonNode detector : detectors) {
                html.append("<th>").append(items(level)).append(": ").append(escape(text(detector.path("name")))).append("</th>");
            }
        }
        html.append("</tr></thead>\n<tbody>\n");
        for (int row = 0; row <= languages.size(); row++) {
            boolean all = row == languages.size();
            html.append("<tr").append(all ? " class=\"difference\"" : "").append("><td>")
                    .append(all ? "all" : escape(label(languages, row))).append("</td>");
            for (String level : levels) {
                for (JsonNode detector : detectors) {
                    JsonNode scores = detector.path(level);
                    if (!all && knowsNot(detector, label(languages, row))) {
                        html.append("<td class=\"unknown\" title=\"").append(escape(text(detector.path("name"))))
                                .append(" does not know this language\">not known</td>");
                        continue;
                    }
                    html.append(cell(percent(number(all ? scores.path("accuracy") : scores.path("per_language").path(row).path("recall")))));
                }
            }
            html.append("</tr>\n");
        }
        html.append("</tbody>\n</table>\n<p class=\"note\">A language's accuracy is the share of its items the detector")
                .append(" assigned to it (its recall).</p>\n</section>\n");
    }

    private static boolean knowsNot(JsonNode detector, String language) {
        for (JsonNode unknown : detector.path("unknown_languages")) {
            if (unknown.asText().equals(language)) {
                return true;
            }
        }
        return false;
    }

    private static String joined(JsonNode texts) {
        List<String> out = new ArrayList<>();
        texts.forEach(t -> out.add(text(t)));
        return String.join(", ", out);
    }

    /**
     * A peer that lacks some of the model's languages (report.json's {@code unknown_languages}): which
     * ones, and the comparison over the languages it knows ({@code shared}), since its overall
     * figures count every item of a language it cannot answer as an error.
     */
    private static void shared(StringBuilder html, JsonNode detectors) {
        List<JsonNode> peers = new ArrayList<>();
        for (JsonNode detector : detectors) {
            if (detector.path("unknown_languages").isArray()) {
                peers.add(detector);
            }
        }
        if (peers.isEmpty()) {
            return;
        }
        String model = text(detectors.path(0).path("name"));
        html.append("<section>\n<h2>Over the languages each peer knows</h2>\n<table class=\"summary\">\n<thead><tr><th>Peer</th>")
                .append("<th>does not know</th><th>level</th><th>languages</th><th>items</th><th>").append(escape(model))
                .append("</th><th>peer</th><th>model − peer</th></tr></thead>\n<tbody>\n");
        for (JsonNode peer : peers) {
            for (String level : LEVELS) {
                JsonNode shared = peer.path(level).path("shared");
                if (!shared.isObject()) {
                    continue;
                }
                html.append("<tr><td><strong>").append(escape(text(peer.path("name")))).append("</strong></td>")
                        .append("<td class=\"unknown-languages\">").append(escape(joined(peer.path("unknown_languages")))).append("</td>")
                        .append("<td>").append(items(level)).append("</td>")
                        .append(cell(whole(shared.path("languages").size())))
                        .append(cell(whole(number(shared.path("count")))))
                        .append(cell(percent(number(shared.path("model_accuracy")))))
                        .append(cell(percent(number(shared.path("accuracy")))))
                        .append(cell(lead(shared.path("model_lead"), level))).append("</tr>\n");
            }
        }
        html.append("</tbody>\n</table>\n<p class=\"note\">A peer never answers a language it does not know, so the summary")
                .append(" counts all of that language's items as its errors. Here both are scored on the items of the languages")
                .append(" the peer knows; the model may still answer one the peer lacks (its error), the peer cannot.</p>\n</section>\n");
    }

    /** Accuracy over each script's languages (report.json's {@code per_script}), every detector side by side. */
    private static void perScript(StringBuilder html, JsonNode detectors, JsonNode countedFrom) {
        List<String> levels = new ArrayList<>();
        JsonNode scripts = null;
        for (String level : LEVELS) {
            for (JsonNode detector : detectors) {
                if (detector.path(level).path("per_script").isArray() && !levels.contains(level)) {
                    levels.add(level);
                    if (scripts == null) {
                        scripts = detector.path(level).path("per_script");
                    }
                }
            }
        }
        if (scripts == null || scripts.isEmpty()) {
            return;
        }
        html.append("<section>\n<h2>Accuracy per script</h2>\n<table class=\"summary scripts\">\n<thead><tr><th>Script</th>");
        for (String level : levels) {
            for (JsonNode detector : detectors) {
                html.append("<th>").append(items(level)).append(": ").append(escape(text(detector.path("name")))).append("</th>");
            }
        }
        html.append("</tr></thead>\n<tbody>\n");
        for (int row = 0; row < scripts.size(); row++) {
            JsonNode script = scripts.get(row);
            html.append("<tr><td>").append(escape(text(script.path("script")))).append("<div class=\"description\">")
                    .append(escape(joined(script.path("languages")))).append("</div></td>");
            for (String level : levels) {
                for (JsonNode detector : detectors) {
                    html.append(cell(percent(number(detector.path(level).path("per_script").path(row).path("accuracy")))));
                }
            }
            html.append("</tr>\n");
        }
        html.append("</tbody>\n</table>\n<p class=\"note\">A language's script is the commonest Unicode script among the letters")
                .append(" of its ").append(escape(countedFrom.isTextual() ? countedFrom.asText() : "texts"))
                .append(" here; a script's accuracy is over all items of its languages.</p>\n</section>\n");
    }

    /**
     * For each group of closely related languages: how many of each member's errors stayed inside the
     * group, for every detector and level; then the confusion among the members and a few confused items.
     */
    private static void related(StringBuilder html, JsonNode detectors) {
        JsonNode first = detectors.path(0);
        JsonNode groups = first.path("windows").path("related").isArray() ? first.path("windows").path("related")
                : first.path("sentences").path("related");
        if (!groups.isArray() || groups.isEmpty()) {
            return;
        }
        html.append("<section>\n<h2>Closely related languages</h2>\n<p class=\"note\">An error inside the group is a member")
                .append(" answered as another member; the share is of all the member's errors (other languages and und too).</p>\n");
        for (int g = 0; g < groups.size(); g++) {
            JsonNode group = groups.get(g);
            JsonNode members = group.path("languages");
            html.append("<h3>").append(escape(text(group.path("group")))).append(": ").append(escape(joined(members))).append("</h3>\n")
                    .append("<table class=\"summary related\">\n<thead><tr><th>Detector</th><th>level</th>");
            for (JsonNode member : members) {
                html.append("<th>").append(escape(text(member))).append("</th>");
            }
            html.append("<th>group</th></tr></thead>\n<tbody>\n");
            StringBuilder details = new StringBuilder();
            for (JsonNode detector : detectors) {
                for (String level : LEVELS) {
                    JsonNode scores = detector.path(level).path("related").path(g);
                    if (!scores.isObject()) {
                        continue;
                    }
                    html.append("<tr><td><strong>").append(escape(text(detector.path("name")))).append("</strong></td><td>")
                            .append(items(level)).append("</td>");
                    for (JsonNode member : scores.path("per_language")) {
                        html.append(cell(inGroup(member)));
                    }
                    html.append("<td><strong>").append(inGroup(scores)).append("</strong></td></tr>\n");
                    relatedDetails(details, text(detector.path("name")), items(level), scores);
                }
            }
            html.append("</tbody>\n</table>\n").append(details);
        }
        html.append("<p class=\"note\">Each cell: errors answered as another member of the group, of all the errors, and that")
                .append(" share. Groups are fixed in the code (RelatedLanguages); a group is shown when the model has two of its")
                .append(" languages.</p>\n</section>\n");
    }

    private static String inGroup(JsonNode scores) {
        String share = scores.has("in_group_share") ? " (" + percent(number(scores.path("in_group_share"))) + ")" : "";
        return whole(number(scores.path("in_group"))) + " of " + whole(number(scores.path("errors"))) + share;
    }

    /** The group's confusion matrix and its confused pairs' examples for one detector and level, folded away. */
    private static void relatedDetails(StringBuilder html, String detector, String level, JsonNode scores) {
        JsonNode members = scores.path("languages");
        html.append("<details class=\"related\"><summary>").append(escape(detector)).append(", ").append(level)
                .append(": confusion among the members and examples</summary>\n<table class=\"heatmap\">\n<thead><tr>")
                .append("<th>true \\ predicted</th>");
        for (JsonNode member : members) {
            html.append("<th scope=\"col\">").append(escape(text(member))).append("</th>");
        }
        html.append("</tr></thead>\n<tbody>\n");
        JsonNode confusion = scores.path("confusion");
        for (int row = 0; row < confusion.size(); row++) {
            html.append("<tr><th scope=\"row\">").append(escape(label(members, row))).append("</th>");
            for (int column = 0; column < confusion.get(row).size(); column++) {
                long count = confusion.get(row).get(column).asLong();
                html.append("<td class=\"cell").append(row == column ? " diagonal" : "").append(count == 0 ? " zero" : "")
                        .append("\">").append(count).append("</td>");
            }
            html.append("</tr>\n");
        }
        html.append("</tbody>\n</table>\n");
        JsonNode pairs = scores.path("pairs");
        if (pairs.isArray() && !pairs.isEmpty()) {
            html.append("<table class=\"errors\"><thead><tr><th>expected</th><th>predicted</th><th>count</th><th>examples</th>")
                    .append("</tr></thead><tbody>\n");
            for (JsonNode pair : pairs) {
                confusedPairRow(html, pair);
            }
            html.append("</tbody></table>\n");
        }
        html.append("</details>\n");
    }

    /** First minus second detector, in percentage points, so "+" means the first one is better. */
    private static void differenceRow(StringBuilder html, JsonNode first, JsonNode second, List<String> levels, int rates) {
        html.append("<tr class=\"difference\"><td>").append(escape(text(first.path("name"))))
                .append(" − ").append(escape(text(second.path("name")))).append("</td>");
        for (String level : levels) {
            for (String metric : new String[] {"accuracy", "macro_f1"}) {
                double difference = number(first.path(level).path(metric)) - number(second.path(level).path(metric));
                html.append(cell(Double.isFinite(difference) ? format("%+.1f pt", difference * 100) : MISSING));
            }
        }
        html.append("<td></td>".repeat(rates)).append("</tr>\n");
    }

    private static void training(StringBuilder html, JsonNode training) {
        JsonNode records = training.path("records");
        if (!records.isArray() || records.isEmpty()) {
            return;
        }
        List<Point> roundLoss = new ArrayList<>();
        List<Point> epochLoss = new ArrayList<>();
        List<Point> validationLoss = new ArrayList<>();
        List<Point> validationAccuracy = new ArrayList<>();
        for (JsonNode record : records) {
            double step = number(record.path("step"));
            boolean isEpoch = "epoch".equals(record.path("kind").asText());
            addIfFinite(isEpoch ? epochLoss : roundLoss, step, number(record.path("loss")));
            if (isEpoch) {
                addIfFinite(validationLoss, step, number(record.path("validation_loss")));
                addIfFinite(validationAccuracy, step, number(record.path("validation_accuracy")));
            }
        }
        // Logs written without averaging rounds still have one loss per epoch to draw.
        List<Point> loss = roundLoss.isEmpty() ? epochLoss : roundLoss;
        loss.sort(Comparator.comparingDouble(Point::x));
        html.append("<section>\n<h2>Training</h2>\n<p class=\"note\">From <code>")
                .append(escape(text(training.path("source")))).append("</code></p>\n");
        if (loss.isEmpty() && validationLoss.isEmpty() && validationAccuracy.isEmpty()) {
            html.append("<p class=\"note\">The training records hold no step with a loss or accuracy to plot.</p>\n");
        } else {
            html.append("<div class=\"legend\"><span class=\"swatch\" style=\"background:").append(LOSS_COLOUR)
                    .append("\"></span>training loss (")
                    .append(roundLoss.isEmpty() ? "per epoch" : "per averaging round")
                    .append(")<span class=\"swatch hollow\"></span>validation loss")
                    .append("<span class=\"swatch\" style=\"background:").append(ACCURACY_COLOUR)
                    .append("\"></span>validation accuracy (right axis)</div>\n");
            trainingChart(html, loss, validationLoss, validationAccuracy);
        }
        epochTable(html, records);
        html.append("</section>\n");
    }

    private static void addIfFinite(List<Point> points, double x, double y) {
        if (Double.isFinite(x) && Double.isFinite(y)) {
            points.add(new Point(x, y));
        }
    }

    private static void trainingChart(StringBuilder html, List<Point> loss, List<Point> validationLoss,
            List<Point> validationAccuracy) {
        int width = 760;
        int height = 320;
        int left = 64;
        int right = 72;
        int top = 16;
        int bottom = 48;
        List<Point> lossLike = new ArrayList<>(loss);
        lossLike.addAll(validationLoss);
        List<Point> all = new ArrayList<>(lossLike);
        all.addAll(validationAccuracy);
        // Steps and losses are non-negative; anchoring their axes at zero keeps the drop in proportion.
        Axis steps = Axis.covering(all.stream().mapToDouble(Point::x).toArray(), true);
        Axis losses = Axis.covering(lossLike.stream().mapToDouble(Point::y).toArray(), true);
        Axis accuracies = Axis.covering(validationAccuracy.stream().mapToDouble(Point::y).toArray(), false);
        Scale x = new Scale(steps, left, width - right);
        Scale lossY = new Scale(losses, height - bottom, top);
        Scale accuracyY = new Scale(accuracies, height - bottom, top);

        html.append(svgOpen("training-chart", width, height, "training loss and validation accuracy by step"));
        for (double tick : losses.ticks()) {
            String y = coordinate(lossY.at(tick));
            html.append(svgLine(left, y, width - right, y, "#e5e7eb"))
                    .append(svgText(left - 8, lossY.at(tick) + 4, "end", "#374151", losses.label(tick)));
        }
        if (!validationAccuracy.isEmpty()) {
            for (double tick : accuracies.ticks()) {
                html.append(svgText(width - right + 8, accuracyY.at(tick) + 4, "start", ACCURACY_COLOUR,
                        accuracies.percentLabel(tick)));
            }
            html.append(svgLine(width - right, top, width - right, height - bottom, ACCURACY_COLOUR))
                    .append(verticalTitle(width - 12, (top + height - bottom) / 2.0, ACCURACY_COLOUR,
                            "validation accuracy"));
        }
        for (double tick : steps.ticks()) {
            String xAt = coordinate(x.at(tick));
            html.append(svgLine(xAt, height - bottom, xAt, height - bottom + 5, "#6b7280"))
                    .append(svgText(x.at(tick), height - bottom + 19, "middle", "#374151", steps.label(tick)));
        }
        html.append(svgLine(left, height - bottom, width - right, height - bottom, "#6b7280"))
                .append(svgLine(left, top, left, height - bottom, "#6b7280"))
                .append(svgText((left + width - right) / 2.0, height - 8, "middle", "#374151", "step"))
                .append(verticalTitle(16, (top + height - bottom) / 2.0, LOSS_COLOUR, "loss"));
        if (!loss.isEmpty()) {
            StringBuilder points = new StringBuilder();
            for (Point point : loss) {
                points.append(coordinate(x.at(point.x()))).append(',').append(coordinate(lossY.at(point.y()))).append(' ');
            }
            html.append("<polyline fill=\"none\" stroke=\"").append(LOSS_COLOUR)
                    .append("\" stroke-width=\"1.8\" stroke-linejoin=\"round\" points=\"")
                    .append(points.toString().trim()).append("\"/>\n");
        }
        for (Point point : validationLoss) {
            html.append(marker(x.at(point.x()), lossY.at(point.y()), "#fff", LOSS_COLOUR,
                    format("step %s: validation loss %.4f", steps.label(point.x()), point.y())));
        }
        for (Point point : validationAccuracy) {
            html.append(marker(x.at(point.x()), accuracyY.at(point.y()), ACCURACY_COLOUR, "#fff",
                    format("step %s: validation accuracy %s", steps.label(point.x()), percent(point.y()))));
        }
        html.append("</svg>\n");
    }

    private static void epochTable(StringBuilder html, JsonNode records) {
        List<JsonNode> epochs = new ArrayList<>();
        records.forEach(record -> {
            if ("epoch".equals(record.path("kind").asText())) {
                epochs.add(record);
            }
        });
        if (epochs.isEmpty()) {
            return;
        }
        html.append("<table class=\"epochs\">\n<thead><tr><th>Epoch</th><th>Step</th><th>Training loss</th>")
                .append("<th>Validation loss</th><th>Validation accuracy</th><th>Samples / s</th>")
                .append("<th>Wall time</th></tr></thead>\n<tbody>\n");
        for (JsonNode epoch : epochs) {
            html.append("<tr>").append(cell(whole(number(epoch.path("epoch")))))
                    .append(cell(whole(number(epoch.path("step")))))
                    .append(cell(decimal(number(epoch.path("loss")), 4)))
                    .append(cell(decimal(number(epoch.path("validation_loss")), 4)))
                    .append(cell(percent(number(epoch.path("validation_accuracy")))))
                    .append(cell(whole(number(epoch.path("samples_per_second")))))
                    .append(cell(seconds(number(epoch.path("wall_seconds"))))).append("</tr>\n");
        }
        html.append("</tbody>\n</table>\n");
    }

    private static void detector(StringBuilder html, JsonNode detector, JsonNode languages) {
        html.append("<section class=\"detector\">\n<h2>").append(escape(text(detector.path("name"))))
                .append("</h2>\n<p class=\"description\">").append(escape(text(detector.path("description"))))
                .append("</p>\n");
        JsonNode trained = detector.path("trained");
        if (trained.isObject()) {
            html.append("<p class=\"level-facts\">trained for this evaluation on ").append(whole(number(trained.path("count"))))
                    .append(" windows of <code>").append(escape(text(trained.path("windows")))).append("</code> with <code>")
                    .append(escape(text(trained.path("arguments")))).append("</code>")
                    .append("joined".equals(trained.path("text").asText()) ? ", spaces written as _ (a window is one fastText word)" : "")
                    .append(" in ").append(seconds(number(trained.path("seconds"))))
                    .append(trained.path("cached").asBoolean() ? " (model taken from the cache)" : "").append("</p>\n");
        }
        for (String levelName : LEVELS) {
            JsonNode level = detector.path(levelName);
            if (!level.isObject()) {
                continue;
            }
            html.append("<h3>").append(title(levelName)).append("</h3>\n")
                    .append("<p class=\"level-facts\">accuracy ").append(percent(number(level.path("accuracy"))))
                    .append(" (").append(whole(number(level.path("correct")))).append(" of ")
                    .append(whole(number(level.path("count")))).append(" correct), macro-F1 ")
                    .append(percent(number(level.path("macro_f1")))).append(", ")
                    .append(rate(number(level.path("per_second")))).append(" per second over ")
                    .append(seconds(number(level.path("seconds"))));
            JsonNode calibration = level.path("calibration");
            if (calibration.isObject()) {
                html.append("; calibration error (ECE) ").append(decimal(number(calibration.path("ece")), 4));
            }
            html.append("</p>\n<div class=\"pair\">\n");
            heatmap(html, level, languages);
            metricBars(html, level.path("per_language"));
            html.append("</div>\n");
            reliability(html, calibration);
            errors(html, level.path("errors"));
        }
        html.append("</section>\n");
    }

    /** The answers in each bin of confidence and how many of them were right, folded away. */
    private static void reliability(StringBuilder html, JsonNode calibration) {
        if (!calibration.isObject()) {
            return;
        }
        html.append("<details><summary>Confidence against accuracy: ").append(whole(number(calibration.path("count"))))
                .append(" answers in ").append(calibration.path("bins").asInt()).append(" bins</summary>\n<table class=\"errors\">")
                .append("<thead><tr><th>confidence</th><th>answers</th><th>mean confidence</th><th>right</th></tr></thead><tbody>\n");
        for (JsonNode bin : calibration.path("per_bin")) {
            html.append("<tr><td>").append(format("%.1f–%.1f", number(bin.path("from")), number(bin.path("to")))).append("</td>")
                    .append("<td class=\"count\">").append(whole(number(bin.path("count")))).append("</td>")
                    .append(cell(percent(number(bin.path("mean_confidence"))))).append(cell(percent(number(bin.path("accuracy")))))
                    .append("</tr>\n");
        }
        html.append("</tbody></table></details>\n");
    }

    /** Each detector's calibration error on each level of whole texts, and why a detector has none. */
    private static void calibration(StringBuilder html, JsonNode detectors) {
        List<String> levels = new ArrayList<>();
        for (String level : levels(detectors)) {
            for (JsonNode detector : detectors) {
                if (detector.path(level).path("calibration").isObject() && !levels.contains(level)) {
                    levels.add(level);
                }
            }
        }
        if (levels.isEmpty()) {
            return;
        }
        html.append("<section>\n<h2>Calibration</h2>\n<table class=\"summary calibration\">\n<thead><tr><th>Detector</th>");
        for (String level : levels) {
            html.append("<th>").append(title(level)).append(": ECE</th>");
        }
        html.append("</tr></thead>\n<tbody>\n");
        StringBuilder notes = new StringBuilder();
        for (JsonNode detector : detectors) {
            html.append("<tr><td><strong>").append(escape(text(detector.path("name")))).append("</strong></td>");
            for (String level : levels) {
                JsonNode calibration = detector.path(level).path("calibration");
                if (calibration.isObject()) {
                    html.append(cell(decimal(number(calibration.path("ece")), 4) + format(" <span class=\"description\">(confidence %s, right %s)</span>",
                            percent(number(calibration.path("mean_confidence"))), percent(number(calibration.path("accuracy"))))));
                } else if (detector.path("no_calibration").isTextual()) {
                    html.append("<td class=\"no-probability\">no probability</td>");
                } else {
                    html.append(cell(MISSING));
                }
            }
            html.append("</tr>\n");
            if (detector.path("no_calibration").isTextual()) {
                notes.append("<p class=\"note\"><strong>").append(escape(text(detector.path("name")))).append("</strong>: ")
                        .append(escape(detector.path("no_calibration").asText())).append(".</p>\n");
            }
        }
        html.append("</tbody>\n</table>\n<p class=\"note\">Expected calibration error: each answer goes into one of 10")
                .append(" equal-width bins by its confidence (the probability the detector gives the language it answered); ECE")
                .append(" is the mean over the bins, weighted by their answers, of |accuracy − mean confidence|. 0 is a detector")
                .append(" right 90% of the times it says 0.9. Declined answers (und) are left out.</p>\n").append(notes)
                .append("</section>\n");
    }

    /** The commonest confusions with a few of their items, folded away: reading errors shows what a mean hides. */
    private static void errors(StringBuilder html, JsonNode errors) {
        if (!errors.isArray() || errors.isEmpty()) {
            return;
        }
        int shown = Math.min(ERROR_PAIRS_SHOWN, errors.size());
        html.append("<details><summary>Misclassified examples: the ").append(shown).append(" commonest of ")
                .append(errors.size()).append(" confusions</summary>\n<table class=\"errors\"><thead><tr>")
                .append("<th>expected</th><th>predicted</th><th>count</th><th>examples</th></tr></thead><tbody>\n");
        for (int i = 0; i < shown; i++) {
            confusedPairRow(html, errors.get(i));
        }
        html.append("</tbody></table></details>\n");
    }

    /** One row of a table of confused pairs: expected, predicted, count, the examples. */
    private static void confusedPairRow(StringBuilder html, JsonNode pair) {
        html.append("<tr><td>").append(escape(text(pair.path("expected")))).append("</td><td>")
                .append(escape(text(pair.path("predicted")))).append("</td><td class=\"count\">")
                .append(whole(number(pair.path("count")))).append("</td><td>");
        for (JsonNode example : pair.path("examples")) {
            html.append("<code>").append(escape(text(example))).append("</code>");
        }
        html.append("</td></tr>\n");
    }

    private static void heatmap(StringBuilder html, JsonNode level, JsonNode languages) {
        JsonNode confusion = level.path("confusion");
        if (!confusion.isArray() || confusion.isEmpty()) {
            html.append("<p class=\"note\">No confusion matrix in the report.</p>\n");
            return;
        }
        JsonNode predictedLabels = level.path("predicted_labels");
        int columns = predictedLabels.size();
        for (JsonNode row : confusion) {
            columns = Math.max(columns, row.size());
        }
        html.append("<table class=\"heatmap\">\n<caption>rows: true language, columns: predicted;")
                .append(" colour = share of the row</caption>\n<thead><tr><th>true \\ predicted</th>");
        for (int column = 0; column < columns; column++) {
            String label = label(predictedLabels, column);
            html.append(label.equals("und")
                    ? "<th scope=\"col\" class=\"declined\" title=\"the detector declined to answer\">"
                    : "<th scope=\"col\">").append(escape(label)).append("</th>");
        }
        html.append("<th scope=\"col\">total</th></tr></thead>\n<tbody>\n");
        for (int row = 0; row < confusion.size(); row++) {
            String language = label(languages, row);
            long[] counts = new long[columns];
            long rowTotal = 0;
            for (int column = 0; column < columns; column++) {
                JsonNode count = confusion.get(row).path(column);
                counts[column] = count.isNumber() ? count.longValue() : 0;
                rowTotal += counts[column];
            }
            html.append("<tr><th scope=\"row\">").append(escape(language)).append("</th>");
            for (int column = 0; column < columns; column++) {
                String predicted = label(predictedLabels, column);
                boolean diagonal = predicted.equals(language);
                double share = rowTotal == 0 ? 0 : (double) counts[column] / rowTotal;
                html.append("<td class=\"cell").append(diagonal ? " diagonal" : "")
                        .append(counts[column] == 0 ? " zero" : "").append("\" style=\"").append(cellColours(share, diagonal))
                        .append("\" title=\"").append(escape(format("true %s, predicted %s: %d of %d (%s)", language,
                                predicted, counts[column], rowTotal, rowTotal == 0 ? MISSING : percent(share))))
                        .append("\">").append(counts[column]).append("</td>");
            }
            html.append("<td class=\"total\">").append(rowTotal).append("</td></tr>\n");
        }
        html.append("</tbody>\n</table>\n");
    }

    /** Blue for correct answers, red for confusions; the darker, the larger the share of the row. */
    private static String cellColours(double share, boolean diagonal) {
        String background = format("background:hsl(%d,75%%,%.1f%%)", diagonal ? 214 : 8, 98 - 56 * share);
        // Light cells keep the stylesheet's text colour, which greys out the zeros.
        return share > 0.5 ? background + ";color:#fff" : background;
    }

    private static void metricBars(StringBuilder html, JsonNode perLanguage) {
        if (!perLanguage.isArray() || perLanguage.isEmpty()) {
            return;
        }
        int labelWidth = 96;
        int barsWidth = 300;
        int width = labelWidth + barsWidth + 64;
        int top = 30;
        int barHeight = 11;
        int groupHeight = METRICS.length * (barHeight + 2) + 12;
        int height = top + perLanguage.size() * groupHeight + 26;
        int bottom = height - 22;
        html.append(svgOpen("metric-bars", width, height, "precision, recall and F1 per language"));
        for (int metric = 0; metric < METRICS.length; metric++) {
            int legendX = labelWidth + metric * 90;
            html.append(format("<rect x=\"%d\" y=\"6\" width=\"11\" height=\"11\" rx=\"2\" fill=\"%s\"/>\n",
                            legendX, METRIC_COLOURS[metric]))
                    .append(svgText(legendX + 16, 16, "start", "#374151", METRIC_NAMES[metric]));
        }
        for (int quarter = 0; quarter <= 4; quarter++) {
            double xAt = labelWidth + barsWidth * quarter / 4.0;
            html.append(svgLine(coordinate(xAt), top - 6, coordinate(xAt), bottom, quarter == 0 ? "#6b7280" : "#e5e7eb"))
                    .append(svgText(xAt, bottom + 15, "middle", "#374151", quarter * 25 + "%"));
        }
        for (int row = 0; row < perLanguage.size(); row++) {
            JsonNode language = perLanguage.get(row);
            int groupTop = top + row * groupHeight;
            html.append(svgText(labelWidth - 10, groupTop + 17, "end", "#111827", text(language.path("language"))))
                    .append(svgText(labelWidth - 10, groupTop + 31, "end", "#6b7280",
                            "n=" + whole(number(language.path("support")))));
            for (int metric = 0; metric < METRICS.length; metric++) {
                double value = number(language.path(METRICS[metric]));
                double barY = groupTop + metric * (barHeight + 2);
                double barWidth = Double.isFinite(value) ? barsWidth * Math.max(0, Math.min(1, value)) : 0;
                html.append(format("<rect x=\"%d\" y=\"%s\" width=\"%s\" height=\"%d\" fill=\"%s\"><title>%s</title></rect>\n",
                                labelWidth, coordinate(barY), coordinate(barWidth), barHeight, METRIC_COLOURS[metric],
                                escape(text(language.path("language")) + " " + METRIC_NAMES[metric] + " " + percent(value))))
                        .append(svgText(labelWidth + barWidth + 4, barY + barHeight - 1.5, "start", "#374151", percent(value)));
            }
        }
        html.append("</svg>\n");
    }

    private record Point(double x, double y) {
    }

    /** Tick positions at round numbers (1, 2 or 5 times a power of ten) that cover the values. */
    private record Axis(double min, double max, double step) {

        static Axis covering(double[] values, boolean fromZero) {
            double low = fromZero ? 0 : Double.POSITIVE_INFINITY;
            double high = fromZero ? 0 : Double.NEGATIVE_INFINITY;
            for (double value : values) {
                low = Math.min(low, value);
                high = Math.max(high, value);
            }
            if (values.length == 0) {
                low = 0;
                high = 1;
            } else if (high <= low) {
                // A single value (one epoch, say) still needs a range around it to be drawn.
                double pad = low == 0 ? 1 : Math.abs(low) * 0.1;
                low -= pad;
                high += pad;
            } else if (!fromZero) {
                // Keeps the extreme markers off the plot's edges.
                double pad = (high - low) * 0.05;
                low -= pad;
                high += pad;
            }
            double rawStep = (high - low) / 5;
            double magnitude = Math.pow(10, Math.floor(Math.log10(rawStep)));
            double mantissa = rawStep / magnitude;
            double step = (mantissa <= 1 ? 1 : mantissa <= 2 ? 2 : mantissa <= 5 ? 5 : 10) * magnitude;
            return new Axis(Math.floor(low / step) * step, Math.ceil(high / step) * step, step);
        }

        List<Double> ticks() {
            List<Double> ticks = new ArrayList<>();
            long count = Math.round((max - min) / step);
            for (long i = 0; i <= count; i++) {
                ticks.add(min + i * step);
            }
            return ticks;
        }

        String label(double value) {
            return format("%,." + decimalsFor(step) + "f", value);
        }

        String percentLabel(double value) {
            return format("%." + decimalsFor(step * 100) + "f%%", value * 100);
        }

        private static int decimalsFor(double step) {
            return (int) Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
        }
    }

    /** Maps an axis onto pixels; {@code from} is where the axis minimum lands. */
    private record Scale(Axis axis, double from, double to) {

        double at(double value) {
            return from + (value - axis.min()) / (axis.max() - axis.min()) * (to - from);
        }
    }

    private static String svgOpen(String cssClass, int width, int height, String description) {
        return format("<svg class=\"%s\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" width=\"%d\""
                + " height=\"%d\" role=\"img\" aria-label=\"%s\" font-size=\"11\">\n",
                cssClass, width, height, width, height, escape(description));
    }

    private static String svgLine(Object x1, Object y1, Object x2, Object y2, String colour) {
        return format("<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"%s\"/>\n", x1, y1, x2, y2, colour);
    }

    private static String svgText(double x, double y, String anchor, String colour, String content) {
        return format("<text x=\"%s\" y=\"%s\" text-anchor=\"%s\" fill=\"%s\">%s</text>\n",
                coordinate(x), coordinate(y), anchor, colour, escape(content));
    }

    private static String verticalTitle(double x, double y, String colour, String content) {
        return format("<text transform=\"translate(%s %s) rotate(-90)\" text-anchor=\"middle\" fill=\"%s\">%s</text>\n",
                coordinate(x), coordinate(y), colour, escape(content));
    }

    private static String marker(double x, double y, String fill, String stroke, String title) {
        return format("<circle cx=\"%s\" cy=\"%s\" r=\"4.5\" fill=\"%s\" stroke=\"%s\" stroke-width=\"2\"><title>%s</title></circle>\n",
                coordinate(x), coordinate(y), fill, stroke, escape(title));
    }

    private static String cell(String content) {
        return "<td>" + content + "</td>";
    }

    /** The i-th label of a label list, or a positional stand-in when the report has fewer labels. */
    private static String label(JsonNode labels, int index) {
        JsonNode label = labels.path(index);
        return label.isValueNode() ? label.asText() : "#" + (index + 1);
    }

    private static String text(JsonNode node) {
        return node.isValueNode() && !node.isNull() ? node.asText() : MISSING;
    }

    /** NaN for anything that is not a JSON number, so the formatters below print {@link #MISSING}. */
    private static double number(JsonNode node) {
        return node.isNumber() ? node.doubleValue() : Double.NaN;
    }

    private static String percent(double fraction) {
        return Double.isFinite(fraction) ? format("%.1f%%", fraction * 100) : MISSING;
    }

    private static String decimal(double value, int decimals) {
        return Double.isFinite(value) ? format("%." + decimals + "f", value) : MISSING;
    }

    private static String whole(double value) {
        return Double.isFinite(value) ? format("%,.0f", value) : MISSING;
    }

    private static String rate(double perSecond) {
        return Double.isFinite(perSecond) ? format(perSecond >= 100 ? "%,.0f" : "%.1f", perSecond) : MISSING;
    }

    private static String seconds(double value) {
        return Double.isFinite(value) ? format("%,.1f s", value) : MISSING;
    }

    private static String coordinate(double value) {
        return format("%.1f", value);
    }

    private static String format(String pattern, Object... arguments) {
        return String.format(Locale.ROOT, pattern, arguments);
    }

}
