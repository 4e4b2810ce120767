import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Word-order augmentation of a prepare output's training windows (bench/NGRAMS.md, "Word order
 * as augmentation"). Writes OUT/windows/split=train only; bench/word-shuffle.sh links the rest.
 * Each training sentence (already normalised) gets a variant of the same length:
 * <pre>
 *   shuffle   its words in a random order                  originals + variants (2x the windows)
 *   salad     as many random words of its language's training text   originals + variants
 *   replace   shuffle, but each window offset comes from the original or the variant, half each
 *             (as many windows as before)
 *   window    no sentence variant: each original window's space-separated pieces in a random
 *             order (edge pieces are parts of words)                 originals + variants
 * </pre>
 * Variants are cut at stride 1, as the profile cuts windows, and get new sentence ids (2^40 + i).
 *   java -cp JOBS_CLASSPATH bench/WordShuffle.java PREPARED OUT MODE SEED
 */
public class WordShuffle {
    public static void main(String[] args) {
        String prepared = args[0], out = args[1], mode = args[2];
        Random random = new Random(Long.parseLong(args[3]));
        int length = 16;
        SparkSession spark = SparkSession.builder().master("local[2]").appName("word-shuffle").getOrCreate();
        Dataset<Row> originals = spark.read().parquet(prepared + "/windows/split=train");
        List<Row> variants = new ArrayList<>();
        long nextId = 1L << 40;
        if (mode.equals("window")) {
            for (Row w : originals.collectAsList()) {
                List<String> pieces = new ArrayList<>(Arrays.asList(w.getString(3).split(" ", -1)));
                Collections.shuffle(pieces, random);
                variants.add(RowFactory.create(w.getString(0), nextId++, w.getInt(2), String.join(" ", pieces)));
            }
        } else {
            List<Row> sentences = spark.read().parquet(prepared + "/sentences/split=train").orderBy("sentence_id").collectAsList();
            Map<String, List<String>> vocabulary = new HashMap<>();   // language → every word token of its training text
            for (Row s : sentences) {
                vocabulary.computeIfAbsent(s.getString(0), k -> new ArrayList<>()).addAll(words(s.getString(2)));
            }
            for (Row s : sentences) {
                String language = s.getString(0), sentence = s.getString(2);
                List<String> words = words(sentence);
                List<String> variant;
                if (mode.equals("salad")) {
                    List<String> pool = vocabulary.get(language);
                    variant = new ArrayList<>();
                    for (int i = 0; i < words.size(); i++) {
                        variant.add(pool.get(random.nextInt(pool.size())));
                    }
                } else if (mode.equals("shuffle") || mode.equals("replace")) {
                    variant = new ArrayList<>(words);
                    Collections.shuffle(variant, random);
                } else {
                    throw new IllegalArgumentException("unknown mode " + mode + " (shuffle, salad, replace, window)");
                }
                String text = String.join(" ", variant);
                long id = nextId++;
                for (int offset = 0; offset + length <= text.length(); offset++) {
                    boolean fromVariant = !mode.equals("replace") || random.nextBoolean();
                    // replace: the variant has the original's length (same words, same spaces), so offsets line up
                    variants.add(fromVariant
                            ? RowFactory.create(language, id, offset, text.substring(offset, offset + length))
                            : RowFactory.create(language, s.getLong(1), offset, sentence.substring(offset, offset + length)));
                }
            }
        }
        StructType schema = new StructType()
                .add("language", DataTypes.StringType, false).add("sentence_id", DataTypes.LongType, false)
                .add("offset", DataTypes.IntegerType, false).add("window", DataTypes.StringType, false);
        Dataset<Row> added = spark.createDataFrame(variants, schema);
        Dataset<Row> train = mode.equals("replace") ? added : originals.unionByName(added);
        train.repartition(4).write().parquet(out + "/windows/split=train");
        System.out.println(mode + ": " + originals.count() + " original training windows, " + train.count() + " written");
        spark.stop();
    }

    private static List<String> words(String sentence) {
        List<String> words = new ArrayList<>(Arrays.asList(sentence.split(" ")));
        words.removeIf(String::isEmpty);
        return words;
    }
}
