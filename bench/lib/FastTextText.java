import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.langid.jobs.evaluate.FastTextCandidate;
import org.langid.jobs.evaluate.FastTextSettings;
import org.langid.jobs.train.WindowsReader;
import org.langid.jobs.prepare.PreparedAlphabet;
import org.langid.text.Alphabet;

/**
 * Writes one split of a prepare output as fastText lines, exactly as {@code langid evaluate
 * --peer fasttext} gives them to fastText: windows-SPLIT.txt (decoded windows, seeded order) and
 * sentences-SPLIT.txt (sentences normalised with the prepared directory's alphabet), each line "__label__LANG TEXT", spaces as they are
 * (text=joined is these files with every space after the label written as _). bench/fasttext-grid.sh
 * trains and scores fastText on them directly, without a model to score beside it.
 *   java -cp JOBS_CLASSPATH bench/lib/FastTextText.java PREPARED SPLIT OUTDIR LANGUAGES
 */
public class FastTextText {
    public static void main(String[] args) throws Exception {
        String prepared = args[0];
        String split = args[1];
        Path out = Files.createDirectories(Path.of(args[2]));
        List<String> languages = List.of(args[3].split(","));
        SparkSession spark = SparkSession.builder().master("local[2]").appName("fasttext-text")
                .config("spark.ui.enabled", "false").getOrCreate();
        try {
            Alphabet alphabet = PreparedAlphabet.read(prepared, spark.sparkContext().hadoopConfiguration());
            var windows = WindowsReader.read(spark, prepared, split, languages, 16, alphabet);
            FastTextCandidate.writeTrainingText(windows, alphabet, out.resolve("windows-" + split + ".txt"), FastTextSettings.BASELINE);
            long sentences = 0;
            try (BufferedWriter text = Files.newBufferedWriter(out.resolve("sentences-" + split + ".txt"), StandardCharsets.UTF_8)) {
                for (Row row : spark.read().parquet(prepared + "/sentences/split=" + split).select("language", "sentence").collectAsList()) {
                    String normalised = alphabet.normalize(row.getString(1));
                    if (languages.contains(row.getString(0)) && !normalised.isEmpty()) {
                        text.write(FastTextCandidate.LABEL_PREFIX + row.getString(0) + " " + normalised + "\n");
                        sentences++;
                    }
                }
            }
            System.out.println(split + ": " + windows.size() + " windows, " + sentences + " sentences -> " + out);
        } finally {
            spark.stop();
        }
    }
}
