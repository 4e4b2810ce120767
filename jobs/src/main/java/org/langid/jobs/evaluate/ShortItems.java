package org.langid.jobs.evaluate;

import java.lang.Character.UnicodeScript;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import org.langid.model.data.Mix64;
import org.langid.text.Alphabet;

/**
 * The short levels of {@code langid evaluate}: a word pair and a single word cut from each
 * sentence, the way people type search queries, titles and tags.
 *
 * <ul>
 *   <li>The sentence (as normalised for the model) is lower-cased ({@link Locale#ROOT}).</li>
 *   <li>A <b>word</b> is a maximal run of letters and combining marks; an apostrophe, hyphen or
 *       middle dot between two such characters stays inside it (l'homme, col·lecció). Everything
 *       else (spaces, punctuation, digits) separates words and is dropped. A symbol the model's
 *       alphabet writes as its script's fallback counts as a letter.</li>
 *   <li>A word whose letters are mostly of a script written without spaces ({@link #UNSPACED}:
 *       Chinese, Japanese, Thai, Lao, Khmer, Burmese, Tibetan) is a whole phrase, not a word: it is
 *       cut into consecutive pieces of {@value #MIN_PIECE} to {@value #MAX_PIECE} letters (the
 *       lengths drawn from the sentence's seed; the last piece is what remains), and each piece
 *       takes a word's place.</li>
 *   <li>A <b>single word</b> is a word of at least {@value #MIN_LETTERS} letters, or a piece of at
 *       least {@value #MIN_PIECE}.</li>
 *   <li>A <b>word pair</b> is two consecutive words (or pieces) of the sentence with at least
 *       {@value #MIN_LETTERS} letters together, joined by one space; two pieces of one unspaced
 *       run are joined as written, without a space.</li>
 *   <li>Each sentence gives at most one pair and one word, each drawn uniformly among its
 *       candidates by a generator seeded with the seed and the sentence's text: the same sentence
 *       gives the same items in every run, whatever else is evaluated. Items are not deduplicated.</li>
 * </ul>
 */
public final class ShortItems {

    /** Letters a single word (and a pair) needs: shorter words (a, de, the, und) are mostly shared by many languages. */
    public static final int MIN_LETTERS = 4;
    /** A piece of a run written without spaces: 2 to 4 letters, about a word of Chinese, Japanese or Thai. */
    public static final int MIN_PIECE = 2;
    public static final int MAX_PIECE = 4;
    /** The seed evaluate cuts with. */
    public static final long SEED = 20261206L;

    /** Scripts whose writers put no spaces between words. */
    public static final Set<UnicodeScript> UNSPACED = EnumSet.of(UnicodeScript.HAN, UnicodeScript.HIRAGANA, UnicodeScript.KATAKANA,
            UnicodeScript.THAI, UnicodeScript.LAO, UnicodeScript.KHMER, UnicodeScript.MYANMAR, UnicodeScript.TIBETAN);

    private ShortItems() {
    }

    /** What one sentence gives: its word pair and its single word, each null when it has none. */
    public record Cut(String pair, String word) {
    }

    /**
     * A word of the sentence, or a piece of a run written without spaces.
     *
     * @param run for a piece, the number of its run in the sentence (pieces of one run join without
     *            a space); -1 for a word
     */
    record Token(String text, int letters, int run) {

        boolean isPiece() {
            return run >= 0;
        }
    }

    /**
     * Cuts one sentence.
     *
     * @param readable whether the detector under evaluation can read an item at all (the model's
     *                 alphabet reads most of its letters); others are not candidates
     */
    public static Cut cut(String sentence, long seed, Predicate<String> readable) {
        SplittableRandom random = new SplittableRandom(Mix64.mix(seed ^ textHash(sentence)));
        List<Token> tokens = tokens(sentence, random);
        List<String> pairs = new ArrayList<>();
        for (int i = 0; i + 1 < tokens.size(); i++) {
            Token a = tokens.get(i);
            Token b = tokens.get(i + 1);
            String pair = a.text() + (a.isPiece() && a.run() == b.run() ? "" : " ") + b.text();
            if (a.letters() + b.letters() >= MIN_LETTERS && readable.test(pair)) {
                pairs.add(pair);
            }
        }
        List<String> words = new ArrayList<>();
        for (Token token : tokens) {
            if (token.letters() >= (token.isPiece() ? MIN_PIECE : MIN_LETTERS) && readable.test(token.text())) {
                words.add(token.text());
            }
        }
        int pair = random.nextInt(Math.max(1, pairs.size()));
        int word = random.nextInt(Math.max(1, words.size()));
        return new Cut(pairs.isEmpty() ? null : pairs.get(pair), words.isEmpty() ? null : words.get(word));
    }

