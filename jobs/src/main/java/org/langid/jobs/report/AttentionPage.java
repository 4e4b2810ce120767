package org.langid.jobs.report;

import static org.langid.jobs.report.Html.escape;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One self-contained HTML page that explains a prediction: the text, the combined and per-window
 * language probabilities, and the attention of every head, drawn as in a "head view" (query
 * characters on the left, key characters on the right, a line per pair whose opacity is the
 * weight). The interactive view needs scripts; layer 0 is also drawn as static heatmaps so the
 * page stays useful when scripts are blocked. Nothing is fetched from the network.
 */
public final class AttentionPage {

    /**
     * One window of the normalised text.
     *
     * @param start         offset of the window in the normalised text
     * @param characters    the window's characters, without padding (length T)
     * @param attention     weights indexed [layer][head][query][key], each T×T
     * @param probabilities per language, in the order of the page's languages
     */
    public record Window(int start, String characters, float[][][][] attention, double[] probabilities) {
        public Window {
            Objects.requireNonNull(characters, "characters");
            Objects.requireNonNull(attention, "attention");
            Objects.requireNonNull(probabilities, "probabilities");
            int length = characters.length();
            for (float[][][] layer : attention) {
                if (layer.length != attention[0].length) {
                    throw new IllegalArgumentException("window at " + start + ": layers have different head counts");
                }
                for (float[][] head : layer) {
                    if (head.length != length || !Arrays.stream(head).allMatch(row -> row.length == length)) {
                        throw new IllegalArgumentException("attention of window at " + start + " must be "
                                + length + "×" + length + " per head, as many as its characters");
                    }
                }
            }
        }

        int layers() {
            return attention.length;
        }

