package org.langid.text;

import java.text.Normalizer;

/**
 * Normalises text to the 68-symbol vocabulary, as the reference tutorial (seed 001) does:
 * Unicode NFD, combining marks dropped, anything outside the vocabulary dropped, so "Ça
 * été" becomes "Ca ete". Two additions, recorded as rule {@value #RULE_ID}:
 * <ul>
 *   <li>the typographic apostrophes U+2019 and U+2018 become {@code '} (otherwise "l’homme"
 *       would become "lhomme");</li>
 *   <li>every run of whitespace (including whitespace left adjacent by dropped characters)
 *       becomes one space, and the result is trimmed.</li>
 * </ul>
 * Characters with no decomposition to ASCII (ß, æ, œ, ﬁ, Cyrillic, CJK) are dropped, exactly as
 * in the seed: NFD is canonical decomposition, not compatibility decomposition.
 * Training and prediction share this class, so a served model sees what it was trained on.
 */
public final class TextNormalizer {

    /** Identifies this rule in artefacts; change it whenever the output of any input changes. */
    public static final String RULE_ID = "nfd-drop-marks-vocab68-apostrophe-space/v1";

    private TextNormalizer() {
    }

    /** Returns the normalised form of {@code text}: vocabulary symbols only, single spaces, trimmed. */
    public static String normalize(CharSequence text) {
        String decomposed = Normalizer.normalize(text, Normalizer.Form.NFD);
        StringBuilder out = new StringBuilder(decomposed.length());
        boolean pendingSpace = false;
        for (int i = 0; i < decomposed.length(); ) {
            int codePoint = decomposed.codePointAt(i);
            i += Character.charCount(codePoint);
            if (codePoint == '\u2019' || codePoint == '\u2018') {
                codePoint = '\'';
            }
            if (isWhitespace(codePoint)) {
                pendingSpace = out.length() > 0;
                continue;
            }
            // Combining marks (category Mn) are never in the vocabulary, so this one test
            // implements both of the seed's conditions.
            if (!Vocabulary.contains(codePoint)) {
                continue;
            }
            if (pendingSpace) {
                out.append(' ');
                pendingSpace = false;
            }
            out.append((char) codePoint);
        }
        return out.toString();
    }

    /** Unicode White_Space: Java's whitespace, the no-break spaces, and NEL (U+0085). Both alphabets' rules collapse it. */
    static boolean isWhitespace(int codePoint) {
        return Character.isWhitespace(codePoint) || Character.isSpaceChar(codePoint) || codePoint == 0x85;
    }
}
