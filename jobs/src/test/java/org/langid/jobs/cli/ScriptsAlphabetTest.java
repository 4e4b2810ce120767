package org.langid.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.Character.UnicodeScript;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.langid.jobs.prepare.PreparedAlphabet;
import org.langid.model.artefact.ModelArtefact;
import org.langid.model.predict.LanguageDetector;
import org.langid.model.schema.JsonSchemas;
import org.langid.serving.ServingModel;
import org.langid.serving.TextDetector;
import org.langid.text.Alphabet;

/**
 * A corpus in four scripts, prepared with {@code prepare.alphabet: scripts}, trained, exported
 * and served: every stage reads text through the alphabet prepare derived and the manifest
 * records, so Greek, Russian and Hindi are read as themselves instead of being dropped.
 */
class ScriptsAlphabetTest {

    @TempDir
    Path temp;

    private static final Map<String, String[]> WORDS = Map.of(
            "en", new String[] {"the", "house", "is", "green", "and", "we", "walk", "to", "school", "every", "morning", "with", "friends"},
            "el", new String[] {"το", "σπίτι", "είναι", "πράσινο", "και", "περπατάμε", "στο", "σχολείο", "κάθε", "πρωί", "με", "φίλους"},
            "ru", new String[] {"дом", "зелёный", "и", "мы", "идём", "в", "школу", "каждое", "утро", "с", "друзьями", "вместе"},
            "hi", new String[] {"घर", "हरा", "है", "और", "हम", "हर", "सुबह", "दोस्तों", "के", "साथ", "स्कूल", "जाते"});

    @Test
    void fourScriptsArePreparedTrainedExportedAndDetectedAsThemselves() throws IOException {
        Path corpus = Files.createDirectories(temp.resolve("corpus"));
        for (var language : WORDS.entrySet()) {
            Files.write(corpus.resolve(language.getKey() + ".txt"), sentences(language.getValue(), 80), StandardCharsets.UTF_8);
        }
        Path prepared = temp.resolve("prepared");
        run("prepare", "--master", "local[2]", "-i", corpus.toString(), "-o", prepared.toString(), "--set", "prepare.alphabet=scripts");

        JsonNode written = new ObjectMapper().readTree(prepared.resolve(PreparedAlphabet.FILE).toFile());
        assertEquals(List.of(), JsonSchemas.problems(PreparedAlphabet.SCHEMA_FILE, written));
        Alphabet alphabet = PreparedAlphabet.read(prepared.toString(), new Configuration());
        assertTrue(alphabet.scripts().containsAll(List.of(UnicodeScript.LATIN, UnicodeScript.GREEK, UnicodeScript.CYRILLIC,
                UnicodeScript.DEVANAGARI)), alphabet.scripts().toString());
        assertTrue(alphabet.contains('ё') && alphabet.contains('ί') && alphabet.contains('\u093E'),
                "accents and Devanagari's vowel signs are symbols of their own");

        Path trained = temp.resolve("trained");
        run("train", "--master", "local[2]", "-i", prepared.toString(), "-o", trained.toString(),
                "--set", "model.languages=[en, el, ru, hi]", "--set", "model.d_model=16", "--set", "model.heads=2",
                "--set", "model.ffn=32", "--set", "model.ngram_buckets=4096", "--set", "model.ngram_filter_bits=65536",
                "--set", "train.batch_size=32", "--set", "train.max_steps=60");
        Path registry = temp.resolve("registry");
        run("export", "-i", trained.toString(), "--registry", registry.toString());

        Configuration conf = new Configuration();
        ModelArtefact artefact = ModelArtefact.load(org.langid.model.artefact.ModelRegistry.resolve(registry.toString(), conf), conf);
        assertEquals(alphabet, artefact.manifest().alphabet(), "the artefact reads text as prepare cut it");
        assertEquals(alphabet.pad(), artefact.manifest().padIndex());

        List<String> texts = List.of("we walk to school with friends", "περπατάμε στο σχολείο με φίλους",
                "мы идём в школу с друзьями", "हम दोस्तों के साथ स्कूल जाते");
        List<String> expected = List.of("en", "el", "ru", "hi");
        TextDetector.Options options = new TextDetector.Options(TextDetector.DEFAULT_STRIDE, 256, 64, true);
        try (ServingModel served = ServingModel.load(registry, options, 1)) {
            assertEquals(alphabet, served.detector().alphabet());
            var detections = served.detector().detectAll(texts);
            for (int i = 0; i < texts.size(); i++) {
                assertEquals(expected.get(i), detections.get(i).language(), texts.get(i) + ": " + detections.get(i));
            }
        }
        // The SameDiff graph (what training and visualize run) reads the same symbols as ONNX.
        try (LanguageDetector sameDiff = new LanguageDetector(artefact, LanguageDetector.Options.defaults())) {
            for (int i = 0; i < texts.size(); i++) {
                assertEquals(expected.get(i), sameDiff.detect(texts.get(i)).language(), texts.get(i));
            }
        }
    }

    @Test
    void anUnknownAlphabetIsAOneLineError() {
        StringWriter err = new StringWriter();
        int code = LangidCommand.execute(new PrintWriter(err, true), "prepare", "-i", "x", "-o", "y", "--set", "prepare.alphabet=latin");
        assertEquals(1, code, err.toString());
        assertTrue(err.toString().strip().lines().count() == 1 && err.toString().contains("alphabet 'latin' is not one of seed, scripts"),
                err.toString());
    }

    /** {@code count} different sentences of eight words each, drawn from {@code words} by a fixed rule. */
    private static List<String> sentences(String[] words, int count) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            StringBuilder sentence = new StringBuilder();
            for (int w = 0; w < 8; w++) {
                String word = words[(i * 7 + w * (i % 5 + 1)) % words.length];
                sentence.append(w == 0 ? Character.toUpperCase(word.charAt(0)) + word.substring(1) : " " + word);
            }
            out.add(sentence.append('.').toString());
        }
        return out;
    }

    private static void run(String... args) {
        org.langid.jobs.LangidRuns.output(args);
    }
}
