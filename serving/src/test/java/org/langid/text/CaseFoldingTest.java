package org.langid.text;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class CaseFoldingTest {

    private static final Alphabet SEED = Alphabet.SEED;
    private static final int PAD = Vocabulary.SIZE;

    @Test
    void upperAndLowerMatchJavasCaseMappingOverTheSeedAlphabet() {
        for (int i = 0; i < Vocabulary.SIZE; i++) {
            char symbol = Vocabulary.symbolAt(i);
            assertEquals(Character.toUpperCase(symbol), Vocabulary.symbolAt(SEED.toUpper(i)), "upper of " + symbol);
            assertEquals(Character.toLowerCase(symbol), Vocabulary.symbolAt(SEED.toLower(i)), "lower of " + symbol);
        }
        assertEquals(PAD, SEED.toUpper(PAD));
        assertEquals(PAD, SEED.toLower(PAD));
    }

    @Test
    void capitalsOfOtherScriptsAreFoldedWhenTheAlphabetHasTheirSmallLetters() {
        Alphabet alphabet = AlphabetTest.alphabetOf("ΑΒΓαβγÄäßẞ ");
        int[] symbols = new int[16];
        String text = "ΑΒΓ ÄẞΑ";
        for (int j = 0; j < 16; j++) {
            symbols[j] = j < text.length() ? alphabet.indexOf(text.charAt(j)) : alphabet.pad();
        }
        assertEquals(1, CaseFolding.foldCapitalWindows(alphabet, symbols, 16));
        assertEquals("αβγ äßα", alphabet.decode(toChars(symbols), 0, text.length()));
    }

    private static char[] toChars(int[] symbols) {
        char[] chars = new char[symbols.length];
        for (int i = 0; i < symbols.length; i++) {
            chars[i] = (char) symbols[i];
        }
        return chars;
    }

    @Test
    void onlyWindowsWithTwoCapitalsAndNoSmallLetterAreFolded() {
        String[] windows = {
            "ALLMAN FORKLARIN",   // capitals only: folded
            "The UN and the E",   // has small letters: kept
            "I 1995, 2000 ...",   // one capital: kept
            "1995; 2000. 2001",   // no letters: kept
            "OK!",                // short, padded, two capitals: folded
        };
        int[] symbols = new int[windows.length * 16];
        for (int w = 0; w < windows.length; w++) {
            write(symbols, w, windows[w]);
        }
        assertEquals(2, CaseFolding.foldCapitalWindows(SEED, symbols, 16));
        String[] expected = {"allman forklarin", "The UN and the E", "I 1995, 2000 ...", "1995; 2000. 2001", "ok!"};
        for (int w = 0; w < windows.length; w++) {
            int[] want = new int[16];
            write(want, 0, expected[w]);
            int[] got = new int[16];
            System.arraycopy(symbols, w * 16, got, 0, 16);
            assertArrayEquals(want, got, windows[w]);
        }
    }

    @Test
    void symbolsThatAreNotWholeWindowsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> CaseFolding.foldCapitalWindows(SEED, new int[17], 16));
    }

    private static void write(int[] symbols, int row, String text) {
        for (int j = 0; j < 16; j++) {
            symbols[row * 16 + j] = j < text.length() ? Vocabulary.indexOf(text.charAt(j)) : PAD;
        }
    }
}
