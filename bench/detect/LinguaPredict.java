import com.github.pemistahl.lingua.api.IsoCode639_1;
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
 * code of each (or "und"), restricted to the languages given as arguments (ISO 639-1 codes; those
 * Lingua does not know are named on stderr and left out; none: the eight of the seed release),
 * high-accuracy mode (Lingua's default), on as many threads as the machine has cores.
 */
public final class LinguaPredict {
    public static void main(String[] args) throws Exception {
        List<String> wanted = args.length > 0 ? List.of(args) : List.of("en", "de", "fr", "es", "it", "pt", "nl", "sv");
        List<IsoCode639_1> known = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        for (String code : wanted) {
            IsoCode639_1 iso = isoCode(code);
            if (iso == null) {
                unknown.add(code);
            } else {
                known.add(iso);
            }
        }
        if (!unknown.isEmpty()) {
            System.err.println("LinguaPredict: Lingua 1.2.2 does not know " + String.join(" ", unknown) + "; restricted to the other "
                    + known.size());
        }
        if (known.size() < 2) {
            System.err.println("LinguaPredict: Lingua knows fewer than 2 of " + String.join(" ", wanted));
            System.exit(2);
        }
        LanguageDetector detector = LanguageDetectorBuilder.fromIsoCodes639_1(known.toArray(IsoCode639_1[]::new)).build();
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

    private static IsoCode639_1 isoCode(String code) {
        try {
            IsoCode639_1 iso = IsoCode639_1.valueOf(code.toUpperCase(Locale.ROOT));
            return iso == IsoCode639_1.NONE ? null : iso;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
