package org.langid.model.graph;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.langid.model.config.ConfigTree;
import org.langid.model.config.ValidatedConfig;
import org.langid.text.Alphabet;
import org.langid.text.LanguageCodes;

/**
 * What an exported model needs to read text and compute its answer: the attention classifier's
 * languages, alphabet and shape, the {@code model:} section of a profile and of a manifest. How it
 * is trained is {@code train:}'s ({@code TrainConfig}). Two block styles:
 * <ul>
 *   <li>{@code transformer}: {@code layers} pre-norm encoder blocks (layer norm → multi-head
 *       attention → residual; layer norm → feed-forward → residual), final layer norm;</li>
 *   <li>{@code seed}: the reference tutorial's classifier: one attention head of
 *       {@code head_size}, Q/K/V projections without bias, no output projection, no residual,
 *       no norm, no feed-forward; with {@code scaled: false} and {@code positional: false} it is
 *       exactly the tutorial's model.</li>
 * </ul>
 * Both end in a mean over positions (padding excluded) and one linear layer to the languages.
 */
public class ModelConfig implements ValidatedConfig, java.io.Serializable {

    private static final long serialVersionUID = 1L;

    public static final String TRANSFORMER = "transformer";
    public static final String SEED = "seed";
    public static final String NGRAM_INIT_NORMAL = "normal";
    public static final String NGRAM_INIT_ZERO = "zero";

    public int window = 16;
    /**
     * How the model reads text (normalisation and symbols, {@link Alphabet}). Training takes it from
     * the prepared data ({@code prepare.alphabet}); artefacts record it. {@code seed}: the tutorial's
     * 68 symbols.
     */
    public Alphabet alphabet = Alphabet.SEED;
    /**
     * The model's outputs, in order. {@value #OTHER_LANGUAGES} among them is the class of text in
     * none of the others (prepare.other_languages' sentences): a detector answering it answers und.
     */
    public List<String> languages = new ArrayList<>(List.of("en", "de", "fr", "es", "it", "pt", "nl", "sv"));
    public static final String OTHER_LANGUAGES = org.langid.serving.TextDetector.UNDETERMINED;   // the label the detector answers as und
    public String block = TRANSFORMER;
    public int dModel = 64;
    public int heads = 4;
    /** One: a second layer gained nothing with n-grams and doubles the serving arithmetic (bench/EXPERIMENTS.md). */
    public int layers = 1;
    public int ffn = 128;
    /** Learned positional embedding added to the character embedding. */
    public boolean positional = true;
    /** Divide attention scores by sqrt(head size). */
    public boolean scaled = true;
    /** Head size of the seed block (the transformer block's head size is d_model / heads). */
    public int headSize = 16;
    /**
     * Rows of the hashed character n-gram table ({@link CharacterNgrams}): at each position the
     * n-grams of orders 2 … {@code ngram_max_order} ending there add their rows to the character
     * embedding. 0: no n-grams (the tutorial's input); the other ngram_ keys then change nothing.
     */
    public int ngramBuckets = 1_048_576;
    /** Longest n-gram of the table (2 to 6); orders 5 and 6 pay only in a large table. */
    public int ngramMaxOrder = 6;
    /**
     * Width of the n-gram table's rows. 0: d_model, added as they are. Otherwise narrower rows
     * that a learned (ngram_dim, d_model) projection widens: a table of a million rows then costs
     * ngram_dim/d_model of the memory, the artefact bytes and the update work.
     */
    public int ngramDim = 16;
    /**
     * How the n-gram table starts: {@value #NGRAM_INIT_NORMAL} (small random values, as the other
     * embeddings) or {@value #NGRAM_INIT_ZERO}. Under SGD a row changes only when a training
     * n-gram selects it, so with zero a row that none reached adds nothing when an n-gram of new
     * text lands on it, instead of noise (+0.1–0.2 points on UDHR's windows over normal).
     */
    public String ngramInit = NGRAM_INIT_ZERO;
    /**
     * Size in bits of the {@link NgramFilter} that training writes beside the model: the n-grams of
     * its training windows, so that an n-gram of new text that training never saw selects nothing
     * instead of the rows other n-grams trained. A multiple of 8; 0: no filter (every n-gram
     * selects its bucket). The default's 4 MB lets ~4% of unseen n-grams through by chance on the
     * full corpus.
     */
    public int ngramFilterBits = 33_554_432;   // 4 MB

    /** Training-only keys of earlier versions (experiments that gained nothing: bench/EXPERIMENTS.md). */
    private static final List<String> RETIRED_KEYS = List.of("loss", "label_smoothing", "consistency", "sharpness");

    /**
     * The training recipe's keys, which earlier versions wrote into {@code model} and
     * {@code train:} holds now ({@code TrainConfig}).
     */
    public static final List<String> MOVED_TO_TRAIN = List.of("seed", "dropout", "ngram_dropout", "optimizer", "distillation");

    @Override
    public Map<String, String> movedKeys() {
        Map<String, String> moved = new LinkedHashMap<>();
        MOVED_TO_TRAIN.forEach(key -> moved.put(key, "train." + key));
        return moved;
    }

    /** A {@code model} section as earlier versions wrote it, without the recipe keys since moved to {@code train}. */
    public static JsonNode withoutRecipe(JsonNode model) {
        if (!(model instanceof ObjectNode object)) {
            return model;
        }
        ObjectNode copy = object.deepCopy();
        copy.remove(MOVED_TO_TRAIN);
        return copy;
    }

