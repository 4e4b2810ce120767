package org.langid.jobs.evaluate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.lang.Character.UnicodeScript;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.langid.model.schema.JsonSchemas;

class ConfusionScoresTest {

    private static final List<String> LANGUAGES = List.of("es", "pt", "it");

    @Test
    void scoresFollowTheConfusionMatrix() {
        ConfusionScores scores = new ConfusionScores(LANGUAGES, true);
        // es: 3 right, 1 as pt; pt: 2 right, 1 declined; it: 1 right.
        scores.add(new int[] {0, 0, 0, 0, 1, 1, 1, 2}, new int[] {0, 0, 0, 1, 1, 1, 3, 2});
        assertEquals(8, scores.total());
        assertEquals(6, scores.correct());
        assertEquals(0.75, scores.accuracy(), 1e-12);
        assertEquals(3 / 4.0, scores.recall(0), 1e-12);
        assertEquals(2 / 3.0, scores.precision(1), 1e-12);
        assertEquals(List.of("es", "pt", "it", "und"), scores.predictedLabels());
        assertFalse(scores.toJson(1).has("errors"), "no texts given, no examples");
    }

    @Test
    void keepsAFewSpreadOutExamplesOfEveryConfusionCommonestFirst() {
        int n = 10_000;
        int[] truth = new int[n];
        int[] predicted = new int[n];
        for (int i = 0; i < n; i++) {
            truth[i] = i % 2 == 0 ? 0 : 1;
            // es read as pt for a run of 1,000 neighbouring items; pt read as es 3 times.
            predicted[i] = truth[i] == 0 && i >= 4000 && i < 6000 ? 1 : truth[i];
        }
        predicted[1] = 0;
        predicted[3] = 0;
        predicted[9999] = 0;
        List<Integer> asked = new ArrayList<>();
        ConfusionScores scores = new ConfusionScores(LANGUAGES, false);
        scores.add(truth, predicted, i -> {
            asked.add(i);
            return "item " + i;
        });

        JsonNode json = scores.toJson(2.0);
        JsonNode errors = json.get("errors");
        assertEquals(2, errors.size());
        JsonNode first = errors.get(0);
        assertEquals("es", first.get("expected").asText());
        assertEquals("pt", first.get("predicted").asText());
        assertEquals(1000, first.get("count").asInt());
        assertEquals(ConfusionScores.EXAMPLES_PER_PAIR, first.get("examples").size());
        Set<Integer> indices = new HashSet<>();
        int previous = -1;
        for (JsonNode example : first.get("examples")) {
            int index = Integer.parseInt(example.asText().substring(5));
            assertTrue(index >= 4000 && index < 6000 && index % 2 == 0, "an es item read as pt: " + index);
            assertTrue(index > previous, "examples in item order");
            previous = index;
            indices.add(index);
        }
        int span = previous - Integer.parseInt(first.get("examples").get(0).asText().substring(5));
        assertTrue(span > 200, "examples spread over the run of errors, not its first neighbours: span " + span);
        JsonNode second = errors.get(1);
        assertEquals("pt", second.get("expected").asText());
        assertEquals(3, second.get("count").asInt());
        assertEquals(List.of("item 1", "item 3", "item 9999"), texts(second));
        assertTrue(asked.size() < 200, "texts are made for candidates only, not for all 1,003 errors: " + asked.size());

        // The same items on a second run.
        ConfusionScores again = new ConfusionScores(LANGUAGES, false);
        again.add(truth, predicted, i -> "item " + i);
        assertEquals(errors, again.toJson(2.0).get("errors"));
    }

    @Test
    void theLevelWithErrorsIsAValidReportLevel() {
        ConfusionScores scores = new ConfusionScores(LANGUAGES, true);
        scores.add(new int[] {0, 1, 2}, new int[] {1, 3, 2}, i -> "text " + i);
        var report = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        report.put("format_version", 1).put("created", "2026-11-21T12:00:00Z");
        report.putObject("model").put("version", "v").put("path", "models");
        report.putObject("data").put("input", "in");
        LANGUAGES.forEach(report.putArray("languages")::add);
        var detector = report.putArray("detectors").addObject().put("name", "langid").put("description", "d");
        detector.set("windows", scores.toJson(1));
        JsonSchemas.requireValid(EvaluateJob.SCHEMA_FILE, report, "the evaluation report");
        assertEquals("und", scores.toJson(1).get("errors").get(1).get("predicted").asText());
    }