        int heads() {
            return attention.length == 0 ? 0 : attention[0].length;
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Tableau 10: distinguishable on white; heads beyond ten reuse the colours in order. */
    private static final List<String> HEAD_COLOURS = List.of("#4e79a7", "#f28e2b", "#e15759", "#76b7b2",
            "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac");

    /** Spaces are drawn as a middle dot so that windows starting or ending with one read right. */
    private static final String VISIBLE_SPACE = "\u00b7";

    private static final int HEATMAP_CELL = 12;
    private static final int HEATMAP_LABEL_MARGIN = 14;

    private static final String STYLE = """
            body { font-family: system-ui, sans-serif; margin: 1.5rem auto; max-width: 60rem; padding: 0 1rem; color: #222; }
            h1 { font-size: 1.4rem; } h2 { font-size: 1.15rem; margin-top: 2rem; }
            dt { font-weight: 600; margin-top: .5rem; } dd { margin: .2rem 0 0 0; }
            .text { white-space: pre-wrap; word-break: break-word; background: #f6f6f6; padding: .4rem .6rem; border-radius: 4px; }
            .mono, .characters { font-family: ui-monospace, monospace; }
            .hint { color: #555; font-size: .9rem; }
            .bar-row { display: grid; grid-template-columns: 6rem 1fr 4.5rem; align-items: center; gap: .5rem; margin: .2rem 0; }
            .bar { background: #eee; height: .9rem; border-radius: 3px; overflow: hidden; }
            .bar-fill { display: block; height: 100%; background: #4e79a7; }
            .percent { text-align: right; font-variant-numeric: tabular-nums; }
            table { border-collapse: collapse; font-size: .85rem; }
            th, td { padding: .15rem .4rem; text-align: left; }
            td.probability-cell { text-align: center; min-width: 2.2rem; font-variant-numeric: tabular-nums; }
            .scripted tr[data-window] { cursor: pointer; }
            .scripted tr[data-window]:hover { outline: 1px solid #999; }
            .controls { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; margin: .5rem 0; }
            .head-toggle { display: inline-flex; align-items: center; gap: .25rem; user-select: none; }
            .swatch { display: inline-block; width: .9rem; height: .9rem; border-radius: 2px; }
            #head-view-drawing { width: 100%; max-width: 26rem; }
            #head-view-drawing .token text { font-family: ui-monospace, monospace; font-size: 14px; }
            #head-view-drawing .token.active text { font-weight: 700; fill: #000; }
            #head-view-drawing .column-title { font-size: 11px; fill: #777; }
            #head-view-drawing .hidden { display: none; }
            details { margin: .4rem 0; } summary { cursor: pointer; }
            .heatmaps { display: flex; flex-wrap: wrap; gap: 1rem; }
            figure { margin: .4rem 0; } figcaption { font-size: .8rem; text-align: center; }
            .head-heatmap text { font-family: ui-monospace, monospace; font-size: 9px; fill: #555; }
            .head-heatmap .heatmap-background { fill: #fafafa; stroke: #ddd; }
            """;

    private static final String SCRIPT = """
            (() => {
              'use strict';
              const data = JSON.parse(document.getElementById('attention-data').textContent);
              if (data.windows.length === 0) return;
              const svgNamespace = 'http://www.w3.org/2000/svg';
              const rowHeight = 22, top = 30, leftTextX = 80, leftLineX = 90, rightLineX = 250, rightTextX = 260, width = 340;
              const windowSelect = document.getElementById('window-select');
              const layerSelect = document.getElementById('layer-select');
              const headToggles = document.getElementById('head-toggles');
              const drawing = document.getElementById('head-view-drawing');
              const visible = text => text.replace(/ /g, '\\u00b7');
              const rowY = index => top + index * rowHeight + rowHeight / 2;

              function svgElement(name, attributes, text) {
                const element = document.createElementNS(svgNamespace, name);
                for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
                if (text !== undefined) element.textContent = text;
                return element;
              }

              function option(value, label) {
                const element = document.createElement('option');
                element.value = value;
                element.textContent = label;
                return element;
              }

              data.windows.forEach((entry, index) =>
                windowSelect.append(option(index, `${index + 1} at ${entry.start}: ${visible(entry.characters)}`)));
              for (let layer = 0; layer < data.layers; layer++) layerSelect.append(option(layer, `Layer ${layer}`));

              const headBoxes = data.headColours.map((colour, head) => {
                const label = document.createElement('label');
                label.className = 'head-toggle';
                label.title = 'Double-click to show this head alone';
                const swatch = document.createElement('span');
                swatch.className = 'swatch';
                swatch.style.background = colour;
                const box = document.createElement('input');
                box.type = 'checkbox';
                box.checked = true;
                box.addEventListener('change', draw);
                label.addEventListener('dblclick', () => {
                  headBoxes.forEach((other, index) => { other.checked = index === head; });
                  draw();
                });
                label.append(box, swatch, `Head ${head}`);
                headToggles.append(label);
                return box;
              });

              // Shows only the lines whose query (or key) is the hovered character; role null shows all.
              function focus(lines, role, index, hovered) {
                for (const line of lines.children) {
                  line.classList.toggle('hidden', role !== null && line.dataset[role] !== String(index));
                }
                drawing.querySelectorAll('.token').forEach(token => token.classList.toggle('active', token === hovered));
              }

              function token(lines, role, index, character) {
                const left = role === 'query';
                const group = svgElement('g', { class: 'token' });
                // A transparent box makes the whole row hoverable, not just the glyph.
                group.append(
                  svgElement('rect', { x: left ? leftTextX - 24 : rightTextX - 4, y: rowY(index) - rowHeight / 2,
                                       width: 28, height: rowHeight, fill: 'transparent' }),
                  svgElement('text', { x: left ? leftTextX : rightTextX, y: rowY(index) + 5,
                                       'text-anchor': left ? 'end' : 'start' }, visible(character)));
                group.addEventListener('mouseenter', () => focus(lines, role, index, group));
                group.addEventListener('mouseleave', () => focus(lines, null));
                return group;
              }

              function draw() {
                const selected = data.windows[windowSelect.value];
                const weights = selected.attention[layerSelect.value];
                const characters = [...selected.characters];
                const height = top + characters.length * rowHeight;
                drawing.replaceChildren();
                drawing.setAttribute('viewBox', `0 0 ${width} ${height}`);
                drawing.append(
                  svgElement('text', { x: leftTextX, y: 14, 'text-anchor': 'end', class: 'column-title' }, 'query'),
                  svgElement('text', { x: rightTextX, y: 14, class: 'column-title' }, 'key'));
                const lines = svgElement('g', {});
                headBoxes.forEach((box, head) => {
                  if (!box.checked) return;
                  weights[head].forEach((row, query) => row.forEach((weight, key) => lines.append(
                    svgElement('line', { x1: leftLineX, y1: rowY(query), x2: rightLineX, y2: rowY(key),
                                         stroke: data.headColours[head], 'stroke-width': 2, 'stroke-opacity': weight,
                                         'data-query': query, 'data-key': key }))));
                });
                drawing.append(lines);
                characters.forEach((character, index) =>
                  drawing.append(token(lines, 'query', index, character), token(lines, 'key', index, character)));
              }

              windowSelect.addEventListener('change', draw);
              layerSelect.addEventListener('change', draw);
              const headView = document.getElementById('head-view');
              document.querySelectorAll('tr[data-window]').forEach(row => row.addEventListener('click', () => {
                windowSelect.value = row.dataset.window;
                draw();
                headView.scrollIntoView({ behavior: 'smooth' });
              }));
              document.body.classList.add('scripted');
              headView.hidden = false;
              draw();
            })();
            """;

    /**
     * The page allows only its own inline script, by the hash of the script element's exact text,
     * so markup that slipped into the page could not run code; nothing may be loaded from elsewhere.
     */
    private static final String CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-"
            + Base64.getEncoder().encodeToString(sha256(SCRIPT)) + "'";

    private AttentionPage() {
    }

    /**
     * Renders the page.
     *
     * @param originalText          the text as given
     * @param normalisedText        the text after normalisation, which the windows are cut from
     * @param languages             language codes, in the order of every probability array
     * @param windows               the windows, in text order
     * @param modelVersion          shown as given
     * @param combinedProbabilities the prediction for the whole text, per language
     */
    public static String render(String originalText, String normalisedText, List<String> languages,
                                List<Window> windows, String modelVersion, double[] combinedProbabilities) {
        requireConsistent(languages, windows, combinedProbabilities);
        StringBuilder html = new StringBuilder(1 << 16);
        html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta http-equiv=\"Content-Security-Policy\" content=\"")
                .append(escape(CONTENT_SECURITY_POLICY)).append("\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>Language identification: attention</title>\n")
                .append("<style>\n").append(STYLE).append("</style>\n</head>\n<body>\n")
                .append("<h1>Language identification</h1>\n");
        appendSummary(html, originalText, normalisedText, modelVersion, languages, combinedProbabilities);
        appendWindowTable(html, languages, windows);
        appendHeadView(html);
        appendLayerZeroHeatmaps(html, windows);
        html.append("<script type=\"application/json\" id=\"attention-data\">")
                .append(attentionJson(languages, windows)).append("</script>\n")
                .append("<script>").append(SCRIPT).append("</script>\n</body>\n</html>\n");
        return html.toString();
    }

