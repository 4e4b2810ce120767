import com.github.pemistahl.lingua.api.Language;
import com.github.pemistahl.lingua.api.LanguageDetector;
import com.github.pemistahl.lingua.api.LanguageDetectorBuilder;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * Lingua 1.2.2 as a whole process, for bench/detect.sh: reads lines on stdin, writes the ISO 639-1
 * code of each (or "und"), restricted to langid's 8 languages, high-accuracy mode (Lingua's
 * default), on as many threads as the machine has cores.
 */
public final class LinguaPredict {
    public static void main(String[] args) throws Exception {
        LanguageDetector detector = LanguageDetectorBuilder.fromLanguages(Language.ENGLISH, Language.GERMAN, Language.FRENCH,
                Language.SPANISH, Language.ITALIAN, Language.PORTUGUESE, Language.DUTCH, Language.SWEDISH).build();
        List<String> lines = new ArrayList<>();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            lines.add(line);
        }
        String[] codes = new String[lines.size()];
        IntStream.range(0, lines.size()).parallel().forEach(i -> {
            Language language = detector.detectLanguageOf(lines.get(i));
            codes[i] = language == Language.UNKNOWN ? "und" : language.getIsoCode639_1().toString().toLowerCase(Locale.ROOT);
        });
        PrintStream out = new PrintStream(new java.io.BufferedOutputStream(System.out, 1 << 16), false, StandardCharsets.UTF_8);
        for (int i = 0; i < codes.length; i++) {
            out.print(codes[i]);
            out.print('\t');
            out.println(lines.get(i));
        }
        out.flush();
    }
}
