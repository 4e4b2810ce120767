package org.langid.jobs.evaluate;

import java.lang.Character.UnicodeScript;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.langid.text.Alphabet;

/**
 * The script of each language, taken from its own evaluation data: the commonest Unicode script
 * among the letters of its texts. Counted, not looked up, so a language written in a script no
 * table foresaw (Serbian in Cyrillic or Latin, say) is put where its data says.
 */
public final class LanguageScripts {

    private static final UnicodeScript[] SCRIPTS = UnicodeScript.values();

    private final List<String> languages;
    private final long[][] letters;

    public LanguageScripts(List<String> languages) {
        this.languages = List.copyOf(languages);
        this.letters = new long[languages.size()][SCRIPTS.length];
    }

    /**
     * Counts the letters of one text of {@code language}. A fallback symbol of a scripts alphabet
     * (a decoded window's stand-in for a rare character) counts for its script.
     */
    public void add(int language, CharSequence text) {
        for (int i = 0; i < text.length(); ) {
            int c = Character.codePointAt(text, i);
            i += Character.charCount(c);
            add(language, c, 1);
        }
    }

    /** Counts {@code times} occurrences of the character {@code c} in texts of {@code language}. */
    public void add(int language, int c, long times) {
        UnicodeScript script = c <= Character.MAX_VALUE ? Alphabet.fallbackScript((char) c) : null;
        if (script == null && Character.isLetter(c)) {
            script = UnicodeScript.of(c);
        }
        if (script != null && script != UnicodeScript.COMMON && script != UnicodeScript.INHERITED && script != UnicodeScript.UNKNOWN) {
            letters[language][script.ordinal()] += times;
        }
    }

    /** Counts the letters of windows as prepare cut them (symbol indices of {@code alphabet}; PAD and beyond are no letters). */
    public void addWindows(int[] labels, char[] symbols, int window, Alphabet alphabet) {
        long[][] bySymbol = new long[languages.size()][alphabet.size()];
        for (int row = 0; row < labels.length; row++) {
            long[] counts = bySymbol[labels[row]];
            for (int i = row * window; i < (row + 1) * window; i++) {
                if (symbols[i] < counts.length) {
                    counts[symbols[i]]++;
                }
            }
        }
        for (int language = 0; language < bySymbol.length; language++) {
            for (int symbol = 0; symbol < alphabet.size(); symbol++) {
                if (bySymbol[language][symbol] > 0) {
                    add(language, alphabet.symbolAt(symbol), bySymbol[language][symbol]);
                }
            }
        }
    }

    /** The language's commonest script (the first in Unicode's order on a tie), or UNKNOWN when it had no letters. */
    public UnicodeScript scriptOf(int language) {
        long[] counts = letters[language];
        int best = -1;
        for (int s = 0; s < counts.length; s++) {
            if (counts[s] > 0 && (best < 0 || counts[s] > counts[best])) {
                best = s;
            }
        }
        return best < 0 ? UnicodeScript.UNKNOWN : SCRIPTS[best];
    }

    /** The share of the language's letters in its script (1 when it has none). */
    public double share(int language) {
        long total = 0;
        for (long count : letters[language]) {
            total += count;
        }
        UnicodeScript script = scriptOf(language);
        return total == 0 ? 1 : letters[language][script.ordinal()] / (double) total;
    }

    public long letters(int language) {
        long total = 0;
        for (long count : letters[language]) {
            total += count;
        }
        return total;
    }

    /** Each language's script, in the order of the languages. */
    public List<UnicodeScript> scripts() {
        List<UnicodeScript> out = new ArrayList<>();
        for (int i = 0; i < languages.size(); i++) {
            out.add(scriptOf(i));
        }
        return out;
    }

    /**
     * The distinct scripts, in the order their first language comes; not UNKNOWN, the "script" of a
     * label with no letters in the data (a model's und class, a language with no items).
     */
    public List<UnicodeScript> distinct() {
        List<UnicodeScript> out = new ArrayList<>();
        for (UnicodeScript script : scripts()) {
            if (script != UnicodeScript.UNKNOWN && !out.contains(script)) {
                out.add(script);
            }
        }
        return out;
    }

    /** As people write it: LATIN → Latin, OL_CHIKI → Ol Chiki. */
    public static String name(UnicodeScript script) {
        String[] words = script.name().toLowerCase(Locale.ROOT).split("_");
        StringBuilder name = new StringBuilder();
        for (String word : words) {
            if (!name.isEmpty()) {
                name.append(' ');
            }
            name.append(Character.toUpperCase(word.charAt(0))).append(word.substring(1));
        }
        return name.toString();
    }
}
