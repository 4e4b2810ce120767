package org.langid.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.lang.Character.UnicodeScript;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AlphabetTest {

    /** A derived alphabet whose symbols are exactly {@code characters} (each counted once). */
    static Alphabet alphabetOf(String characters) {
        Map<Character, Long> counts = new HashMap<>();
        characters.chars().forEach(c -> counts.merge((char) c, 1L, Long::sum));
        return Alphabet.derive(Map.of("xx", counts), 1.0, 1);
    }

    @Test
    void theSeedAlphabetIsTheTutorialsRuleAndSymbols() {
        Alphabet seed = Alphabet.of(TextNormalizer.RULE_ID, Vocabulary.SYMBOLS);
        assertSame(Alphabet.SEED, seed);
        assertEquals(68, seed.size());
        assertEquals(68, seed.pad());
        assertEquals("Ca ete Strae", seed.normalize("Ça été Straße"));
        for (int i = 0; i < Vocabulary.SIZE; i++) {
            assertEquals(i, seed.indexOf(Vocabulary.symbolAt(i)));
        }
        assertThrows(IllegalArgumentException.class, () -> Alphabet.of(TextNormalizer.RULE_ID, "abc"));
    }

    @Test
    void derivedAlphabetsKeepAccentsAndEveryLanguagesLettersWhateverItsShare() {
        Map<String, Map<Character, Long>> counts = new LinkedHashMap<>();
        counts.put("de", count("Straße über Äpfel ".repeat(10_000)));
        counts.put("el", count("Καλημέρα"));                               // a ten-thousandth of the text
        Alphabet alphabet = Alphabet.derive(counts, 0.999, 1);
        assertEquals("Straße über Äpfel", alphabet.normalize("  Straße \t über  Äpfel "));
        assertEquals("Καλημέρα", alphabet.normalize("Καλημέρα"));
        assertTrue(alphabet.scripts().containsAll(java.util.Set.of(UnicodeScript.LATIN, UnicodeScript.GREEK)));
    }

    @Test
    void aCharacterOutsideTheAlphabetBecomesItsScriptsFallbackNeverNothing() {
        Alphabet alphabet = alphabetOf("abc ");
        String normalised = alphabet.normalize("ab Привет 日本 x\uD83D\uDE00");
        char cyrillic = Alphabet.fallbackOf(UnicodeScript.CYRILLIC);
        char han = Alphabet.fallbackOf(UnicodeScript.HAN);
        char latin = Alphabet.fallbackOf(UnicodeScript.LATIN);
        char common = Alphabet.fallbackOf(UnicodeScript.COMMON);
        assertEquals("ab " + String.valueOf(cyrillic).repeat(6) + " " + han + han + " " + latin + common, normalised);
        assertEquals(UnicodeScript.CYRILLIC, Alphabet.fallbackScript(cyrillic));
        assertEquals(null, Alphabet.fallbackScript('a'));
        assertEquals(normalised, alphabet.normalize(normalised), "normalising twice changes nothing");
    }

    @Test
    void normalisedTextIsAlwaysSymbolsWithSingleSpaces() {
        Alphabet alphabet = alphabetOf("aäbc\u0915\u093F ");
        StringBuilder everything = new StringBuilder();
        for (int c = 0; c < 0x30000; c += 7) {
            if (Character.isValidCodePoint(c) && !Character.isSurrogate((char) c) || c >= 0x10000) {
                everything.appendCodePoint(c);
            }
        }
        String normalised = alphabet.normalize(everything);
        normalised.chars().forEach(c -> assertTrue(alphabet.contains(c), "U+" + Integer.toHexString(c)));
        assertFalse(normalised.contains("  ") || normalised.startsWith(" ") || normalised.endsWith(" "));
        assertEquals(normalised.length(), alphabet.encode(normalised).length);
        assertEquals("कि", alphabet.normalize("\u0915\u093F"), "a vowel sign stays a symbol of its own");
        assertEquals("ä", alphabet.normalize("a\u0308"), "composed, not stripped");
    }

    @Test
    void manifestsWithAnotherRuleOrAnIncompleteAlphabetAreRefused() {
        Alphabet alphabet = alphabetOf("abc ");
        assertEquals(alphabet, Alphabet.of(Alphabet.SCRIPTS_RULE, alphabet.symbols()));
        assertThrows(IllegalArgumentException.class, () -> Alphabet.of("nfkc/v9", alphabet.symbols()));
        assertThrows(IllegalArgumentException.class, () -> Alphabet.of(Alphabet.SCRIPTS_RULE, "abc "), "no fallbacks");
        assertThrows(IllegalArgumentException.class, () -> Alphabet.of(Alphabet.SCRIPTS_RULE, "a" + alphabet.symbols()), "repeated");
    }

    @Test
    void everyScriptOfThisJdkHasAFallback() {
        for (UnicodeScript script : UnicodeScript.values()) {
            char fallback = Alphabet.fallbackOf(script);
            UnicodeScript back = Alphabet.fallbackScript(fallback);
            assertTrue(back == script || back == UnicodeScript.UNKNOWN, script.name());
        }
        assertEquals(UnicodeScript.LATIN, Alphabet.fallbackScript('\uE001'), "numbers are frozen: LATIN is 1");
    }

    @Test
    void survivesJavaSerialisationAsSparkShipsIt() throws Exception {
        Alphabet derived = alphabetOf("abc ");
        assertSame(Alphabet.SEED, roundTrip(Alphabet.SEED));
        Alphabet copy = (Alphabet) roundTrip(derived);
        assertEquals(derived, copy);
        assertEquals("ab", copy.normalize("ab"));
    }

    private static Object roundTrip(Object value) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return in.readObject();
        }
    }

    private static Map<Character, Long> count(String text) {
        Map<Character, Long> counts = new HashMap<>();
        Alphabet.normalizeKeepingEveryCharacter(text).chars().forEach(c -> counts.merge((char) c, 1L, Long::sum));
        return counts;
    }
}
