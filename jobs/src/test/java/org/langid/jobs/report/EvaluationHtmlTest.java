package org.langid.jobs.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

class EvaluationHtmlTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String[] LANGUAGES = {"en", "de", "fr"};
    private static final String HOSTILE_PATH = "<script>alert(1)</script>";

    @Test
    void twoDetectorsWithTrainingRenderEveryHeatmapEscapedAndWithoutNaN() {
        ObjectNode report = report();
        ObjectNode langid = detectors(report).addObject()
                .put("name", "langid").put("description", "this model");
        // The "fr" row has no samples at all: its shares must not divide by zero.
        langid.set("windows", level(0.875, new int[][] {{35, 5, 0}, {0, 40, 0}, {0, 0, 0}}, LANGUAGES));
        langid.set("sentences", level(0.9, new int[][] {{9, 1, 0}, {0, 10, 0}, {0, 0, 0}}, LANGUAGES));
        ObjectNode lingua = detectors(report).addObject()
                .put("name", "lingua-1.2.2").put("description", "Lingua \"high\" & <b>restricted</b>");
        String[] withDeclined = {"en", "de", "fr", "und"};
        lingua.set("windows", level(0.8, new int[][] {{30, 5, 0, 5}, {0, 34, 0, 6}, {0, 0, 0, 0}}, withDeclined));
        lingua.set("sentences", level(0.85, new int[][] {{8, 1, 0, 1}, {0, 9, 0, 1}, {0, 0, 0, 0}}, withDeclined));
        ObjectNode lead = ((ObjectNode) lingua.get("windows")).putObject("model_lead").put("model", "langid")
                .put("accuracy_difference", 0.075).put("clusters", 12).put("clustered_by", "sentence").put("resamples", 1000);
        lead.putArray("interval_95").add(-0.0125).add(0.15);
        ArrayNode records = report.putObject("training").put("source", "models/v1/metrics.jsonl").putArray("records");
        records.addObject().put("kind", "round").put("epoch", 1).put("round", 1).put("step", 20).put("loss", 2.01)
                .put("samples_per_second", 2500).put("wall_seconds", 2.0);
        records.addObject().put("kind", "round").put("epoch", 1).put("round", 2).put("step", 40).put("loss", 1.2)
                .put("samples_per_second", 2500).put("wall_seconds", 4.0);
        records.addObject().put("kind", "epoch").put("epoch", 1).put("step", 40).put("loss", 1.4)
                .put("samples_per_second", 2600).put("wall_seconds", 4.5)
                .put("validation_accuracy", 0.84).put("validation_loss", 0.5);

        String html = EvaluationHtml.render(report);

        assertTrue(html.startsWith("<!DOCTYPE html>"));
        assertEquals(4, occurrences(html, "<table class=\"heatmap\">"), "one heatmap per detector and level");
        assertEquals(4, occurrences(html, "<svg class=\"metric-bars\""), "one bar chart per detector and level");
        assertEquals(12, occurrences(html, "class=\"cell diagonal"), "each language's own cell is highlighted");
        assertEquals(2, occurrences(html, "class=\"declined\""), "lingua's und column, windows and sentences");
        assertEquals(1, occurrences(html, "<svg class=\"training-chart\""));
        assertTrue(html.contains("87.5%") && html.contains("80.0%"), "window accuracies as percentages");
        assertTrue(html.contains("+7.5 pt"), "langid minus lingua window accuracy");
        assertTrue(html.contains("<h2>The model against each peer</h2>"));
        assertTrue(html.contains("<td>+7.50 pt (-1.25 to +15.00; 12 sentences)</td><td>–</td>"),
                "the windows' lead with its interval; the sentences have none in this report");
        assertTrue(html.contains("true en, predicted de: 5 of 40 (12.5%)"), "cells are shares of their row");
        assertTrue(html.contains("true fr, predicted fr: 0 of 0 (–)"), "an empty row has no share");

        assertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assertFalse(html.contains("<script"), "the model path is escaped, never raw");
        assertTrue(html.contains("Lingua &quot;high&quot; &amp; &lt;b&gt;restricted&lt;/b&gt;"));
        assertFalse(html.contains("<b>"));

        assertFalse(html.contains("NaN"));
        assertFalse(html.contains("Infinity"));
        String withoutSvgNamespace = html.replace("http://www.w3.org/2000/svg", "");
        assertFalse(withoutSvgNamespace.contains("http://") || withoutSvgNamespace.contains("https://"),
                "the page fetches nothing");
    }

    @Test
    void optionalSectionsAreSkippedWhenTheReportHasNoTrainingAndNoSentences() {
        ObjectNode report = report();
        detectors(report).addObject().put("name", "langid").put("description", "this model")
                .set("windows", level(0.875, new int[][] {{35, 5, 0}, {0, 40, 0}, {0, 0, 0}}, LANGUAGES));

        String html = EvaluationHtml.render(report);

        assertEquals(1, occurrences(html, "<table class=\"heatmap\">"));
        assertFalse(html.contains("training-chart"));
        assertFalse(html.contains("<h2>Training</h2>"));
        assertFalse(html.contains("<h3>Sentences</h3>"));
        assertFalse(html.contains("Sentences: accuracy"));
        assertFalse(html.contains("<h2>Calibration</h2>"), "nothing calibrated");
        assertFalse(html.contains("class=\"difference\""), "no difference row for a single detector");
        assertFalse(html.contains("The model against each peer"), "nor a peer to lead");
        assertFalse(html.contains("NaN"));
        assertTrue(html.endsWith("</html>\n"));
    }

    @Test
    void misclassifiedExamplesAreListedCommonestFirstEscapedAndWithTheirSpaces() {
        ObjectNode report = report();
        ObjectNode langid = detectors(report).addObject().put("name", "langid").put("description", "this model");
        ObjectNode windows = level(0.875, new int[][] {{35, 5, 0}, {1, 39, 0}, {0, 0, 0}}, LANGUAGES);
        ArrayNode errors = windows.putArray("errors");
        ObjectNode enAsDe = errors.addObject().put("expected", "en").put("predicted", "de").put("count", 5);
        enAsDe.putArray("examples").add(" Kindergarten is").add("<b>bold</b> & co");
        errors.addObject().put("expected", "de").put("predicted", "en").put("count", 1).putArray("examples").add("Computer  ");
        langid.set("windows", windows);

        String html = EvaluationHtml.render(report);

        assertEquals(1, occurrences(html, "<table class=\"errors\">"));
        assertTrue(html.contains("the 2 commonest of 2 confusions"));
        assertTrue(html.indexOf("<code> Kindergarten is</code>") < html.indexOf("<code>Computer  </code>"),
                "en read as de (5) before de read as en (1), texts verbatim with their spaces");
        assertTrue(html.contains("<code>&lt;b&gt;bold&lt;/b&gt; &amp; co</code>"));
        assertFalse(html.contains("<b>bold"));
    }

    @Test
    void scriptsRelatedLanguagesAndAPeersUnknownLanguagesHaveTheirSections() {
        ObjectNode report = report();
        report.put("scripts_counted_from", "sentences");
        ObjectNode langid = detectors(report).addObject().put("name", "langid").put("description", "this model");
        ObjectNode lingua = detectors(report).addObject().put("name", "lingua-1.2.2").put("description", "Lingua");
        lingua.putArray("unknown_languages").add("fr");
        for (ObjectNode detector : new ObjectNode[] {langid, lingua}) {
            ObjectNode windows = level(0.8, new int[][] {{30, 10, 0}, {4, 36, 0}, {0, 0, 0}}, LANGUAGES);
            ArrayNode scripts = windows.putArray("per_script");
            ObjectNode latin = scripts.addObject().put("script", "Latin").put("count", 80).put("correct", 66).put("accuracy", 0.825);
            latin.putArray("languages").add("en").add("de");
            ObjectNode greek = scripts.addObject().put("script", "<Greek>").put("count", 0).put("correct", 0).put("accuracy", 0);
            greek.putArray("languages").add("fr");
            ObjectNode group = windows.putArray("related").addObject().put("group", "West & <Germanic>").put("errors", 14)
                    .put("in_group", 14).put("in_group_share", 1.0);
            group.putArray("languages").add("en").add("de");
            group.putArray("confusion").add(JSON.createArrayNode().add(30).add(10)).add(JSON.createArrayNode().add(4).add(36));
            group.putArray("per_language").add(JSON.createObjectNode().put("language", "en").put("errors", 10).put("in_group", 10)
                    .put("in_group_share", 1.0)).add(JSON.createObjectNode().put("language", "de").put("errors", 4).put("in_group", 4)
                    .put("in_group_share", 1.0));
            ObjectNode pair = group.putArray("pairs").addObject().put("expected", "en").put("predicted", "de").put("count", 10);
            pair.putArray("examples").add("<i>Kindergarten</i>");
            detector.set("windows", windows);
        }
        ObjectNode shared = ((ObjectNode) lingua.get("windows")).putObject("shared").put("count", 80).put("correct", 60)
                .put("accuracy", 0.75).put("model_correct", 66).put("model_accuracy", 0.825);
        shared.putArray("languages").add("en").add("de");

        String html = EvaluationHtml.render(report);

        assertTrue(html.contains("<h2>Accuracy per script</h2>"));
        assertTrue(html.contains("<td>Latin<div class=\"description\">en, de</div></td><td>82.5%</td><td>82.5%</td>"), "both detectors' accuracy");
        assertTrue(html.contains("&lt;Greek&gt;") && !html.contains("<Greek>"), "script names are escaped");
        assertTrue(html.contains("letters of its sentences here"));
        assertTrue(html.contains("<h3>West &amp; &lt;Germanic&gt;: en, de</h3>"));
        assertTrue(html.contains("<td>10 of 10 (100.0%)</td><td>4 of 4 (100.0%)</td><td><strong>14 of 14 (100.0%)</strong></td>"));
        assertEquals(2, occurrences(html, "<details class=\"related\">"), "one per detector and level");
        assertTrue(html.contains("<code>&lt;i&gt;Kindergarten&lt;/i&gt;</code>") && !html.contains("<i>Kindergarten"));
        assertTrue(html.contains("<h2>Over the languages each peer knows</h2>"));
        assertTrue(html.contains("<td class=\"unknown-languages\">fr</td><td>windows</td><td>2</td><td>80</td><td>82.5%</td><td>75.0%</td><td>–</td>"),
                "the model and the peer over en and de; no interval given");
        assertEquals(1, occurrences(html, "<td class=\"unknown\""), "Lingua's fr cell, windows only");
        assertFalse(html.contains("NaN"));
    }

    @Test
    void shortLevelsAndCalibrationHaveTheirColumnsAndAPeerWithoutProbabilitiesSaysWhy() {
        ObjectNode report = report();
        ObjectNode cut = ((ObjectNode) report.get("data")).putObject("short_items").put("min_letters", 4).put("seed", 7)
                .put("max_per_level", 20000);
        cut.putArray("unspaced_piece_letters").add(2).add(4);
        cut.putObject("word_pairs").put("cut", 80).put("scored", 80).put("sentences_without", 0);
        cut.putObject("single_words").put("cut", 80).put("scored", 80).put("sentences_without", 0);
        ObjectNode langid = detectors(report).addObject().put("name", "langid").put("description", "this model");
        ObjectNode lingua = detectors(report).addObject().put("name", "lingua-1.2.2").put("description", "Lingua")
                .put("no_calibration", "its values are <not> probabilities");
        for (ObjectNode detector : new ObjectNode[] {langid, lingua}) {
            detector.set("sentences", level(0.9, new int[][] {{36, 4, 0}, {4, 36, 0}, {0, 0, 0}}, LANGUAGES));
            detector.set("word_pairs", level(0.8, new int[][] {{32, 8, 0}, {8, 32, 0}, {0, 0, 0}}, LANGUAGES));
            detector.set("single_words", level(0.7, new int[][] {{28, 12, 0}, {12, 28, 0}, {0, 0, 0}}, LANGUAGES));
        }
        ObjectNode calibration = ((ObjectNode) langid.get("word_pairs")).putObject("calibration").put("bins", 10).put("ece", 0.0512)
                .put("count", 80).put("declined", 0).put("mean_confidence", 0.8512).put("accuracy", 0.8);
        ArrayNode bins = calibration.putArray("per_bin");
        for (int b = 0; b < 10; b++) {
            ObjectNode bin = bins.addObject().put("from", b / 10.0).put("to", (b + 1) / 10.0).put("count", b == 8 ? 80 : 0);
            if (b == 8) {
                bin.put("mean_confidence", 0.8512).put("accuracy", 0.8);
            }
        }
        ObjectNode lead = ((ObjectNode) lingua.get("single_words")).putObject("model_lead").put("model", "langid")
                .put("accuracy_difference", -0.05).put("clusters", 80).put("clustered_by", "item").put("resamples", 1000);
        lead.putArray("interval_95").add(-0.09).add(-0.01);

        String html = EvaluationHtml.render(report);

        assertTrue(html.contains("<th>Word pairs: accuracy</th><th>Word pairs: macro-F1</th><th>Single words: accuracy</th>"));
        assertTrue(html.contains("<h3>Word pairs</h3>") && html.contains("<h3>Single words</h3>"));
        assertTrue(html.contains("<td>-5.00 pt (-9.00 to -1.00; 80 single words)</td>"), "a short level's lead counts its items");
        assertTrue(html.contains("80 word pairs and 80 single words cut from the sentences"));
        assertTrue(html.contains("<h2>Calibration</h2>"));
        assertTrue(html.contains("<th>Word pairs: ECE</th>") && html.contains("<td>0.0512 "), "the model's ECE where it has one");
        assertEquals(1, occurrences(html, "<td class=\"no-probability\">no probability</td>"), "Lingua's cell");
        assertTrue(html.contains("its values are &lt;not&gt; probabilities"), "and why, escaped");
        assertTrue(html.contains("calibration error (ECE) 0.0512") && html.contains("<td>0.8–0.9</td><td class=\"count\">80</td>"),
                "the detector's section gives the ECE and its bins");
        assertEquals(6, occurrences(html, "<table class=\"heatmap\">"), "two detectors, three levels");
        assertFalse(html.contains("NaN"));
    }

    private static ObjectNode report() {
        ObjectNode report = JSON.createObjectNode().put("format_version", 1).put("created", "2026-11-21T10:00:00Z");
        report.putObject("model").put("version", "20261121-abc123").put("path", HOSTILE_PATH);
        report.putObject("data").put("input", "work/pipeline/prepared").put("split", "test");
        ArrayNode languages = report.putArray("languages");
        for (String language : LANGUAGES) {
            languages.add(language);
        }
        report.putArray("detectors");
        return report;
    }

    private static ArrayNode detectors(ObjectNode report) {
        return (ArrayNode) report.get("detectors");
    }

    /** One level's metrics; the per-language figures are placeholders except the empty row's NaN precision. */
    private static ObjectNode level(double accuracy, int[][] confusion, String[] predictedLabels) {
        ObjectNode level = JSON.createObjectNode().put("count", 80).put("correct", (int) Math.round(80 * accuracy))
                .put("accuracy", accuracy).put("macro_f1", accuracy - 0.01).put("seconds", 1.5).put("per_second", 53.3);
        ArrayNode labels = level.putArray("predicted_labels");
        for (String label : predictedLabels) {
            labels.add(label);
        }
        ArrayNode rows = level.putArray("confusion");
        for (int[] row : confusion) {
            ArrayNode counts = rows.addArray();
            for (int count : row) {
                counts.add(count);
            }
        }
        ArrayNode perLanguage = level.putArray("per_language");
        for (String language : LANGUAGES) {
            boolean empty = language.equals("fr");
            perLanguage.addObject().put("language", language).put("precision", empty ? Double.NaN : 0.9)
                    .put("recall", empty ? 0 : 0.8).put("f1", empty ? 0 : 0.85).put("support", empty ? 0 : 40);
        }
        return level;
    }

    private static int occurrences(String text, String fragment) {
        int count = 0;
        for (int at = text.indexOf(fragment); at >= 0; at = text.indexOf(fragment, at + fragment.length())) {
            count++;
        }
        return count;
    }
}