    private static void requireConsistent(List<String> languages, List<Window> windows, double[] combinedProbabilities) {
        if (combinedProbabilities.length != languages.size()) {
            throw new IllegalArgumentException("combined probabilities: " + combinedProbabilities.length
                    + " values for " + languages.size() + " languages");
        }
        for (Window window : windows) {
            if (window.probabilities().length != languages.size()) {
                throw new IllegalArgumentException("window at " + window.start() + ": " + window.probabilities().length
                        + " probabilities for " + languages.size() + " languages");
            }
            // The layer and head controls are shared by all windows, so every window needs the same shape.
            if (window.layers() != windows.get(0).layers() || window.heads() != windows.get(0).heads()) {
                throw new IllegalArgumentException("window at " + window.start() + " has " + window.layers()
                        + " layers × " + window.heads() + " heads, the first window "
                        + windows.get(0).layers() + " × " + windows.get(0).heads());
            }
        }
    }

    private static void appendSummary(StringBuilder html, String originalText, String normalisedText, String modelVersion,
                                      List<String> languages, double[] combinedProbabilities) {
        html.append("<dl>\n<dt>Input text</dt><dd class=\"text\">").append(escape(originalText)).append("</dd>\n")
                .append("<dt>Normalised text</dt><dd class=\"text mono\">").append(escape(visibleSpaces(normalisedText)))
                .append("</dd>\n<dt>Model version</dt><dd class=\"mono\">").append(escape(modelVersion))
                .append("</dd>\n</dl>\n<h2>Combined prediction</h2>\n<div class=\"combined-prediction\">\n");
        for (int language : byProbabilityDescending(combinedProbabilities)) {
            double probability = finite(combinedProbabilities[language]);
            html.append("<div class=\"bar-row\"><span class=\"language-name\">").append(escape(languages.get(language)))
                    .append("</span><span class=\"bar\"><span class=\"bar-fill\" style=\"width:")
                    .append(decimal(100 * clampUnit(probability), 2)).append("%\"></span></span><span class=\"percent\">")
                    .append(percent(probability)).append("</span></div>\n");
        }
        html.append("</div>\n");
    }

