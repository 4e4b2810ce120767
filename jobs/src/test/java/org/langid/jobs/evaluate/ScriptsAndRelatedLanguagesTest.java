package org.langid.jobs.evaluate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.langid.jobs.LangidRuns;
import org.langid.model.schema.JsonSchemas;

/**
 * {@code langid evaluate} of a small model of six languages in three scripts (UDHR: es, gl, pt in
 * Latin, ru, uk in Cyrillic, el in Greek), prepared with the scripts alphabet and trained here,
 * against Lingua 1.2.2, which has no Galician: the report's accuracy per script, the confusions
 * inside the two groups of related languages, and the comparison over the languages Lingua knows,
 * each checked against the report's own confusion matrices, in report.json, report.html and the
 * console summary.
 */
class ScriptsAndRelatedLanguagesTest {

    private static final Path UDHR = Path.of("..", "data", "sample", "udhr");
    private static final Path MORE_UDHR = Path.of("src", "test", "resources", "org", "langid", "jobs", "evaluate", "udhr");
    private static final List<String> LANGUAGES = List.of("es", "gl", "pt", "ru", "uk", "el");
    private static final Map<String, String> SCRIPTS = Map.of("es", "Latin", "gl", "Latin", "pt", "Latin", "ru", "Cyrillic",
            "uk", "Cyrillic", "el", "Greek");
    private static final String LINGUA = LinguaCandidate.NAME;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path temp;
    private static JsonNode report;
    private static String printed;
    private static String html;

    @BeforeAll
    static void trainAndEvaluate() throws IOException {
        Path corpus = Files.createDirectories(temp.resolve("corpus"));
        for (String language : LANGUAGES) {
            Path source = Files.exists(MORE_UDHR.resolve(language + ".txt")) ? MORE_UDHR.resolve(language + ".txt") : UDHR.resolve(language + ".txt");
            Files.copy(source, corpus.resolve(language + ".txt"));
        }
        Path prepared = temp.resolve("prepared");
        run("prepare", "--master", "local[2]", "-i", corpus.toString(), "-o", prepared.toString(), "--set", "prepare.alphabet=scripts");
        Path trained = temp.resolve("trained");
        // Small and short on purpose: the related languages must be confused for there to be something to report.
        run("train", "--master", "local[2]", "-i", prepared.toString(), "-o", trained.toString(),
                "--set", "model.languages=[" + String.join(", ", LANGUAGES) + "]", "--set", "model.d_model=16", "--set", "model.heads=2",
                "--set", "model.ffn=32", "--set", "model.ngram_buckets=4096", "--set", "model.ngram_filter_bits=65536",
                "--set", "train.batch_size=32", "--set", "train.max_steps=60");
        Path registry = temp.resolve("registry");
        run("export", "-i", trained.toString(), "--registry", registry.toString());
        Path output = temp.resolve("report");
        // Every split: the test split alone has too few sentences to be confused.
        printed = run("evaluate", "--master", "local[2]", "--model", registry.toString(), "--windows", prepared + "/windows",
                "--sentences", prepared + "/sentences", "--peer", "lingua", "--max-windows", "6000", "--threads", "2",
                "-o", output.toString());
        report = JSON.readTree(output.resolve("report.json").toFile());
        html = Files.readString(output.resolve("report.html"));
        System.out.println(printed);
    }

    @Test
    void eachLanguagesScriptIsCountedFromItsSentences() {
        assertEquals(List.of(), JsonSchemas.problems(EvaluateJob.SCHEMA_FILE, report));
        assertEquals("sentences", report.path("scripts_counted_from").asText());
        assertEquals(LANGUAGES, texts(report.path("languages")));
        for (JsonNode entry : report.path("language_scripts")) {
            String language = entry.path("language").asText();
            assertEquals(SCRIPTS.get(language), entry.path("script").asText(), entry.toString());
            assertTrue(entry.path("share").asDouble() > 0.9 && entry.path("letters").asLong() > 1000, entry.toString());
        }
    }