    /** The sentence's words in order, lower-cased; runs written without spaces cut into pieces with lengths from {@code random}. */
    static List<Token> tokens(String sentence, SplittableRandom random) {
        String text = sentence.toLowerCase(Locale.ROOT);
        List<Token> tokens = new ArrayList<>();
        int runs = 0;
        int i = 0;
        while (i < text.length()) {
            int c = text.codePointAt(i);
            if (!isWordCharacter(c)) {
                i += Character.charCount(c);
                continue;
            }
            int start = i;
            int end = i;
            while (i < text.length()) {
                c = text.codePointAt(i);
                int next = i + Character.charCount(c);
                if (isWordCharacter(c)) {
                    i = next;
                    end = i;
                } else if (isJoiner(c) && next < text.length() && isWordCharacter(text.codePointAt(next))) {
                    i = next;   // the word character after it is taken next
                } else {
                    break;
                }
            }
            String word = text.substring(start, end);
            int letters = 0;
            int unspaced = 0;
            for (int k = 0; k < word.length(); ) {
                int d = word.codePointAt(k);
                k += Character.charCount(d);
                if (isLetter(d)) {
                    letters++;
                    unspaced += UNSPACED.contains(scriptOf(d)) ? 1 : 0;
                }
            }
            if (letters == 0) {
                continue;   // combining marks alone
            }
            if (2 * unspaced > letters) {
                pieces(word, runs++, random, tokens);
            } else {
                tokens.add(new Token(word, letters, -1));
            }
        }
        return tokens;
    }

    /** Cuts a run written without spaces into pieces of MIN_PIECE..MAX_PIECE letters, each with the marks that follow its letters. */
    private static void pieces(String run, int number, SplittableRandom random, List<Token> tokens) {
        int length = random.nextInt(MIN_PIECE, MAX_PIECE + 1);
        int start = 0;
        int letters = 0;
        for (int k = 0; k < run.length(); ) {
            int c = run.codePointAt(k);
            if (isLetter(c) && letters == length) {
                tokens.add(new Token(run.substring(start, k), letters, number));
                start = k;
                letters = 0;
                length = random.nextInt(MIN_PIECE, MAX_PIECE + 1);
            }
            letters += isLetter(c) ? 1 : 0;
            k += Character.charCount(c);
        }
        tokens.add(new Token(run.substring(start), letters, number));
    }

    private static boolean isLetter(int c) {
        return Character.isLetter(c) || isFallback(c);
    }

    private static boolean isWordCharacter(int c) {
        int type = Character.getType(c);
        return isLetter(c) || type == Character.NON_SPACING_MARK || type == Character.COMBINING_SPACING_MARK
                || type == Character.ENCLOSING_MARK;
    }

    /** Apostrophes, hyphens, the middle dot (Catalan l·l) and the Tibetan syllable mark, kept between two word characters. */
    private static boolean isJoiner(int c) {
        return c == '\'' || c == '\u2019' || c == '-' || c == '\u2010' || c == '\u2011' || c == '\u00B7' || c == '\u0F0B';
    }

    private static boolean isFallback(int c) {
        return c < 0x10000 && Alphabet.fallbackScript((char) c) != null;
    }

    private static UnicodeScript scriptOf(int c) {
        return isFallback(c) ? Alphabet.fallbackScript((char) c) : UnicodeScript.of(c);
    }

    /** A 64-bit hash of the text, the same in every JVM. */
    private static long textHash(String text) {
        long h = 1125899906842597L;
        for (int i = 0; i < text.length(); i++) {
            h = 31 * h + text.charAt(i);
        }
        return h;
    }
}