    private static void appendWindowTable(StringBuilder html, List<String> languages, List<Window> windows) {
        html.append("<h2>Windows</h2>\n<p class=\"hint\">Probability per language in each window (percent; ")
                .append("darker is more likely).</p>\n<table class=\"windows\">\n<thead><tr><th>#</th><th>Start</th>")
                .append("<th>Characters</th><th>Top language</th>");
        for (String language : languages) {
            html.append("<th>").append(escape(language)).append("</th>");
        }
        html.append("</tr></thead>\n<tbody>\n");
        for (int index = 0; index < windows.size(); index++) {
            Window window = windows.get(index);
            double[] probabilities = window.probabilities();
            int top = byProbabilityDescending(probabilities).get(0);
            html.append("<tr data-window=\"").append(index).append("\"><td>").append(index + 1).append("</td><td>")
                    .append(window.start()).append("</td><td class=\"characters\">")
                    .append(escape(visibleSpaces(window.characters()))).append("</td><td>")
                    .append(escape(languages.get(top))).append(' ').append(percent(probabilities[top])).append("</td>");
            for (int language = 0; language < languages.size(); language++) {
                double probability = finite(probabilities[language]);
                html.append("<td class=\"probability-cell\" style=\"background:rgba(242,142,43,")
                        .append(decimal(clampUnit(probability), 3)).append(")\" title=\"")
                        .append(escape(languages.get(language))).append(' ').append(percent(probability)).append("\">")
                        .append(decimal(100 * probability, 0)).append("</td>");
            }
            html.append("</tr>\n");
        }
        html.append("</tbody>\n</table>\n");
    }

    /** The controls and drawing area of the head view; the script fills them and unhides the section. */
    private static void appendHeadView(StringBuilder html) {
        html.append("""
                <section id="head-view" hidden>
                <h2>Attention head view</h2>
                <p class="hint">Each line joins a query character (left) to a key character (right): its opacity is \
                the attention weight, its colour the head. Hover a character to see only its lines; double-click a \
                head to show it alone; click a row of the window table to select that window.</p>
                <div class="controls"><label>Window <select id="window-select"></select></label>
                <label>Layer <select id="layer-select"></select></label>
                <span id="head-toggles" class="controls"></span></div>
                <svg id="head-view-drawing" role="img" aria-label="Attention lines of the selected window and layer"></svg>
                </section>
                """);
    }

    private static void appendLayerZeroHeatmaps(StringBuilder html, List<Window> windows) {
        html.append("<section id=\"layer-zero-heatmaps\">\n<h2>Layer 0 attention per head</h2>\n")
                .append("<p class=\"hint\">Rows are query characters, columns key characters; the stronger the ")
                .append("colour, the higher the weight. Drawn without scripts.</p>\n");
        for (int index = 0; index < windows.size(); index++) {
            Window window = windows.get(index);
            html.append(index == 0 ? "<details open>" : "<details>").append("<summary>Window ").append(index + 1)
                    .append(" at ").append(window.start()).append(": <span class=\"characters\">")
                    .append(escape(visibleSpaces(window.characters()))).append("</span></summary>\n<div class=\"heatmaps\">\n");
            if (window.layers() > 0) {
                float[][][] heads = window.attention()[0];
                for (int head = 0; head < heads.length; head++) {
                    appendHeatmap(html, window.characters(), heads[head], head);
                }
            }
            html.append("</div>\n</details>\n");
        }
        html.append("</section>\n");
    }