    @Test
    void accuracyPerScriptSumsTheConfusionMatrixOverTheScriptsLanguages() {
        for (JsonNode detector : report.path("detectors")) {
            for (String level : EvaluateJob.LEVELS) {
                JsonNode scores = detector.path(level);
                JsonNode perScript = scores.path("per_script");
                assertEquals(List.of("Latin", "Cyrillic", "Greek"), perScript.findValuesAsText("script"), detector.path("name") + " " + level);
                long total = 0;
                for (JsonNode script : perScript) {
                    long count = 0;
                    long correct = 0;
                    for (String language : texts(script.path("languages"))) {
                        assertEquals(SCRIPTS.get(language), script.path("script").asText());
                        int i = LANGUAGES.indexOf(language);
                        for (JsonNode cell : scores.path("confusion").path(i)) {
                            count += cell.asLong();
                        }
                        correct += scores.path("confusion").path(i).path(i).asLong();
                    }
                    assertEquals(count, script.path("count").asLong(), script.toString());
                    assertEquals(correct, script.path("correct").asLong(), script.toString());
                    assertEquals((double) correct / count, script.path("accuracy").asDouble(), 1e-12);
                    total += count;
                }
                assertEquals(scores.path("count").asLong(), total, "every item in one script");
            }
        }
        assertEquals(12, lines(printed, "(script: ").size(), "a row per script at each of the four levels: " + printed);
        assertTrue(printed.contains("(script: es, gl, pt)") && printed.contains("(script: ru, uk)") && printed.contains("(script: el)"), printed);
        assertTrue(html.contains("<h2>Accuracy per script</h2>"), "the page has the table");
        String table = html.substring(html.indexOf("<h2>Accuracy per script</h2>"));
        table = table.substring(0, table.indexOf("</table>"));
        assertEquals(3, occurrences(table, "<div class=\"description\">"), "one row per script, its languages beneath it");
        assertTrue(table.contains("Cyrillic<div class=\"description\">ru, uk</div>"), table);
    }

    @Test
    void confusionsInsideEachGroupOfRelatedLanguagesAreTheMatrixAmongItsMembers() {
        long modelWindowsInGroup = 0;
        for (JsonNode detector : report.path("detectors")) {
            for (String level : EvaluateJob.LEVELS) {
                JsonNode scores = detector.path(level);
                JsonNode related = scores.path("related");
                assertEquals(List.of("East and South Slavic (Cyrillic)", "Ibero-Romance"), related.findValuesAsText("group"),
                        "only the groups with two of the model's languages, in the order of the list");
                for (JsonNode group : related) {
                    List<String> members = texts(group.path("languages"));
                    assertEquals(group.path("group").asText().startsWith("Ibero") ? List.of("es", "gl", "pt") : List.of("ru", "uk"), members);
                    long errors = 0;
                    long inGroup = 0;
                    for (int r = 0; r < members.size(); r++) {
                        int t = LANGUAGES.indexOf(members.get(r));
                        long memberInGroup = 0;
                        for (int c = 0; c < members.size(); c++) {
                            int p = LANGUAGES.indexOf(members.get(c));
                            long count = scores.path("confusion").path(t).path(p).asLong();
                            assertEquals(count, group.path("confusion").path(r).path(c).asLong(), members.get(r) + " as " + members.get(c));
                            if (t != p) {
                                memberInGroup += count;
                            }
                        }
                        JsonNode member = group.path("per_language").path(r);
                        long memberErrors = scores.path("per_language").path(t).path("support").asLong()
                                - scores.path("confusion").path(t).path(t).asLong();
                        assertEquals(members.get(r), member.path("language").asText());
                        assertEquals(memberErrors, member.path("errors").asLong());
                        assertEquals(memberInGroup, member.path("in_group").asLong());
                        assertEquals(memberErrors == 0, !member.has("in_group_share"));
                        errors += memberErrors;
                        inGroup += memberInGroup;
                    }
                    assertEquals(errors, group.path("errors").asLong());
                    assertEquals(inGroup, group.path("in_group").asLong());
                    long paired = 0;
                    for (JsonNode pair : group.path("pairs")) {
                        assertTrue(members.contains(pair.path("expected").asText()) && members.contains(pair.path("predicted").asText()));
                        paired += pair.path("count").asLong();
                        JsonNode examples = pair.path("examples");
                        assertTrue(examples.size() >= 1 && examples.size() <= 3, pair.toString());
                        List<String> kept = keptExamples(scores, pair.path("expected").asText(), pair.path("predicted").asText());
                        assertEquals(kept.subList(0, examples.size()), texts(examples), "the first of the errors' examples");
                        if (level.equals("windows")) {
                            examples.forEach(e -> assertEquals(16, e.asText().length(), "a window as prepare cut it: " + e));
                        }
                    }
                    assertEquals(inGroup, paired, "every confused pair is listed");
                    if (level.equals("windows") && detector.path("name").asText().equals("langid")) {
                        modelWindowsInGroup += inGroup;
                    }
                }
            }
        }
        assertTrue(modelWindowsInGroup > 0, "a small model confuses related languages' windows");
        List<String> relatedLines = lines(printed, "related ");
        assertEquals(2, relatedLines.size(), "one console line per group: " + printed);
        assertTrue(relatedLines.get(1).startsWith("related Ibero-Romance (es, gl, pt), errors inside the group: windows: langid "), relatedLines.get(1));
        assertTrue(relatedLines.get(1).contains("; sentences: langid ") && relatedLines.get(1).contains(", " + LINGUA + " "), relatedLines.get(1));
        assertTrue(html.contains("<h2>Closely related languages</h2>"));
        assertTrue(html.contains("<h3>Ibero-Romance: es, gl, pt</h3>") && html.contains("<h3>East and South Slavic (Cyrillic): ru, uk</h3>"));
        assertEquals(16, occurrences(html, "<details class=\"related\">"), "two groups, two detectors, four levels");
    }

