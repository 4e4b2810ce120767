package org.langid.jobs.evaluate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.Character.UnicodeScript;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.langid.text.Alphabet;

class LanguageScriptsTest {

    @Test
    void theCommonestScriptOfALanguagesLettersIsItsScript() {
        LanguageScripts scripts = new LanguageScripts(List.of("sr", "ja", "el", "xx"));
        scripts.add(0, "Сва људска бића рађају се слободна, 1948. UN");            // Cyrillic, with digits and two Latin capitals
        scripts.add(1, "すべての人間は、生まれながらにして自由であり");                 // Hiragana outnumbers Han here
        scripts.add(2, "Όλοι οι άνθρωποι γεννιούνται ελεύθεροι");
        scripts.add(3, "123 … !?");
        assertEquals(List.of(UnicodeScript.CYRILLIC, UnicodeScript.HIRAGANA, UnicodeScript.GREEK, UnicodeScript.UNKNOWN), scripts.scripts());
        assertEquals(List.of(UnicodeScript.CYRILLIC, UnicodeScript.HIRAGANA, UnicodeScript.GREEK), scripts.distinct(),
                "a label without letters (a model's und class) has no script to report");
        assertEquals(31, scripts.letters(0), "29 Cyrillic letters and 2 Latin");
        assertEquals(29 / 31.0, scripts.share(0), 1e-12);
        assertEquals(0, scripts.letters(3));
        assertEquals("Unknown", LanguageScripts.name(scripts.scriptOf(3)));
        assertEquals("Ol Chiki", LanguageScripts.name(UnicodeScript.OL_CHIKI));
    }

    @Test
    void windowsCountTheirSymbolsAndAFallbackForItsScript() {
        // A scripts alphabet with Latin letters only: Greek text is read as Greek's fallback symbol.
        Alphabet alphabet = Alphabet.derive(java.util.Map.of("en", java.util.Map.of('a', 10L, 'b', 10L, ' ', 5L)), 1.0, 1);
        String[] texts = {"ab ab", "ααα β"};
        char[] symbols = new char[10];
        for (int row = 0; row < 2; row++) {
            char[] encoded = alphabet.encode(alphabet.normalize(texts[row]));
            System.arraycopy(encoded, 0, symbols, row * 5, 5);
        }
        LanguageScripts scripts = new LanguageScripts(List.of("en", "el"));
        scripts.addWindows(new int[] {0, 1}, symbols, 5, alphabet);
        assertEquals(List.of(UnicodeScript.LATIN, UnicodeScript.GREEK), scripts.scripts());
        assertEquals(4, scripts.letters(1));
    }
}