    @Test
    void aGroupOfRelatedLanguagesGetsItsConfusionsItsShareOfErrorsAndThreeExamplesAPair() {
        List<String> languages = List.of("es", "en", "pt", "gl");
        ConfusionScores scores = new ConfusionScores(languages, true);
        // es: 2 right, 5 as pt, 1 as en, 1 declined; pt: 1 right, 1 as gl; gl: 1 right; en: 1 right.
        int[] truth = {0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 3, 1};
        int[] predicted = {0, 2, 2, 0, 2, 2, 2, 1, 4, 2, 3, 3, 1};
        scores.add(truth, predicted, i -> "text " + i);
        JsonNode group = scores.relatedJson(RelatedLanguages.among(languages)).get(0);
        assertEquals("Ibero-Romance", group.get("group").asText());
        assertEquals(List.of("es", "pt", "gl"), strings(group.get("languages")));
        assertEquals("[[2,5,0],[0,1,1],[0,0,1]]", group.get("confusion").toString());
        assertEquals(8, group.get("errors").asLong(), "es's 7 and pt's 1");
        assertEquals(6, group.get("in_group").asLong());
        assertEquals(6 / 8.0, group.get("in_group_share").asDouble(), 1e-12);
        JsonNode es = group.get("per_language").get(0);
        assertEquals(7, es.get("errors").asLong());
        assertEquals(5, es.get("in_group").asLong());
        assertEquals(5 / 7.0, es.get("in_group_share").asDouble(), 1e-12);
        assertFalse(group.get("per_language").get(2).has("in_group_share"), "gl made no error");
        JsonNode pairs = group.get("pairs");
        assertEquals(2, pairs.size());
        assertEquals("es", pairs.get(0).get("expected").asText());
        assertEquals("pt", pairs.get(0).get("predicted").asText());
        assertEquals(5, pairs.get(0).get("count").asLong());
        assertEquals(ConfusionScores.RELATED_EXAMPLES, pairs.get(0).get("examples").size());
        List<String> kept = texts(scores.toJson(1).get("errors").get(0));
        assertEquals(kept.subList(0, 3), strings(pairs.get(0).get("examples")), "the first three of the five the errors keep");
        assertEquals(List.of("text 10"), texts(pairs.get(1)));

        JsonNode scripts = scores.perScriptJson(List.of(UnicodeScript.LATIN, UnicodeScript.CYRILLIC, UnicodeScript.LATIN, UnicodeScript.LATIN),
                List.of(UnicodeScript.LATIN, UnicodeScript.CYRILLIC));
        assertEquals("Latin", scripts.get(0).get("script").asText());
        assertEquals(List.of("es", "pt", "gl"), strings(scripts.get(0).get("languages")));
        assertEquals(12, scripts.get(0).get("count").asLong());
        assertEquals(4, scripts.get(0).get("correct").asLong());
        assertEquals(1.0, scripts.get(1).get("accuracy").asDouble());

        var level = scores.toJson(1);
        level.set("per_script", scripts);
        level.set("related", scores.relatedJson(RelatedLanguages.among(languages)));
        var report = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        report.put("format_version", 1).put("created", "2026-11-21T12:00:00Z");
        report.putObject("model").put("version", "v").put("path", "models");
        report.putObject("data").put("input", "in");
        languages.forEach(report.putArray("languages")::add);
        report.putArray("detectors").addObject().put("name", "langid").put("description", "d").set("windows", level);
        assertEquals(List.of(), JsonSchemas.problems(EvaluateJob.SCHEMA_FILE, report));
        ((com.fasterxml.jackson.databind.node.ObjectNode) level.get("related").get(0)).put("unexpected", 1);
        assertFalse(JsonSchemas.problems(EvaluateJob.SCHEMA_FILE, report).isEmpty(), "the group's fields are closed");
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(e -> out.add(e.asText()));
        return out;
    }

    private static List<String> texts(JsonNode pair) {
        List<String> texts = new ArrayList<>();
        pair.get("examples").forEach(e -> texts.add(e.asText()));
        return texts;
    }
}
