package org.langid.text;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.Serializable;
import java.lang.Character.UnicodeScript;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * How a model reads text: a normalisation rule and the ordered symbols a window is made of
 * (index i is the i-th character of {@link #symbols()}; {@link #pad()} = {@link #size()} pads
 * short windows). Part of the model: prepare, training, export and every detector read text
 * through the alphabet recorded in the artefact's manifest ({@code normalisation},
 * {@code vocabulary}).
 *
 * <p>Two rules:
 * <ul>
 *   <li>{@value TextNormalizer#RULE_ID} ({@link #SEED}): the reference tutorial's 68 symbols,
 *       accents and every other script dropped ({@link TextNormalizer}).</li>
 *   <li>{@value #SCRIPTS_RULE} ({@link #derive}): NFC, so accented letters stay letters; combining
 *       marks that carry a letter (Devanagari's vowel signs, Thai's tones) stay symbols of their
 *       own; typographic apostrophes become {@code '}; control and format characters go (except
 *       the zero-width (non-)joiner, which Persian and the Indic scripts spell with); whitespace
 *       runs become one space. A character that is not one of the alphabet's symbols becomes the
 *       <em>fallback</em> symbol of its Unicode script (a private-use character, U+E000 + the
 *       script's number in {@link #FALLBACK_SCRIPTS}), so nothing is dropped and the model still
 *       sees which script it was; every script has one.</li>
 * </ul>
 * Normalised text therefore holds only symbols, one {@code char} each.
 */
public final class Alphabet implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The corpus-derived alphabet's rule; change it whenever the output of any input changes. */
    public static final String SCRIPTS_RULE = "nfc-script-fallbacks/v1";
    /** Fallback symbols start here (private use area). */
    static final char FIRST_FALLBACK = '\uE000';
    /**
     * The scripts with a fallback symbol, in the order of their symbols: Java 17's
     * {@link UnicodeScript} constants, frozen here so that a later JDK that adds scripts does
     * not renumber them (its new scripts read as {@link UnicodeScript#UNKNOWN}).
     */
    public static final List<UnicodeScript> FALLBACK_SCRIPTS = frozenScripts();
    /** The fallback symbol of each of this JDK's scripts, by ordinal: looked up for every character an alphabet lacks. */
    private static final char[] FALLBACK_BY_ORDINAL = fallbacksByOrdinal();

    /** The reference tutorial's alphabet (seed 001): 68 symbols, accents dropped. */
    public static final Alphabet SEED = new Alphabet(TextNormalizer.RULE_ID, Vocabulary.SYMBOLS);

    private final String normalisation;
    private final String symbols;
    private transient short[] indexOfChar;   // built on first use (also after deserialisation)
    private transient int[] lower;
    private transient int[] upper;
    private transient Set<UnicodeScript> readScripts;
    private static volatile BitSet seedLetters;   // BMP letters the seed rule keeps (as a-z, A-Z), made when first needed

    private Alphabet(String normalisation, String symbols) {
        this.normalisation = normalisation;
        this.symbols = symbols;
    }

    /**
     * The alphabet a manifest (or a prepared directory) records.
     *
     * @throws IllegalArgumentException naming what this code cannot read
     */
    public static Alphabet of(String normalisation, String symbols) {
        if (TextNormalizer.RULE_ID.equals(normalisation)) {
            if (!Vocabulary.SYMBOLS.equals(symbols)) {
                throw new IllegalArgumentException("normalisation '" + normalisation + "' has the tutorial's " + Vocabulary.SIZE
                        + " symbols, not " + symbols.length());
            }
            return SEED;
        }
        if (!SCRIPTS_RULE.equals(normalisation)) {
            throw new IllegalArgumentException("normalisation '" + normalisation + "' is not one this langid implements ("
                    + TextNormalizer.RULE_ID + ", " + SCRIPTS_RULE + ")");
        }
        BitSet seen = new BitSet(1 << 16);
        for (int i = 0; i < symbols.length(); i++) {
            char c = symbols.charAt(i);
            if (seen.get(c) || Character.isSurrogate(c) || TextNormalizer.isWhitespace(c) && c != ' ') {
                throw new IllegalArgumentException("the alphabet's symbol U+" + hex(c) + " at " + i + " is repeated or not a symbol");
            }
            seen.set(c);
        }
        for (int s = 0; s < FALLBACK_SCRIPTS.size(); s++) {
            if (!seen.get(FIRST_FALLBACK + s)) {
                throw new IllegalArgumentException("the alphabet lacks the fallback symbol of " + FALLBACK_SCRIPTS.get(s));
            }
        }
        return new Alphabet(normalisation, symbols);
    }

    /**
     * A {@value #SCRIPTS_RULE} alphabet from the characters of normalised training text, counted
     * per language: each language contributes its most frequent characters until they cover
     * {@code coverage} of its characters (so a language's letters are in whatever its share of
     * the corpus), those seen fewer than {@code minCount} times excepted. Then space and the
     * fallback symbols of every script. Symbols are in code point order, so the same counts give
     * the same alphabet.
     *
     * @param countsByLanguage per language, occurrences of each character of its text as
     *                         {@link #normalizeKeepingEveryCharacter} gives it
     */
    public static Alphabet derive(Map<String, Map<Character, Long>> countsByLanguage, double coverage, long minCount) {
        if (!(coverage > 0 && coverage <= 1)) {
            throw new IllegalArgumentException("coverage must be in (0, 1], got " + coverage);
        }
        Set<Character> chosen = new TreeSet<>();
        chosen.add(' ');
        for (Map<Character, Long> counts : countsByLanguage.values()) {
            long total = counts.values().stream().mapToLong(Long::longValue).sum();
            List<Map.Entry<Character, Long>> byCount = new ArrayList<>(counts.entrySet());
            byCount.sort(Map.Entry.<Character, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
            long covered = 0;
            for (Map.Entry<Character, Long> entry : byCount) {
                if (covered >= coverage * total || entry.getValue() < minCount) {
                    break;
                }
                covered += entry.getValue();
                if (!isFallback(entry.getKey())) {
                    chosen.add(entry.getKey());
                }
            }
        }
        StringBuilder symbols = new StringBuilder(chosen.size() + FALLBACK_SCRIPTS.size());
        chosen.forEach(symbols::append);
        for (int s = 0; s < FALLBACK_SCRIPTS.size(); s++) {
            symbols.append((char) (FIRST_FALLBACK + s));
        }
        return of(SCRIPTS_RULE, symbols.toString());
    }

    /**
     * Text as the {@value #SCRIPTS_RULE} rule normalises it before any alphabet exists: every BMP
     * character kept (those outside the BMP already fallbacks). What {@link #derive} counts.
     */
    public static String normalizeKeepingEveryCharacter(CharSequence text) {
        return normalizeScripts(text, null);
    }

    /**
     * As configuration and manifests write it: {@code "seed"}, or {@code {normalisation, vocabulary}}
     * (the manifest's names for the rule and the symbols).
     */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static Alphabet fromJson(JsonNode node) {
        if (node.isTextual() && "seed".equals(node.asText())) {
            return SEED;
        }
        if (node.isObject() && node.path("normalisation").isTextual() && node.path("vocabulary").isTextual()) {
            return of(node.get("normalisation").asText(), node.get("vocabulary").asText());
        }
        throw new IllegalArgumentException("an alphabet is 'seed' or {normalisation, vocabulary} as prepare writes it, not " + node);
    }

    @JsonValue
    public Object toJson() {
        if (isSeed()) {
            return "seed";
        }
        Map<String, String> json = new java.util.LinkedHashMap<>();
        json.put("normalisation", normalisation);
        json.put("vocabulary", symbols);
        return json;
    }

    public String normalisation() {
        return normalisation;
    }

    /** The symbols in index order (the manifest's {@code vocabulary}). */
    public String symbols() {
        return symbols;
    }

    public int size() {
        return symbols.length();
    }

    /** Index of the padding symbol, one past the symbols. */
    public int pad() {
        return symbols.length();
    }

    /** Symbols plus PAD: the rows of the model's character embedding. */
    public int inputSymbols() {
        return symbols.length() + 1;
    }

    public boolean isSeed() {
        return this == SEED;
    }

    /** Normalised text: only this alphabet's symbols, single spaces, trimmed. */
    public String normalize(CharSequence text) {
        return isSeed() ? TextNormalizer.normalize(text) : normalizeScripts(text, this);
    }

    /** Index of a symbol of normalised text; throws for anything else. */
    public int indexOf(char symbol) {
        int index = indexTable()[symbol];
        if (index < 0) {
            throw new IllegalArgumentException("character U+" + hex(symbol) + " is not in the alphabet");
        }
        return index;
    }

    public boolean contains(int codePoint) {
        return codePoint >= 0 && codePoint < 0x10000 && indexTable()[codePoint] >= 0;
    }

    public char symbolAt(int index) {
        return symbols.charAt(index);
    }

    /**
     * Normalised text as symbol indices. Text that the {@value #SCRIPTS_RULE} rule normalised with
     * another alphabet (or with none: {@link #normalizeKeepingEveryCharacter}) is read as this
     * alphabet would have normalised it: a character it lacks is its script's fallback.
     */
    public char[] encode(CharSequence normalised) {
        char[] out = new char[normalised.length()];
        for (int i = 0; i < out.length; i++) {
            char c = normalised.charAt(i);
            out[i] = (char) (isSeed() || contains(c) ? indexOf(c) : indexOf(fallbackOf(UnicodeScript.of(c))));
        }
        return out;
    }

    /** Indices back to text (PAD and fallbacks as they are: fallbacks are private-use characters). */
    public String decode(char[] indices, int from, int length) {
        StringBuilder text = new StringBuilder(length);
        for (int i = from; i < from + length; i++) {
            text.append(indices[i] < size() ? symbols.charAt(indices[i]) : ' ');
        }
        return text.toString();
    }

    /** The index of the same symbol in lower case when the alphabet has it; itself otherwise (PAD and beyond too). */
    public int toLower(int index) {
        caseTables();
        return index >= 0 && index < lower.length ? lower[index] : index;
    }

    /** The index of the same symbol in upper case when the alphabet has it; itself otherwise. */
    public int toUpper(int index) {
        caseTables();
        return index >= 0 && index < upper.length ? upper[index] : index;
    }

    /** Whether the symbol is a small letter whose capital is in the alphabet too. */
    public boolean isSmall(int index) {
        return toUpper(index) != index;
    }

    /** Whether the symbol is a capital whose small letter is in the alphabet too. */
    public boolean isCapital(int index) {
        return toLower(index) != index;
    }

    /** The script of the fallback symbol {@code c}, or null when it is not one. */
    public static UnicodeScript fallbackScript(char c) {
        return isFallback(c) ? FALLBACK_SCRIPTS.get(c - FIRST_FALLBACK) : null;
    }

    /** The fallback symbol of {@code script}. */
    public static char fallbackOf(UnicodeScript script) {
        return FALLBACK_BY_ORDINAL[script.ordinal()];
    }

    private static char[] fallbacksByOrdinal() {
        UnicodeScript[] scripts = UnicodeScript.values();
        char[] fallbacks = new char[scripts.length];
        for (UnicodeScript script : scripts) {
            int number = FALLBACK_SCRIPTS.indexOf(script);
            fallbacks[script.ordinal()] = (char) (FIRST_FALLBACK + (number < 0 ? FALLBACK_SCRIPTS.indexOf(UnicodeScript.UNKNOWN) : number));
        }
        return fallbacks;
    }

    private static boolean isFallback(char c) {
        return c >= FIRST_FALLBACK && c < FIRST_FALLBACK + FALLBACK_SCRIPTS.size();
    }

    /** The scripts whose letters have symbols of their own here (not only a fallback). */
    public Set<UnicodeScript> scripts() {
        Set<UnicodeScript> scripts = new TreeSet<>();
        for (int i = 0; i < size(); i++) {
            char c = symbols.charAt(i);
            UnicodeScript script = UnicodeScript.of(c);
            if (Character.isLetter(c) && !isFallback(c)) {
                scripts.add(script);
            }
        }
        return scripts;
    }

    /**
     * Whether {@code text} has letters and this alphabet reads at least half of them as letters
     * (the seed: Latin letters whose base is a-z; a derived alphabet: letters of the scripts it
     * has symbols for). A text in a script the model never saw, or with no letters at all, carries
     * no evidence for any of its languages: detectors answer {@code und} for it.
     */
    public boolean readsMostLetters(CharSequence text) {
        int letters = 0;
        int read = 0;
        for (int i = 0; i < text.length(); ) {
            int codePoint = Character.codePointAt(text, i);
            i += Character.charCount(codePoint);
            if (Character.isLetter(codePoint)) {
                letters++;
                read += readsLetter(codePoint) ? 1 : 0;
            }
        }
        return letters > 0 && 2 * read >= letters;
    }

    private boolean readsLetter(int codePoint) {
        if (codePoint < 128) {
            return isSeed() || contains(codePoint) || readScripts().contains(UnicodeScript.LATIN);
        }
        if (isSeed()) {
            return codePoint < 0x10000 && seedLetters().get(codePoint);
        }
        return contains(codePoint) || readScripts().contains(UnicodeScript.of(codePoint));
    }

    private Set<UnicodeScript> readScripts() {
        Set<UnicodeScript> scripts = readScripts;
        if (scripts == null) {
            scripts = Set.copyOf(scripts());
            readScripts = scripts;
        }
        return scripts;
    }

    private static BitSet seedLetters() {
        BitSet letters = seedLetters;
        if (letters == null) {
            letters = new BitSet(1 << 16);
            for (char c = 0x80; c < 0xFFFF; c++) {
                if (Character.isLetter(c) && UnicodeScript.of(c) == UnicodeScript.LATIN) {
                    String kept = TextNormalizer.normalize(String.valueOf(c));
                    letters.set(c, kept.length() == 1 && Character.isLetter(kept.charAt(0)));
                }
            }
            seedLetters = letters;
        }
        return letters;
    }

    /**
     * The {@value #SCRIPTS_RULE} rule with {@code alphabet}'s symbols (null: every BMP character
     * kept; characters outside the BMP always become fallbacks).
     */
    static String normalizeScripts(CharSequence text, Alphabet alphabet) {
        String composed = Normalizer.normalize(text, Normalizer.Form.NFC);
        short[] index = alphabet == null ? null : alphabet.indexTable();
        StringBuilder out = new StringBuilder(composed.length());
        boolean pendingSpace = false;
        for (int i = 0; i < composed.length(); ) {
            int codePoint = composed.codePointAt(i);
            i += Character.charCount(codePoint);
            if (codePoint == '\u2019' || codePoint == '\u2018') {
                codePoint = '\'';
            }
            if (TextNormalizer.isWhitespace(codePoint)) {
                pendingSpace = out.length() > 0;
                continue;
            }
            int type = Character.getType(codePoint);
            if (type == Character.CONTROL || type == Character.FORMAT && codePoint != 0x200C && codePoint != 0x200D
                    || type == Character.SURROGATE || codePoint == 0xFFFD) {
                continue;
            }
            char symbol;
            if (codePoint >= 0x10000) {
                symbol = fallbackOf(UnicodeScript.of(codePoint));
            } else if (isFallback((char) codePoint)) {
                symbol = (char) codePoint;                           // already a fallback: the rule is idempotent
            } else if (Character.getType(codePoint) == Character.PRIVATE_USE) {
                symbol = fallbackOf(UnicodeScript.UNKNOWN);
            } else if (index == null || index[codePoint] >= 0) {
                symbol = (char) codePoint;
            } else {
                symbol = fallbackOf(UnicodeScript.of(codePoint));
            }
            if (pendingSpace) {
                out.append(' ');
                pendingSpace = false;
            }
            out.append(symbol);
        }
        return out.toString();
    }

    private short[] indexTable() {
        short[] table = indexOfChar;
        if (table == null) {
            table = new short[1 << 16];
            Arrays.fill(table, (short) -1);
            for (int i = 0; i < symbols.length(); i++) {
                table[symbols.charAt(i)] = (short) i;
            }
            indexOfChar = table;
        }
        return table;
    }

    private void caseTables() {
        if (upper != null) {
            return;
        }
        int[] lowerOf = new int[size()];
        int[] upperOf = new int[size()];
        for (int i = 0; i < size(); i++) {
            char c = symbols.charAt(i);
            char l = Character.toLowerCase(c);
            char u = Character.toUpperCase(c);
            lowerOf[i] = l != c && Character.isUpperCase(c) && contains(l) ? indexOf(l) : i;
            upperOf[i] = u != c && Character.isLowerCase(c) && contains(u) ? indexOf(u) : i;
        }
        lower = lowerOf;
        upper = upperOf;
    }


    private static String hex(char c) {
        return String.format("%04X", (int) c);
    }

    /** Java 17's 156 named scripts in its order, then UNKNOWN (which later JDKs move to the end of their longer list). */
    private static List<UnicodeScript> frozenScripts() {
        List<UnicodeScript> scripts = new ArrayList<>(Arrays.asList(UnicodeScript.values()).subList(0, 156));
        scripts.remove(UnicodeScript.UNKNOWN);   // absent unless a JDK older than 17 runs this
        scripts.add(UnicodeScript.UNKNOWN);
        return List.copyOf(scripts);
    }

    /** Loaded artefacts share {@link #SEED}. */
    private Object readResolve() {
        return TextNormalizer.RULE_ID.equals(normalisation) ? SEED : this;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Alphabet a && a.normalisation.equals(normalisation) && java.util.Objects.equals(a.symbols, symbols);
    }

    @Override
    public int hashCode() {
        return normalisation.hashCode() * 31 + java.util.Objects.hashCode(symbols);
    }

    @Override
    public String toString() {
        return isSeed() ? "seed (68 symbols)" : symbols.length() + " symbols in " + scripts().size() + " scripts";
    }
}
