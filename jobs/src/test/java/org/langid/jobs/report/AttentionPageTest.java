package org.langid.jobs.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.langid.jobs.report.AttentionPage.Window;

class AttentionPageTest {

    private static final List<String> LANGUAGES = List.of("en", "de", "fr");
    private static final int LAYERS = 2;
    private static final int HEADS = 2;
    private static final String SCRIPT_INJECTION = "</script><script>alert(1)</script>";
    private static final Pattern DATA_ELEMENT =
            Pattern.compile("<script type=\"application/json\" id=\"attention-data\">(.*?)</script>", Pattern.DOTALL);

    /** Seeded softmax-like rows (each sums to 1), so a transposed or shifted index would be caught. */
    private static float[][][][] attention(int length, long seed) {
        Random random = new Random(seed);
        float[][][][] attention = new float[LAYERS][HEADS][length][length];
        for (float[][][] layer : attention) {
            for (float[][] head : layer) {
                for (float[] row : head) {
                    float sum = 0;
                    for (int key = 0; key < length; key++) {
                        row[key] = random.nextFloat() + 0.01f;
                        sum += row[key];
                    }
                    for (int key = 0; key < length; key++) {
                        row[key] /= sum;
                    }
                }
            }
        }
        return attention;
    }

    /** Window 0 "the " (T=4) with a hand-set row, window 1 "he" plus space (T=3, a padded tail window). */
    private static List<Window> windows() {
        float[][][][] first = attention(4, 1);
        first[1][0][2] = new float[] {0.1f, 0.2f, 0.3f, 0.4f};
        return List.of(
                new Window(0, "the ", first, new double[] {0.7, 0.2, 0.1}),
                new Window(1, "he ", attention(3, 2), new double[] {0.3, 0.6, 0.1}));
    }

    private static String render(List<Window> windows, double[] combined) {
        return AttentionPage.render("The  cat", "the cat", LANGUAGES, windows, "v1-test", combined);
    }

    private static JsonNode embeddedData(String page) throws Exception {
        Matcher data = DATA_ELEMENT.matcher(page);
        assertTrue(data.find(), "the page embeds its data in the attention-data script element");
        return new ObjectMapper().readTree(data.group(1));
    }

    private static int count(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
            count++;
        }
        return count;
    }

    @Test
    void embedsTheExactWeightsAndCharactersAsJson() throws Exception {
        List<Window> windows = windows();
        String page = render(windows, new double[] {0.5, 0.4, 0.1});

        assertTrue(page.startsWith("<!DOCTYPE html>"));
        JsonNode data = embeddedData(page);
        assertEquals(0.4f, (float) data.at("/windows/0/attention/1/0/2/3").doubleValue());
        assertEquals(LANGUAGES, new ObjectMapper().convertValue(data.get("languages"), List.class));
        for (int index = 0; index < windows.size(); index++) {
            Window window = windows.get(index);
            JsonNode node = data.at("/windows/" + index);
            assertEquals(window.characters(), node.get("characters").asText());
            assertEquals(window.start(), node.get("start").asInt());
            float[][][][] expected = window.attention();
            for (int layer = 0; layer < LAYERS; layer++) {
                for (int head = 0; head < HEADS; head++) {
                    for (int query = 0; query < expected[layer][head].length; query++) {
                        for (int key = 0; key < expected[layer][head][query].length; key++) {
                            JsonNode weight = node.get("attention").get(layer).get(head).get(query).get(key);
                            assertEquals(expected[layer][head][query][key], (float) weight.doubleValue(),
                                    "window " + index + " [" + layer + "][" + head + "][" + query + "][" + key + "]");
                        }
                    }
                }
            }
        }
    }

    @Test
    void userTextCannotEndTheScriptElement() throws Exception {
        List<String> languages = List.of("en", "de", SCRIPT_INJECTION);
        String page = AttentionPage.render(SCRIPT_INJECTION, SCRIPT_INJECTION, languages, windows(),
                SCRIPT_INJECTION, new double[] {0.2, 0.3, 0.5});

        assertFalse(page.contains(SCRIPT_INJECTION));
        assertFalse(page.contains("<script>alert"));
        assertEquals(2, count(page, "<script"), "only the data element and the page's own script");
        assertEquals(SCRIPT_INJECTION, embeddedData(page).at("/languages/2").asText(),
                "the escaped JSON still reads back as the original text");
    }

    @Test
    void staticFallbackDrawsEveryQueryKeyPairOfEachHeadOfLayerZero() {
        String page = render(windows(), new double[] {0.5, 0.4, 0.1});

        String[] heatmaps = page.split("class=\"head-heatmap\"", -1);
        List<Integer> cellsPerHeatmap = new ArrayList<>();
        for (int heatmap = 1; heatmap < heatmaps.length; heatmap++) {
            cellsPerHeatmap.add(count(heatmaps[heatmap], "class=\"heat-cell\""));
        }
        // Window 0 (T=4) then window 1 (T=3), one heatmap per head, layer 1 not drawn.
        assertEquals(List.of(16, 16, 9, 9), cellsPerHeatmap);
    }

    @Test
    void loadsNothingFromOtherSites() {
        String page = render(windows(), new double[] {0.5, 0.4, 0.1});

        Matcher url = Pattern.compile("https?://[^'\"\\s)]*").matcher(page);
        while (url.find()) {
            assertEquals("http://www.w3.org/2000/svg", url.group(), "only the SVG namespace name may appear");
        }
    }

    @Test
    void combinedPredictionListsTheMostLikelyLanguageFirst() {
        String page = render(windows(), new double[] {0.1, 0.3, 0.6});

        int french = page.indexOf("class=\"language-name\">fr<");
        int german = page.indexOf("class=\"language-name\">de<");
        int english = page.indexOf("class=\"language-name\">en<");
        assertTrue(0 <= french && french < german && german < english, "fr, de, en");
        assertTrue(page.contains("class=\"percent\">60.0%<"));
    }

    @Test
    void nonFiniteNumbersAreShownAsZero() throws Exception {
        List<Window> windows = windows();
        windows.get(0).probabilities()[1] = Double.NaN;
        windows.get(1).probabilities()[0] = Double.POSITIVE_INFINITY;
        windows.get(0).attention()[0][1][0][2] = Float.NaN;
        String page = render(windows, new double[] {Double.NaN, 0.7, Double.NEGATIVE_INFINITY});

        assertFalse(page.contains("NaN"));
        assertFalse(page.contains("Infinity"));
        JsonNode data = embeddedData(page);
        assertEquals(0.0, data.at("/windows/0/attention/0/1/0/2").doubleValue());
        assertEquals(0.0, data.at("/windows/0/probabilities/1").doubleValue());
        assertEquals(0.0, data.at("/windows/1/probabilities/0").doubleValue());
    }
}
