package org.langid.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LanguageCodesTest {

    @Test
    void acceptsIsoCodesAndCanonicalisesThreeLetterOnesWithATwoLetterForm() {
        for (String code : new String[] {"en", "de", "fr", "es", "it", "pt", "nl", "sv", "EN", " sv "}) {
            assertTrue(LanguageCodes.isValid(code), code);
        }
        assertEquals("en", LanguageCodes.canonical("eng"));
        assertEquals("de", LanguageCodes.canonical("deu"));
        assertEquals("sv", LanguageCodes.canonical("SWE"));
        assertEquals("yue", LanguageCodes.canonical("yue"), "639-3 codes without a 639-1 form stay as they are");
    }

    @Test
    void refusesWhatIsNotALanguageCode() {
        for (String code : new String[] {"", " ", "english", "e", "xx", "pt-BR", "en_US", "12", "und", "zxx", "\\N"}) {
            assertFalse(LanguageCodes.isValid(code), code);
        }
        assertEquals("'xx' is not an ISO 639-1 language code", LanguageCodes.problem("xx").orElseThrow());
    }
}