    private static void appendHeatmap(StringBuilder html, String characters, float[][] weights, int head) {
        int size = HEATMAP_LABEL_MARGIN + characters.length() * HEATMAP_CELL;
        html.append("<figure><svg class=\"head-heatmap\" width=\"").append(size).append("\" height=\"").append(size)
                .append("\" viewBox=\"0 0 ").append(size).append(' ').append(size)
                .append("\" role=\"img\" aria-label=\"Layer 0, head ").append(head).append("\">")
                .append("<rect class=\"heatmap-background\" x=\"").append(HEATMAP_LABEL_MARGIN).append("\" y=\"")
                .append(HEATMAP_LABEL_MARGIN).append("\" width=\"").append(size - HEATMAP_LABEL_MARGIN)
                .append("\" height=\"").append(size - HEATMAP_LABEL_MARGIN).append("\"/>");
        for (int position = 0; position < characters.length(); position++) {
            String label = escape(visibleSpaces(String.valueOf(characters.charAt(position))));
            int centre = HEATMAP_LABEL_MARGIN + position * HEATMAP_CELL + HEATMAP_CELL / 2;
            html.append("<text x=\"").append(centre).append("\" y=\"10\" text-anchor=\"middle\">").append(label)
                    .append("</text><text x=\"7\" y=\"").append(centre + 3).append("\" text-anchor=\"middle\">")
                    .append(label).append("</text>");
        }
        // Unit cells scaled by the group keep the markup short: there are T×T cells per head and window.
        html.append("<g fill=\"").append(headColour(head)).append("\" transform=\"translate(").append(HEATMAP_LABEL_MARGIN)
                .append(' ').append(HEATMAP_LABEL_MARGIN).append(") scale(").append(HEATMAP_CELL).append(")\">");
        for (int query = 0; query < weights.length; query++) {
            for (int key = 0; key < weights[query].length; key++) {
                html.append("<rect class=\"heat-cell\" x=\"").append(key).append("\" y=\"").append(query)
                        .append("\" width=\"1\" height=\"1\" fill-opacity=\"")
                        .append(decimal(clampUnit(finite(weights[query][key])), 3)).append("\"/>");
            }
        }
        html.append("</g></svg><figcaption>Head ").append(head).append("</figcaption></figure>\n");
    }

    /**
     * The data the head view script draws from. Writing {@code <} as a JSON unicode escape keeps
     * text such as {@code </script>} or {@code <!--} from ending or altering the script element;
     * {@code <} can only occur inside JSON strings, where the escape reads back as the same character.
     */
    private static String attentionJson(List<String> languages, List<Window> windows) {
        ObjectNode root = JSON.createObjectNode();
        languages.forEach(root.putArray("languages")::add);
        int layers = windows.isEmpty() ? 0 : windows.get(0).layers();
        int heads = windows.isEmpty() ? 0 : windows.get(0).heads();
        root.put("layers", layers);
        root.put("heads", heads);
        ArrayNode colours = root.putArray("headColours");
        for (int head = 0; head < heads; head++) {
            colours.add(headColour(head));
        }
        ArrayNode windowNodes = root.putArray("windows");
        for (Window window : windows) {
            ObjectNode node = windowNodes.addObject();
            node.put("start", window.start());
            node.put("characters", window.characters());
            ArrayNode probabilities = node.putArray("probabilities");
            for (double probability : window.probabilities()) {
                probabilities.add(finite(probability));
            }
            ArrayNode layerNodes = node.putArray("attention");
            for (float[][][] layer : window.attention()) {
                ArrayNode headNodes = layerNodes.addArray();
                for (float[][] head : layer) {
                    ArrayNode rows = headNodes.addArray();
                    for (float[] row : head) {
                        ArrayNode weights = rows.addArray();
                        for (float weight : row) {
                            weights.add((float) finite(weight));
                        }
                    }
                }
            }
        }
        try {
            return JSON.writeValueAsString(root).replace("<", "\\u003c");
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Indices of the probabilities, most likely first (non-finite values count as 0). */
    private static List<Integer> byProbabilityDescending(double[] probabilities) {
        List<Integer> order = new ArrayList<>(probabilities.length);
        for (int index = 0; index < probabilities.length; index++) {
            order.add(index);
        }
        order.sort(Comparator.comparingDouble((Integer index) -> finite(probabilities[index])).reversed());
        return order;
    }

    private static String headColour(int head) {
        return HEAD_COLOURS.get(head % HEAD_COLOURS.size());
    }

    private static double finite(double value) {
        return Double.isFinite(value) ? value : 0;
    }

    private static double clampUnit(double value) {
        return Math.max(0, Math.min(1, value));
    }

    private static String percent(double probability) {
        return decimal(100 * finite(probability), 1) + "%";
    }

    private static String decimal(double value, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", finite(value));
    }

    private static String visibleSpaces(String text) {
        return text.replace(" ", VISIBLE_SPACE);
    }


    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
