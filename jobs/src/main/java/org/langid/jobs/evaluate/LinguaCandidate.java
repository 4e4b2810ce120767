package org.langid.jobs.evaluate;

import com.github.pemistahl.lingua.api.IsoCode639_1;
import com.github.pemistahl.lingua.api.Language;
import com.github.pemistahl.lingua.api.LanguageDetector;
import com.github.pemistahl.lingua.api.LanguageDetectorBuilder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.langid.text.Alphabet;

/**
 * Lingua 1.2.2, the detector people would otherwise pick on the JVM: restricted to those of the
 * model's languages it knows (by ISO 639-1 code; the others are {@link #unknownLanguages()}), high-accuracy mode (Lingua's default), language models preloaded so loading is not
 * timed as detection. It sees the same normalised (accent-stripped) text as our model, and may
 * decline (Language.UNKNOWN). Lingua's detector is thread-safe; texts are spread over
 * {@code threads} threads.
 */
public final class LinguaCandidate implements Candidate {

    public static final String NAME = "lingua-1.2.2";

    private final LanguageDetector lingua;
    private final Map<Language, Integer> indexOf = new HashMap<>();
    private final int declined;
    private final int threads;
    private final List<String> unknown = new ArrayList<>();
    private final String scope;

    /** @throws IllegalArgumentException when Lingua knows fewer than two of {@code languages}: it has nothing to choose between */
    public LinguaCandidate(List<String> languages, int threads) {
        this(languages, threads, "the model's languages");
    }

    /**
     * Restricted to those of the languages evaluated ({@link LanguageSubset#languages()}) it knows.
     *
     * @throws IllegalArgumentException when Lingua knows fewer than two of them
     */
    public LinguaCandidate(LanguageSubset subset, int threads) {
        this(subset.languages(), threads, subset.restricted() ? "the languages evaluated" : "the model's languages");
    }

    private LinguaCandidate(List<String> languages, int threads, String scope) {
        this.scope = scope;
        List<IsoCode639_1> codes = new ArrayList<>();
        for (int i = 0; i < languages.size(); i++) {
            IsoCode639_1 code = isoCode(languages.get(i));
            if (code == null) {
                unknown.add(languages.get(i));
            } else {
                codes.add(code);
                indexOf.put(Language.getByIsoCode639_1(code), i);
            }
        }
        if (codes.size() < 2) {
            throw new IllegalArgumentException("Lingua 1.2.2 knows " + codes.size() + " of " + scope + " ("
                    + String.join(", ", languages) + "); it needs two to choose between");
        }
        this.lingua = LanguageDetectorBuilder.fromIsoCodes639_1(codes.toArray(IsoCode639_1[]::new)).withPreloadedLanguageModels().build();
        this.declined = languages.size();
        this.threads = threads;
    }

    /** Lingua's code for {@code language}, or null when it has none (no such code, or a regional form such as zh-TW). */
    static IsoCode639_1 isoCode(String language) {
        try {
            IsoCode639_1 code = IsoCode639_1.valueOf(language.toUpperCase(Locale.ROOT));
            return code == IsoCode639_1.NONE ? null : code;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    @Override
    public List<String> unknownLanguages() {
        return List.copyOf(unknown);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Lingua 1.2.2, high-accuracy mode, restricted to " + scope
                + (unknown.isEmpty() ? "" : " it knows (not " + String.join(", ", unknown) + ")") + ", on the same normalised text";
    }

    @Override
    public boolean mayDecline() {
        return true;
    }

    @Override
    public int[] predictWindows(char[] symbols, int window, Alphabet alphabet) {
        int rows = symbols.length / window;
        return predict(rows, row -> alphabet.decode(symbols, row * window, window));
    }

    @Override
    public Answers predictTexts(List<String> texts, Alphabet alphabet) {
        return new Answers(predict(texts.size(), texts::get), null);
    }

    @Override
    public String withoutConfidence() {
        return "Lingua 1.2.2's confidence values are not probabilities: the language it answers always has 1.0, the others "
                + "a ratio of log-probabilities to it; read as a probability, its ECE would be 1 - accuracy";
    }

    /** Detects one text; the index of its language, or the declined index. */
    public int predict(String text) {
        return indexOf.getOrDefault(lingua.detectLanguageOf(text), declined);
    }

    private int[] predict(int count, java.util.function.IntFunction<String> text) {
        int[] predicted = new int[count];
        Chunks.run(count, 512, threads, (from, to) -> {
            for (int i = from; i < to; i++) {
                predicted[i] = predict(text.apply(i));
            }
        });
        return predicted;
    }
}