    @Test
    void linguaNamesTheLanguageItLacksAndIsComparedOverTheOthers() {
        JsonNode model = report.path("detectors").path(0);
        JsonNode lingua = report.path("detectors").path(1);
        assertEquals(LINGUA, lingua.path("name").asText());
        assertEquals(List.of("gl"), texts(lingua.path("unknown_languages")));
        assertFalse(model.has("unknown_languages"));
        int gl = LANGUAGES.indexOf("gl");
        for (String level : EvaluateJob.LEVELS) {
            JsonNode theirs = lingua.path(level);
            JsonNode ours = model.path(level);
            for (JsonNode row : theirs.path("confusion")) {
                assertEquals(0, row.path(gl).asLong(), "Lingua never answers gl");
            }
            JsonNode shared = theirs.path("shared");
            assertEquals(List.of("es", "pt", "ru", "uk", "el"), texts(shared.path("languages")));
            long count = 0;
            long correct = 0;
            long modelCorrect = 0;
            for (int i = 0; i < LANGUAGES.size(); i++) {
                if (i != gl) {
                    count += theirs.path("per_language").path(i).path("support").asLong();
                    correct += theirs.path("confusion").path(i).path(i).asLong();
                    modelCorrect += ours.path("confusion").path(i).path(i).asLong();
                }
            }
            assertTrue(count > 0 && count < theirs.path("count").asLong());
            assertEquals(count, shared.path("count").asLong());
            assertEquals(correct, shared.path("correct").asLong());
            assertEquals((double) correct / count, shared.path("accuracy").asDouble(), 1e-12);
            assertEquals(modelCorrect, shared.path("model_correct").asLong());
            assertEquals((double) modelCorrect / count, shared.path("model_accuracy").asDouble(), 1e-12);
            JsonNode lead = shared.path("model_lead");
            assertEquals((double) (modelCorrect - correct) / count, lead.path("accuracy_difference").asDouble(), 1e-12);
            assertTrue(lead.path("interval_95").path(0).asDouble() <= lead.path("interval_95").path(1).asDouble());
            assertEquals(level.equals("windows") ? "sentence" : "item", lead.path("clustered_by").asText());
            assertTrue(lead.path("clusters").asLong() < theirs.path("model_lead").path("clusters").asLong(), "gl's sentences left out");
        }
        assertTrue(printed.contains(LINGUA + " does not know gl: their items count as its errors"), printed);
        assertEquals(4, lines(printed, "over the 5 languages " + LINGUA + " knows").size(), printed);
        assertTrue(html.contains("<h2>Over the languages each peer knows</h2>"));
        assertEquals(4, occurrences(html, "<td class=\"unknown\""), "gl's cells of Lingua at each level");
    }

    /** The examples report.json keeps of a pair among all the level's errors. */
    private static List<String> keptExamples(JsonNode scores, String expected, String predicted) {
        for (JsonNode pair : scores.path("errors")) {
            if (pair.path("expected").asText().equals(expected) && pair.path("predicted").asText().equals(predicted)) {
                return texts(pair.path("examples"));
            }
        }
        throw new AssertionError("no errors entry for " + expected + " as " + predicted);
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(node -> out.add(node.asText()));
        return out;
    }

    private static List<String> lines(String text, String containing) {
        return text.lines().filter(line -> line.contains(containing)).toList();
    }

    private static int occurrences(String text, String fragment) {
        int count = 0;
        for (int at = text.indexOf(fragment); at >= 0; at = text.indexOf(fragment, at + fragment.length())) {
            count++;
        }
        return count;
    }

    /** Runs a langid command; returns what it printed. */
    private static String run(String... args) {
        return LangidRuns.output(args);
    }
}