    /**
     * A {@code model} section as manifests and training summaries of earlier versions wrote it,
     * without its training recipe and the training-only keys since retired, so that those files
     * keep loading: none of them changes how a trained model reads a window.
     */
    public static JsonNode withoutRetiredKeys(JsonNode model) {
        JsonNode copy = withoutRecipe(model);
        if (copy instanceof ObjectNode object) {
            object.remove(RETIRED_KEYS);
        }
        return copy;
    }

    /** The tutorial's own classifier (seed 001): embedding 8, one unscaled head of size 16, no blocks. */
    public static ModelConfig seedTutorial(List<String> languages) {
        ModelConfig config = new ModelConfig();
        config.block = SEED;
        config.dModel = 8;
        config.headSize = 16;
        config.heads = 1;
        config.layers = 1;
        config.positional = false;
        config.scaled = false;
        config.ngramBuckets = 0;
        config.ngramDim = 0;
        config.ngramFilterBits = 0;
        config.languages = new ArrayList<>(languages);
        return config;
    }

    public int classes() {
        return languages.size();
    }

    /** Width of the pooled representation fed to the final linear layer. */
    public int pooledWidth() {
        return SEED.equals(block) ? headSize : dModel;
    }

    /** Whether the input includes the hashed character n-grams. */
    public boolean ngrams() {
        return ngramBuckets > 0;
    }

    /** Whether the model reads its n-grams through an {@link NgramFilter} ({@code ngram_filter_bits} > 0). */
    public boolean ngramFiltered() {
        return ngrams() && ngramFilterBits > 0;
    }

    /** Width of the n-gram table's rows: {@code ngram_dim}, or d_model when that is 0. */
    public int ngramWidth() {
        return ngramDim > 0 ? ngramDim : dModel;
    }

    /** Whether the n-gram rows pass through a learned projection to d_model ({@code ngram_dim} > 0). */
    public boolean ngramsProjected() {
        return ngrams() && ngramDim > 0;
    }

    /** A copy reading text with {@code alphabet}. */
    public ModelConfig withAlphabet(Alphabet alphabet) {
        ModelConfig copy = ConfigTree.copy(this, ModelConfig.class);
        copy.alphabet = alphabet;
        return copy;
    }

    /** One line naming the shape, as benchmarks print it. */
    public String describe() {
        return (SEED.equals(block)
                ? String.format("model: seed d_model=%d head_size=%d scaled=%s positional=%s window=%d classes=%d",
                        dModel, headSize, scaled, positional, window, classes())
                : String.format("model: d_model=%d heads=%d layers=%d ffn=%d window=%d classes=%d",
                        dModel, heads, layers, ffn, window, classes()))
                + (ngrams() ? String.format(" ngrams=2-%d/%d buckets", ngramMaxOrder, ngramBuckets) : "");
    }

    @Override
    public List<String> problems() {
        List<String> problems = new ArrayList<>();
        if (!TRANSFORMER.equals(block) && !SEED.equals(block)) {
            problems.add("block '" + block + "' is not one of transformer, seed");
        }
        if (window < 1) {
            problems.add("window must be at least 1, got " + window);
        }
        if (languages.size() < 2) {
            problems.add("languages must name at least two languages, got " + languages);
        }
        if (languages.stream().distinct().count() != languages.size()) {
            problems.add("languages must not repeat: " + languages);
        }
        for (String language : languages) {
            if (!OTHER_LANGUAGES.equals(language)) {
                LanguageCodes.problem(language).ifPresent(p -> problems.add("languages: " + p));
            }
        }
        if (languages.contains(OTHER_LANGUAGES) && languages.size() < 3) {
            problems.add("languages must name at least two languages besides " + OTHER_LANGUAGES + ", got " + languages);
        }
        if (dModel < 1) {
            problems.add("d_model must be at least 1, got " + dModel);
        }
        if (TRANSFORMER.equals(block)) {
            if (heads < 1) {
                problems.add("heads must be at least 1, got " + heads);
            } else if (dModel % heads != 0) {
                problems.add("d_model " + dModel + " is not divisible by heads " + heads);
            }
            if (layers < 0) {
                problems.add("layers must be 0 or more, got " + layers);
            }
            if (ffn < 1) {
                problems.add("ffn must be at least 1, got " + ffn);
            }
        } else if (headSize < 1) {
            problems.add("head_size must be at least 1, got " + headSize);
        }
        if (!NGRAM_INIT_NORMAL.equals(ngramInit) && !NGRAM_INIT_ZERO.equals(ngramInit)) {
            problems.add("ngram_init must be " + NGRAM_INIT_NORMAL + " or " + NGRAM_INIT_ZERO + ", got '" + ngramInit + "'");
        }
        if (ngramDim < 0) {
            problems.add("ngram_dim must be 0 (d_model, no projection) or more, got " + ngramDim);
        }
        if (ngramBuckets < 0) {
            problems.add("ngram_buckets must be 0 (none) or more, got " + ngramBuckets);
        } else if (ngramBuckets > 0 && (ngramMaxOrder < 2 || ngramMaxOrder > CharacterNgrams.MAX_ORDER)) {
            problems.add("ngram_max_order must be 2 to " + CharacterNgrams.MAX_ORDER + ", got " + ngramMaxOrder);
        }
        if (ngramFilterBits < 0 || ngramFilterBits % 8 != 0) {
            problems.add("ngram_filter_bits must be 0 (no filter) or a positive multiple of 8, got " + ngramFilterBits);
        }
        return problems;
    }

    /** Throws {@link IllegalArgumentException} naming every problem. */
    public ModelConfig validated() {
        requireValid();
        return this;
    }
}
