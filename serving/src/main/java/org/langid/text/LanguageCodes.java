package org.langid.text;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Validates language codes: ISO 639-1 (two letters, checked against the JDK's list) or
 * ISO 639-3 style (three lowercase letters). Codes are compared in lower case; region or
 * script suffixes ("pt-BR", "en_US") are not language codes and are refused, as are the
 * special codes that name no language (und, mul, mis, zxx).
 */
public final class LanguageCodes {

    private static final Set<String> ISO_639_1 = Set.of(Locale.getISOLanguages());
    private static final Set<String> NOT_A_LANGUAGE = Set.of("und", "mul", "mis", "zxx");
    /** ISO 639-2/3 code → ISO 639-1 code, where the language has one ("eng" → "en", "deu" → "de"). */
    private static final java.util.Map<String, String> TWO_LETTER_OF = twoLetterCodes();

    private LanguageCodes() {
    }

    /** Why {@code code} is not a valid language code, or empty if it is. */
    public static Optional<String> problem(String code) {
        if (code == null || code.isBlank()) {
            return Optional.of("missing language code");
        }
        String lower = code.trim().toLowerCase(Locale.ROOT);
        if (lower.length() == 2 && lower.chars().allMatch(c -> c >= 'a' && c <= 'z')) {
            return ISO_639_1.contains(lower)
                    ? Optional.empty()
                    : Optional.of("'" + code + "' is not an ISO 639-1 language code");
        }
        if (lower.length() == 3 && lower.chars().allMatch(c -> c >= 'a' && c <= 'z')) {
            return NOT_A_LANGUAGE.contains(lower)
                    ? Optional.of("'" + code + "' names no language")
                    : Optional.empty();
        }
        return Optional.of("'" + code + "' is not a language code (expected ISO 639-1 like 'en' or ISO 639-3 like 'eng')");
    }

    /** Whether {@code code} is valid. */
    public static boolean isValid(String code) {
        return problem(code).isEmpty();
    }

    /**
     * The canonical form of a valid code: trimmed, lower case, and the ISO 639-1 code where the
     * language has one, so Tatoeba's "eng" and a file named "en.txt" are the same language.
     * Throws with the reason for an invalid code.
     */
    public static String canonical(String code) {
        problem(code).ifPresent(reason -> {
            throw new IllegalArgumentException(reason);
        });
        String lower = code.trim().toLowerCase(Locale.ROOT);
        return TWO_LETTER_OF.getOrDefault(lower, lower);
    }

    private static java.util.Map<String, String> twoLetterCodes() {
        java.util.Map<String, String> map = new java.util.HashMap<>();
        for (String twoLetter : Locale.getISOLanguages()) {
            try {
                map.putIfAbsent(Locale.forLanguageTag(twoLetter).getISO3Language(), twoLetter);
            } catch (java.util.MissingResourceException e) {
                // No three-letter form known to the JDK: the two-letter code stands alone.
            }
        }
        return java.util.Map.copyOf(map);
    }
}
