import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The README's table of a model's languages: its manifest's languages with their English names,
 * scripts, training sentences and out-of-genre check, the last three from the corpus table
 * (data/LANGUAGES.md, written by data/build-corpus.sh). JDK only:
 *   java data/LanguagesTable.java models/current-manifest.json data/LANGUAGES.md
 * (for a registry, the manifest of models/versions/$(cat models/current)).
 */
public class LanguagesTable {

    /** Codes the JDK's locale data has no English name for. */
    private static final Map<String, String> NAMES = Map.of("cak", "Kaqchikel", "skr", "Saraiki", "szl", "Silesian", "sat", "Santali");

    public static void main(String[] args) throws Exception {
        String manifest = Files.readString(Path.of(args[0]));
        Matcher array = Pattern.compile("\"languages\"\\s*:\\s*\\[([^\\]]*)\\]").matcher(manifest);
        if (!array.find()) {
            throw new IllegalArgumentException(args[0] + " names no languages");
        }
        List<String> languages = Pattern.compile("\"([^\"]+)\"").matcher(array.group(1)).results().map(m -> m.group(1))
                .filter(code -> !code.equals("und")).toList();   // und: the class of text in none of them, not a language
        Map<String, String[]> corpus = new LinkedHashMap<>();
        for (String line : Files.readAllLines(Path.of(args[1]))) {
            String[] cells = line.split("\\|");
            if (cells.length > 4 && cells[1].strip().matches("[a-z]{2,3}")) {
                corpus.put(cells[1].strip(), cells);
            }
        }
        Map<String, Integer> scripts = new TreeMap<>();
        System.out.println("| code | language | script | training sentences | largest out-of-genre check |");
        System.out.println("| --- | --- | --- | ---: | --- |");
        for (String code : languages) {
            String[] cells = corpus.get(code);
            String script = cells == null ? "" : cells[2].strip();
            scripts.merge(script, 1, Integer::sum);
            String name = NAMES.getOrDefault(code, Locale.forLanguageTag(code).getDisplayLanguage(Locale.ENGLISH));
            System.out.printf("| %s | %s | %s | %s | %s |%n", code, name, script, cells == null ? "" : cells[3].strip(),
                    cells == null ? "" : cells[cells.length - 1].strip());
        }
        System.out.println();
        StringBuilder counts = new StringBuilder();
        scripts.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue() != 0 ? b.getValue() - a.getValue() : a.getKey().compareTo(b.getKey()))
                .forEach(e -> counts.append(counts.length() == 0 ? "" : ", ").append(e.getKey()).append(' ').append(e.getValue()));
        System.out.println(languages.size() + " languages in " + scripts.size() + " scripts: " + counts + ".");
    }
}
