package org.langid.jobs.evaluate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.langid.jobs.report.EvaluationHtml;
import org.langid.jobs.train.WindowsReader;
import org.langid.model.io.HadoopFiles;
import org.langid.model.predict.LanguageDetector;
import org.langid.model.schema.JsonSchemas;
import org.langid.model.train.LabelledWindows;
import org.langid.model.train.Shuffle;
import org.langid.text.Alphabet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code langid evaluate}: scores a model (and optionally Lingua, side by side) on held-out
 * windows, exactly as prepare cut them, on whole sentences, and on the word pairs and single
 * words cut from those sentences ({@link ShortItems}); writes {@code report.json}
 * (data-schemas/evaluation-report.schema.json) and {@code report.html}. Sentences, word pairs and
 * single words are all whole texts to a detector ({@link Candidate#predictTexts}): the same code
 * path, the same breakdowns, and for a detector that gives a probability its calibration error
 * ({@link Calibration}).
 *
 * <p>Besides each language, every detector's accuracy is given:
 * <ul>
 *   <li><b>per script</b> ({@code per_script}): a language's script is the commonest Unicode
 *       script among the letters of its sentences (of its windows when no sentences are read),
 *       counted by {@link LanguageScripts}, so a model of many scripts shows where it is weak;</li>
 *   <li><b>within groups of closely related languages</b> ({@code related}, the groups in
 *       {@link RelatedLanguages#GROUPS}): the confusion among a group's members, the share of each
 *       member's errors that stay inside the group, and a few confused items per pair;</li>
 *   <li><b>over the languages a peer knows</b> ({@code shared}): Lingua has no model of some
 *       languages ({@code unknown_languages}) and counts all their items as errors; the model and
 *       it are also compared on the other languages' items alone, with a paired interval.</li>
 * </ul>
 *
 * <p>Restricted to a subset of the model's languages ({@link LanguageSubset}, {@code --languages}),
 * only items of the subset are read and every candidate answers from it (report.json's
 * {@code restricted_to}).
 */
public final class EvaluateJob {

    public static final String SCHEMA_FILE = "evaluation-report.schema.json";
    private static final Logger LOG = LoggerFactory.getLogger(EvaluateJob.class);
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final long SAMPLE_SEED = 20261121L;

    /**
     * What to evaluate on: Parquet windows and sentences (either may be null), each capped to a
     * seeded random sample of at most max* rows (0: all), and how to name them in the report. The
     * word pairs and single words cut from the sentences ({@link ShortItems}) are capped at
     * {@code maxShort} each.
     */
    public record Data(String windowsPath, String sentencesPath, String input, String split, int maxWindows, int maxSentences,
                       int maxShort) {

        /** Word pairs and single words scored at most, each, unless told otherwise: an accuracy to about half a point (95%), quick for every peer. */
        public static final int DEFAULT_MAX_SHORT = 20_000;

        /** With the default cap of short items. */
        public Data(String windowsPath, String sentencesPath, String input, String split, int maxWindows, int maxSentences) {
            this(windowsPath, sentencesPath, input, split, maxWindows, maxSentences, DEFAULT_MAX_SHORT);
        }

        /** The {@code split} of a prepare output directory. */
        public static Data ofPrepared(String prepared, String split, int maxWindows, int maxSentences) {
            return ofPrepared(prepared, split, maxWindows, maxSentences, DEFAULT_MAX_SHORT);
        }

        /** The {@code split} of a prepare output directory, with a cap of short items. */
        public static Data ofPrepared(String prepared, String split, int maxWindows, int maxSentences, int maxShort) {
            return new Data(prepared + "/windows/split=" + split, prepared + "/sentences/split=" + split,
                    prepared, split, maxWindows, maxSentences, maxShort);
        }
    }

    /** Every level a report may hold, in order; all but windows are whole texts, scored by {@link Candidate#predictTexts}. */
    public static final List<String> LEVELS = List.of("windows", "sentences", "word_pairs", "single_words");

    /** A level of whole texts: sentences, or the short items cut from them. */
    record TextLevel(String name, List<String> texts, int[] labels) {
    }

    private EvaluateJob() {
    }

    /** A peer asked for but not evaluated, and why (report.json's {@code unavailable}). */
    public record Unavailable(String name, String reason) {
    }

    /** Runs the evaluation and returns the report (validated). */
    public static ObjectNode run(SparkSession spark, LanguageDetector detector, String modelLocation, Data data,
                                 List<Candidate> candidates) {
        return run(spark, detector, modelLocation, data, candidates, List.of());
    }

    /** As above; the report also names the peers that were asked for but could not run. */
    public static ObjectNode run(SparkSession spark, LanguageDetector detector, String modelLocation, Data data,
                                 List<Candidate> candidates, List<Unavailable> unavailable) {
        return run(spark, detector, modelLocation, data, candidates, unavailable, LanguageSubset.all(detector.languages()));
    }

    /**
     * As above, on the items of {@code subset}'s languages only (the others are left out), by
     * candidates built to answer from it (report.json's {@code restricted_to}).
     */
    public static ObjectNode run(SparkSession spark, LanguageDetector detector, String modelLocation, Data data,
                                 List<Candidate> candidates, List<Unavailable> unavailable, LanguageSubset subset) {
        if (!subset.model().equals(detector.languages())) {
            throw new IllegalArgumentException("the subset is of another model's languages: " + subset.model());
        }
        List<String> languages = subset.languages();
        int window = detector.manifest().window();
        Alphabet alphabet = detector.manifest().alphabet();
        // Sentence ids only when there is a peer to compare with: a sentence's windows overlap, so
        // they are compared together (PairedBootstrap).
        boolean compared = candidates.size() > 1;
        WindowsReader.WithSentences read = data.windowsPath() == null ? null
                : sample(compared ? WindowsReader.readPathWithSentences(spark, data.windowsPath(), languages, window, alphabet)
                        : new WindowsReader.WithSentences(WindowsReader.readPath(spark, data.windowsPath(), languages, window, alphabet), null),
                        data.maxWindows());
        LabelledWindows windows = read == null ? null : read.windows();
        PairedBootstrap.Clusters windowClusters = read == null || read.sentenceIds() == null ? null
                : PairedBootstrap.clustersOf(windows.labels(), read.sentenceIds());
        if (compared && read != null && windowClusters == null) {
            LOG.warn("{}: no sentence_id column; the windows' differences between detectors get no interval", data.windowsPath());
        }
        LabelledSentences sentences = data.sentencesPath() == null ? null
                : readSentences(spark, data.sentencesPath(), languages, alphabet, data.maxSentences());

        ObjectNode report = JSON.createObjectNode();
        report.put("format_version", 1);
        report.put("created", Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString());
        ObjectNode model = report.putObject("model");
        model.put("version", detector.manifest().modelVersion());
        model.put("path", modelLocation);
        ObjectNode dataNode = report.putObject("data");
        dataNode.put("input", data.input());
        if (data.split() != null) {
            dataNode.put("split", data.split());
        }
        if (windows != null) {
            dataNode.put("windows", data.windowsPath());
        }
        List<TextLevel> textLevels = new ArrayList<>();
        if (sentences != null) {
            dataNode.put("sentences", data.sentencesPath());
            dataNode.put("sentences_without_text", sentences.empty());
            textLevels.add(new TextLevel("sentences", sentences.texts(), sentences.labels()));
            textLevels.addAll(shortLevels(sentences, alphabet, data.maxShort(), dataNode.putObject("short_items")));
        }
        languages.forEach(report.putArray("languages")::add);
        if (subset.restricted()) {
            ObjectNode restricted = report.putObject("restricted_to");
            languages.forEach(restricted.putArray("languages")::add);
            subset.answeringLanguages().forEach(restricted.putArray("answering")::add);
            restricted.put("model_languages", subset.model().size());
        }
        LanguageScripts scripts = new LanguageScripts(languages);
        if (sentences != null) {
            for (int i = 0; i < sentences.texts().size(); i++) {
                scripts.add(sentences.labels()[i], sentences.texts().get(i));
            }
            report.put("scripts_counted_from", "sentences");
        } else if (windows != null) {
            scripts.addWindows(windows.labels(), windows.symbols(), window, alphabet);
            report.put("scripts_counted_from", "windows");
        }
        ArrayNode languageScripts = report.putArray("language_scripts");
        for (int i = 0; i < languages.size(); i++) {
            languageScripts.addObject().put("language", languages.get(i)).put("script", LanguageScripts.name(scripts.scriptOf(i)))
                    .put("share", scripts.share(i)).put("letters", scripts.letters(i));
        }
        List<RelatedLanguages.Group> groups = RelatedLanguages.among(languages);
        ArrayNode detectors = report.putArray("detectors");
        int[] firstWindows = null;
        int[][] firstTexts = new int[textLevels.size()][];
        ConfusionScores firstWindowScores = null;
        ConfusionScores[] firstTextScores = new ConfusionScores[textLevels.size()];
        for (Candidate candidate : candidates) {
            boolean first = candidate == candidates.get(0);
            ObjectNode entry = detectors.addObject();
            entry.put("name", candidate.name());
            entry.put("description", candidate.description());
            if (candidate.training() != null) {
                entry.set("trained", candidate.training());
            }
            List<String> unknown = candidate.unknownLanguages();
            if (!unknown.isEmpty()) {
                unknown.forEach(entry.putArray("unknown_languages")::add);
            }
            boolean[] known = new boolean[languages.size()];
            for (int i = 0; i < known.length; i++) {
                known[i] = !unknown.contains(languages.get(i));
            }
            if (windows != null) {
                LOG.info("{}: {} windows", candidate.name(), windows.size());
                ConfusionScores scores = new ConfusionScores(languages, candidate.mayDecline());
                long started = System.nanoTime();
                int[] predicted = candidate.predictWindows(windows.symbols(), window, alphabet);
                double seconds = (System.nanoTime() - started) / 1e9;
                scores.add(windows.labels(), predicted, i -> windowText(windows, alphabet, i));
                ObjectNode windowScores = scores.toJson(seconds);
                addBreakdowns(windowScores, scores, scripts, groups);
                if (first) {
                    firstWindows = predicted;
                    firstWindowScores = scores;
                } else {
                    if (windowClusters != null && windows.size() > 0) {
                        windowScores.set("model_lead", PairedBootstrap.lead(windows.labels(), firstWindows, predicted, windowClusters)
                                .toJson(candidates.get(0).name(), "sentence"));
                    }
                    if (!unknown.isEmpty()) {
                        windowScores.set("shared", shared(languages, known, firstWindowScores, scores, windows.labels(), firstWindows, predicted,
                                true, read.sentenceIds(), candidates.get(0).name()));
                    }
                }
                entry.set("windows", windowScores);
            }
            if (!textLevels.isEmpty() && candidate.withoutConfidence() != null) {
                entry.put("no_calibration", candidate.withoutConfidence());
            }
            for (int l = 0; l < textLevels.size(); l++) {
                TextLevel level = textLevels.get(l);
                LOG.info("{}: {} {}", candidate.name(), level.texts().size(), level.name());
                long started = System.nanoTime();
                Candidate.Answers answers = candidate.predictTexts(level.texts(), alphabet);
                double seconds = (System.nanoTime() - started) / 1e9;
                int[] predicted = answers.predicted();
                // The model declines only below a confidence floor or for text it cannot read; give it an und column when it did.
                boolean declined = Arrays.stream(predicted).anyMatch(p -> p == languages.size());
                ConfusionScores scores = new ConfusionScores(languages, candidate.mayDecline() || declined);
                scores.add(level.labels(), predicted, i -> level.texts().get(i));
                ObjectNode levelScores = scores.toJson(seconds);
                addBreakdowns(levelScores, scores, scripts, groups);
                if (answers.confidence() != null) {
                    Calibration calibration = new Calibration(level.labels(), predicted, answers.confidence(), languages.size());
                    if (calibration.count() > 0) {
                        levelScores.set("calibration", calibration.toJson());
                    }
                }
                if (first) {
                    firstTexts[l] = predicted;
                    firstTextScores[l] = scores;
                } else {
                    if (!level.texts().isEmpty()) {
                        levelScores.set("model_lead", PairedBootstrap.lead(level.labels(), firstTexts[l], predicted)
                                .toJson(candidates.get(0).name(), "item"));
                    }
                    if (!unknown.isEmpty()) {
                        levelScores.set("shared", shared(languages, known, firstTextScores[l], scores, level.labels(), firstTexts[l],
                                predicted, false, null, candidates.get(0).name()));
                    }
                }
                entry.set(level.name(), levelScores);
            }
        }
        if (!unavailable.isEmpty()) {
            ArrayNode missing = report.putArray("unavailable");
            for (Unavailable peer : unavailable) {
                missing.addObject().put("name", peer.name()).put("reason", peer.reason());
            }
        }
        detector.artefact().metricsLog().ifPresent(log -> {
            ObjectNode training = report.putObject("training");
            training.put("source", modelLocation + "/metrics.jsonl");
            ArrayNode records = training.putArray("records");
            log.lines().filter(l -> !l.isBlank()).forEach(l -> {
                try {
                    records.add(JSON.readTree(l));
                } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                    throw new IllegalStateException("the model's metrics.jsonl has a line that is not JSON: " + e.getOriginalMessage());
                }
            });
        });
        JsonSchemas.requireValid(SCHEMA_FILE, report, "the evaluation report");
        return report;
    }

    /**
     * The word pairs and single words of the sentences ({@link ShortItems}), each level capped to a
     * seeded sample of at most {@code max} (0: all); what was cut goes into {@code node}
     * (report.json's {@code data.short_items}).
     */
    static List<TextLevel> shortLevels(LabelledSentences sentences, Alphabet alphabet, int max, ObjectNode node) {
        List<String> pairs = new ArrayList<>();
        List<Integer> pairLabels = new ArrayList<>();
        List<String> words = new ArrayList<>();
        List<Integer> wordLabels = new ArrayList<>();
        for (int i = 0; i < sentences.texts().size(); i++) {
            ShortItems.Cut cut = ShortItems.cut(sentences.texts().get(i), ShortItems.SEED, alphabet::readsMostLetters);
            if (cut.pair() != null) {
                pairs.add(cut.pair());
                pairLabels.add(sentences.labels()[i]);
            }
            if (cut.word() != null) {
                words.add(cut.word());
                wordLabels.add(sentences.labels()[i]);
            }
        }
        node.put("min_letters", ShortItems.MIN_LETTERS);
        node.putArray("unspaced_piece_letters").add(ShortItems.MIN_PIECE).add(ShortItems.MAX_PIECE);
        node.put("seed", ShortItems.SEED);
        node.put("max_per_level", max);
        int n = sentences.texts().size();
        return List.of(capped("word_pairs", pairs, pairLabels, max, 2, n, node), capped("single_words", words, wordLabels, max, 3, n, node));
    }

    private static TextLevel capped(String name, List<String> texts, List<Integer> labels, int max, int purpose, int sentences, ObjectNode node) {
        int[] chosen = max > 0 && texts.size() > max ? sampleIndices(texts.size(), max, purpose) : null;
        List<String> keptTexts = new ArrayList<>();
        List<Integer> keptLabels = new ArrayList<>();
        for (int k = 0; k < (chosen == null ? texts.size() : chosen.length); k++) {
            int i = chosen == null ? k : chosen[k];
            keptTexts.add(texts.get(i));
            keptLabels.add(labels.get(i));
        }
        node.putObject(name).put("cut", texts.size()).put("scored", keptTexts.size()).put("sentences_without", sentences - texts.size());
        if (texts.isEmpty() && sentences > 0) {
            LOG.warn("no {} could be cut from {} sentences", name.replace('_', ' '), sentences);
        }
        return new TextLevel(name, keptTexts, keptLabels.stream().mapToInt(Integer::intValue).toArray());
    }

    private static void addBreakdowns(ObjectNode level, ConfusionScores scores, LanguageScripts scripts, List<RelatedLanguages.Group> groups) {
        level.set("per_script", scores.perScriptJson(scripts.scripts(), scripts.distinct()));
        if (!groups.isEmpty()) {
            level.set("related", scores.relatedJson(groups));
        }
    }

    /**
     * A peer that lacks some of the model's languages against the model over the items of the
     * languages it knows (report.json's {@code shared}): its overall figures count every item of
     * a language it cannot answer as an error, which says little about the languages it has.
     *
     * @param windows     whether the items are windows: then they are resampled by sentence, and without
     *                    {@code sentenceIds} there is no interval
     * @param sentenceIds each window's sentence; null for sentences, or for windows read without the column
     */
    static ObjectNode shared(List<String> languages, boolean[] known, ConfusionScores model, ConfusionScores peer, int[] truth,
                             int[] modelPredicted, int[] predicted, boolean windows, long[] sentenceIds, String modelName) {
        ObjectNode node = JSON.createObjectNode();
        ArrayNode names = node.putArray("languages");
        for (int i = 0; i < known.length; i++) {
            if (known[i]) {
                names.add(languages.get(i));
            }
        }
        long[] ours = model.totalAndCorrectAmong(known);
        long[] theirs = peer.totalAndCorrectAmong(known);
        node.put("count", theirs[0]);
        node.put("correct", theirs[1]);
        node.put("accuracy", theirs[0] == 0 ? 0 : theirs[1] / (double) theirs[0]);
        node.put("model_correct", ours[1]);
        node.put("model_accuracy", ours[0] == 0 ? 0 : ours[1] / (double) ours[0]);
        int n = (int) theirs[0];
        if (n == 0 || windows && sentenceIds == null) {
            return node;
        }
        int[] subTruth = new int[n];
        int[] subModel = new int[n];
        int[] subPeer = new int[n];
        long[] subIds = sentenceIds == null ? null : new long[n];
        int k = 0;
        for (int i = 0; i < truth.length; i++) {
            if (known[truth[i]]) {
                subTruth[k] = truth[i];
                subModel[k] = modelPredicted[i];
                subPeer[k] = predicted[i];
                if (subIds != null) {
                    subIds[k] = sentenceIds[i];
                }
                k++;
            }
        }
        PairedBootstrap.Lead lead = windows ? PairedBootstrap.lead(subTruth, subModel, subPeer, PairedBootstrap.clustersOf(subTruth, subIds))
                : PairedBootstrap.lead(subTruth, subModel, subPeer);
        node.set("model_lead", lead.toJson(modelName, windows ? "sentence" : "item"));
        return node;
    }

    /** Writes report.json and report.html into {@code output}. */
    public static void write(ObjectNode report, String output, Configuration conf) {
        HadoopFiles.writeJsonAtomically(output + "/report.json", report, JSON, conf);
        HadoopFiles.writeStringAtomically(output + "/report.html", EvaluationHtml.render(report), conf);
    }

    /**
     * A table a person reads in a terminal: accuracy per language and per script, for each detector,
     * at each level (windows, sentences, word pairs, single words); the peers' leads (also over the
     * languages a peer knows); each detector's calibration error; one line per group of related languages.
     */
    public static void printSummary(JsonNode report, PrintStream out) {
        List<String> languages = new ArrayList<>();
        report.get("languages").forEach(l -> languages.add(l.asText()));
        String restriction = restrictionText(report);
        if (restriction != null) {
            out.println(restriction);
        }
        int labels = 12;   // "single words"
        for (String language : languages) {
            labels = Math.max(labels, language.length());
        }
        for (JsonNode script : report.path("language_scripts")) {
            labels = Math.max(labels, script.get("script").asText().length());
        }
        String label = "  %-" + labels + "s";
        List<JsonNode> detectors = new ArrayList<>();
        report.get("detectors").forEach(detectors::add);
        for (String level : LEVELS) {
            List<JsonNode> scored = detectors.stream().filter(d -> d.has(level)).toList();
            if (scored.isEmpty()) {
                continue;
            }
            int width = Math.max(14, scored.stream().mapToInt(d -> d.get("name").asText().length()).max().orElse(0));
            String name = " %" + width + "s";
            String percent = " %" + (width - 1) + ".1f%%";
            String items = level.replace('_', ' ');
            out.printf(Locale.ROOT, "%-" + (labels + 2) + "s", items);
            scored.forEach(d -> out.printf(Locale.ROOT, name, d.get("name").asText()));
            out.println();
            for (int i = 0; i < languages.size(); i++) {
                out.printf(Locale.ROOT, label, languages.get(i));
                for (JsonNode d : scored) {
                    JsonNode entry = d.get(level).get("per_language").get(i);
                    out.printf(Locale.ROOT, percent, 100 * entry.get("recall").asDouble());
                }
                out.println();
            }
            out.printf(Locale.ROOT, label, "all");
            scored.forEach(d -> out.printf(Locale.ROOT, percent, 100 * d.get(level).get("accuracy").asDouble()));
            out.printf(Locale.ROOT, "   (%d %s)%n", scored.get(0).get(level).get("count").asLong(), items);
            JsonNode scripts = scored.get(0).get(level).path("per_script");
            for (int s = 0; s < scripts.size(); s++) {
                out.printf(Locale.ROOT, label, scripts.get(s).get("script").asText());
                for (JsonNode d : scored) {
                    out.printf(Locale.ROOT, percent, 100 * d.get(level).path("per_script").path(s).path("accuracy").asDouble());
                }
                List<String> members = new ArrayList<>();
                scripts.get(s).get("languages").forEach(l -> members.add(l.asText()));
                out.printf(Locale.ROOT, "   (script: %s)%n", String.join(", ", members));
            }
            for (JsonNode d : scored) {
                JsonNode lead = d.get(level).path("model_lead");
                if (lead.isObject()) {
                    out.printf(Locale.ROOT, "  %s - %s: %s%n", lead.get("model").asText(), d.get("name").asText(), leadText(lead, level));
                }
                JsonNode shared = d.get(level).path("shared");
                if (shared.isObject()) {
                    out.printf(Locale.ROOT, "  over the %d languages %s knows (%d %s): %s %.1f%%, %s %.1f%%%s%n",
                            shared.get("languages").size(), d.get("name").asText(), shared.get("count").asLong(), items,
                            scored.get(0).get("name").asText(), 100 * shared.get("model_accuracy").asDouble(), d.get("name").asText(),
                            100 * shared.get("accuracy").asDouble(),
                            shared.path("model_lead").isObject() ? "; difference " + leadText(shared.get("model_lead"), level) : "");
                }
            }
            List<String> calibrated = new ArrayList<>();
            for (JsonNode d : scored) {
                JsonNode calibration = d.get(level).path("calibration");
                if (calibration.isObject()) {
                    calibrated.add(String.format(Locale.ROOT, "%s %.4f (confidence %.1f%%, right %.1f%%)", d.get("name").asText(),
                            calibration.get("ece").asDouble(), 100 * calibration.get("mean_confidence").asDouble(),
                            100 * calibration.get("accuracy").asDouble()));
                }
            }
            if (!calibrated.isEmpty()) {
                out.printf(Locale.ROOT, "  calibration error (ECE, %d bins): %s%n", Calibration.BINS, String.join(", ", calibrated));
            }
            JsonNode errors = scored.get(0).get(level).path("errors");
            if (errors.isArray() && !errors.isEmpty()) {
                StringBuilder line = new StringBuilder("  commonest errors (" + scored.get(0).get("name").asText() + "):");
                for (int i = 0; i < Math.min(3, errors.size()); i++) {
                    JsonNode pair = errors.get(i);
                    line.append(i == 0 ? " " : ", ").append(pair.get("expected").asText()).append(" as ")
                            .append(pair.get("predicted").asText()).append(' ').append(pair.get("count").asLong());
                }
                out.println(line);
            }
        }
        printRelated(detectors, out);
        for (JsonNode d : detectors) {
            if (d.path("unknown_languages").isArray()) {
                List<String> unknown = new ArrayList<>();
                d.get("unknown_languages").forEach(l -> unknown.add(l.asText()));
                out.println(d.get("name").asText() + " does not know " + String.join(", ", unknown)
                        + ": their items count as its errors (compared over the languages it knows above)");
            }
        }
        for (JsonNode d : detectors) {
            if (d.path("no_calibration").isTextual()) {
                out.println(d.get("name").asText() + ": no calibration error (" + d.get("no_calibration").asText() + ")");
            }
        }
        report.path("unavailable").forEach(peer ->
                out.println("not evaluated: " + peer.get("name").asText() + " (" + peer.get("reason").asText() + ")"));
    }

    /**
     * "restricted to en, de (2 of the model's 82 languages): ..." for a report of a restricted
     * evaluation (report.json's {@code restricted_to}); null for one of all the model's languages.
     */
    public static String restrictionText(JsonNode report) {
        JsonNode restricted = report.path("restricted_to");
        if (!restricted.isObject()) {
            return null;
        }
        List<String> languages = new ArrayList<>();
        restricted.path("languages").forEach(l -> languages.add(l.asText()));
        List<String> extra = new ArrayList<>();
        restricted.path("answering").forEach(l -> {
            if (!languages.contains(l.asText())) {
                extra.add(l.asText());
            }
        });
        return String.format(Locale.ROOT, "restricted to %s (%d of the model's %d languages): items of other languages left out, "
                        + "every detector answers from these%s", String.join(", ", languages), languages.size(),
                restricted.path("model_languages").asInt(),
                extra.isEmpty() ? "" : " (the model and fastText also from the model's " + String.join(", ", extra) + " class, a wrong answer here)");
    }

    private static String leadText(JsonNode lead, String level) {
        // A window's cluster is its sentence; every other item is a cluster of its own.
        return String.format(Locale.ROOT, "%+.2f points (95%% interval %+.2f to %+.2f over %d %s)",
                100 * lead.get("accuracy_difference").asDouble(), 100 * lead.get("interval_95").get(0).asDouble(),
                100 * lead.get("interval_95").get(1).asDouble(), lead.get("clusters").asLong(),
                level.equals("windows") ? "sentences" : level.replace('_', ' '));
    }

    /** One line per group of related languages: each detector's errors that stayed inside the group. */
    private static void printRelated(List<JsonNode> detectors, PrintStream out) {
        JsonNode model = detectors.get(0);
        JsonNode groups = model.path("windows").path("related").isArray() ? model.path("windows").path("related")
                : model.path("sentences").path("related");
        for (int g = 0; g < groups.size(); g++) {
            List<String> members = new ArrayList<>();
            groups.get(g).get("languages").forEach(l -> members.add(l.asText()));
            List<String> levels = new ArrayList<>();
            for (String level : LEVELS) {
                List<String> parts = new ArrayList<>();
                for (JsonNode d : detectors) {
                    JsonNode group = d.path(level).path("related").path(g);
                    if (group.isObject()) {
                        parts.add(d.get("name").asText() + " " + String.format(Locale.ROOT, "%,d of %,d", group.get("in_group").asLong(),
                                group.get("errors").asLong()) + (group.has("in_group_share")
                                ? String.format(Locale.ROOT, " (%.1f%%)", 100 * group.get("in_group_share").asDouble()) : ""));
                    }
                }
                if (!parts.isEmpty()) {
                    levels.add(level.replace('_', ' ') + ": " + String.join(", ", parts));
                }
            }
            out.println("related " + groups.get(g).get("group").asText() + " (" + String.join(", ", members)
                    + "), errors inside the group: " + String.join("; ", levels));
        }
    }

    private static String windowText(LabelledWindows windows, Alphabet alphabet, int i) {
        int t = windows.windowLength();
        return alphabet.decode(windows.symbols(), i * t, t);
    }

    /** At most {@code max} of the windows, the seeded sample evaluate scores (0: all). */
    public static LabelledWindows sample(LabelledWindows windows, int max) {
        return sample(new WindowsReader.WithSentences(windows, null), max).windows();
    }

    /** The same sample, with the chosen windows' sentence ids (if known). */
    static WindowsReader.WithSentences sample(WindowsReader.WithSentences read, int max) {
        LabelledWindows windows = read.windows();
        if (max <= 0 || windows.size() <= max) {
            return read;
        }
        int[] chosen = sampleIndices(windows.size(), max, 0);
        long[] ids = read.sentenceIds() == null ? null : new long[max];
        if (ids != null) {
            for (int i = 0; i < max; i++) {
                ids[i] = read.sentenceIds()[chosen[i]];
            }
        }
        return new WindowsReader.WithSentences(windows.select(chosen, 0, max), ids);
    }

    /** {@code max} of the indices [0, n), a seeded random choice (one stream per {@code purpose}), in ascending order: prepare's order is kept. */
    private static int[] sampleIndices(int n, int max, int purpose) {
        int[] chosen = Arrays.copyOf(Shuffle.permutation(n, SAMPLE_SEED, purpose), max);
        Arrays.sort(chosen);
        return chosen;
    }

    /** Sentences with labels; {@code empty} counts those that normalise to nothing (left out, reported). */
    record LabelledSentences(List<String> texts, int[] labels, long empty) {
    }

    static LabelledSentences readSentences(SparkSession spark, String path, List<String> languages, Alphabet alphabet, int max) {
        List<Row> rows = spark.read().parquet(path).select("language", "sentence").collectAsList();
        List<String> texts = new ArrayList<>();
        List<Integer> labels = new ArrayList<>();
        Map<String, Long> otherLanguages = new TreeMap<>();
        long empty = 0;
        for (Row row : rows) {
            int label = languages.indexOf(row.getString(0));
            if (label < 0) {
                otherLanguages.merge(row.getString(0), 1L, Long::sum);
            } else if (alphabet.normalize(row.getString(1)).isEmpty()) {
                empty++;
            } else {
                texts.add(row.getString(1));
                labels.add(label);
            }
        }
        if (!otherLanguages.isEmpty()) {
            LOG.warn("{}: skipped sentences of languages not evaluated: {}", path, otherLanguages);
        }
        if (empty > 0) {
            LOG.warn("{}: {} sentences have nothing to classify after normalisation; left out", path, empty);
        }
        int n = texts.size();
        if (max > 0 && n > max) {
            int[] chosen = sampleIndices(n, max, 1);
            List<String> sampledTexts = new ArrayList<>(max);
            int[] sampledLabels = new int[max];
            for (int i = 0; i < max; i++) {
                sampledTexts.add(texts.get(chosen[i]));
                sampledLabels[i] = labels.get(chosen[i]);
            }
            return new LabelledSentences(sampledTexts, sampledLabels, empty);
        }
        return new LabelledSentences(texts, labels.stream().mapToInt(Integer::intValue).toArray(), empty);
    }
}
