package org.langid.jobs.score;

import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.ml.Transformer;
import org.apache.spark.ml.param.BooleanParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.param.ParamValidators;
import org.apache.spark.ml.param.StringArrayParam;
import org.apache.spark.ml.util.DefaultParamsReader;
import org.apache.spark.ml.util.DefaultParamsWritable;
import org.apache.spark.ml.util.Identifiable$;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.langid.jobs.io.SerializableHadoopConf;
import org.langid.model.artefact.ModelRegistry;
import org.langid.model.predict.LanguageDetector;

/**
 * Language detection as a Spark ML {@link Transformer}: appends to each row a struct column
 * ({@link #setOutputCol}) with the detected {@code language}, its {@code probability}, the
 * {@code top_languages} (the {@link #setTopK k} most probable, each {language, probability}) and
 * a {@code reason} that is null for scored rows and says why the others got no language
 * (null, empty, no_known_characters, undecodable: see {@link RejectionReason}). Rows are never
 * dropped.
 *
 * <pre>{@code
 * Dataset<Row> scored = new LanguageDetectorTransformer()
 *         .setInputCol("text").setOutputCol("detected").setModelPath("hdfs:///langid/registry")
 *         .transform(texts);
 * }</pre>
 *
 * The model path may be a registry: {@link #transform} resolves it to the current version once,
 * so every task of one transform uses the same model. Each executor JVM loads the model once
 * ({@link ExecutorDetectors}) and scores rows in batches. Saved and loaded with
 * {@code write().save(path)} / {@link #load(String)} (its parameters only; the model stays where it is).
 */
public final class LanguageDetectorTransformer extends Transformer implements DefaultParamsWritable {

    private static final long serialVersionUID = 1L;

    public static final String LANGUAGE = "language";
    public static final String PROBABILITY = "probability";
    public static final String TOP_LANGUAGES = "top_languages";
    public static final String REASON = "reason";

    /** One of {@code top_languages}. */
    public static final StructType LANGUAGE_PROBABILITY = new StructType()
            .add(LANGUAGE, DataTypes.StringType, false)
            .add(PROBABILITY, DataTypes.DoubleType, false);

    /** The output column's type: language, probability and top_languages are null exactly when reason is not. */
    public static final StructType RESULT = new StructType()
            .add(LANGUAGE, DataTypes.StringType, true)
            .add(PROBABILITY, DataTypes.DoubleType, true)
            .add(TOP_LANGUAGES, DataTypes.createArrayType(LANGUAGE_PROBABILITY, false), true)
            .add(REASON, DataTypes.StringType, true);

    private final String uid;
    private final Param<String> inputCol;
    private final Param<String> outputCol;
    private final Param<String> modelPath;
    private final IntParam topK;
    private final IntParam rowsPerBatch;
    private final IntParam stride;
    private final IntParam maxWindowsPerText;
    private final IntParam windowBatch;
    private final BooleanParam foldCapitals;
    private final StringArrayParam languages;

    public LanguageDetectorTransformer() {
        this(Identifiable$.MODULE$.randomUID("langid"));
    }

    /** With a given uid: {@link #copy} and loading a saved transformer need this constructor. */
    public LanguageDetectorTransformer(String uid) {
        this.uid = uid;
        inputCol = new Param<>(this, "inputCol", "column of text to detect the language of (string)");
        outputCol = new Param<>(this, "outputCol", "column to add: struct of language, probability, top_languages, reason");
        modelPath = new Param<>(this, "modelPath", "model artefact directory, or a registry (its current version); any Hadoop path");
        topK = new IntParam(this, "topK", "how many of the most probable languages top_languages lists", ParamValidators.gtEq(1));
        rowsPerBatch = new IntParam(this, "rowsPerBatch", "texts per detector call within a task", ParamValidators.gtEq(1));
        stride = new IntParam(this, "stride", "characters between window starts (1: every window)", ParamValidators.gtEq(1));
        maxWindowsPerText = new IntParam(this, "maxWindowsPerText", "longer texts get this many windows spread over them",
                ParamValidators.gtEq(1));
        windowBatch = new IntParam(this, "windowBatch", "windows per model call", ParamValidators.gtEq(1));
        foldCapitals = new BooleanParam(this, "foldCapitals", "read windows written in capitals in lower case");
        languages = new StringArrayParam(this, "languages",
                "answer from these of the model's languages only, probabilities renormalised over them; empty: all of them");
        LanguageDetector.Options defaults = LanguageDetector.Options.defaults();
        setDefault(inputCol, "text");
        setDefault(outputCol, "detected");
        setDefault(topK, 3);
        setDefault(rowsPerBatch, 512);
        setDefault(stride, defaults.stride());
        setDefault(maxWindowsPerText, defaults.maxWindowsPerText());
        setDefault(windowBatch, defaults.batchSize());
        setDefault(foldCapitals, defaults.foldCapitals());
        setDefault(languages, new String[0]);
    }

    @Override
    public String uid() {
        return uid;
    }

    public Param<String> inputCol() {
        return inputCol;
    }

    public Param<String> outputCol() {
        return outputCol;
    }

    public Param<String> modelPath() {
        return modelPath;
    }

    public IntParam topK() {
        return topK;
    }

    public IntParam rowsPerBatch() {
        return rowsPerBatch;
    }

    public IntParam stride() {
        return stride;
    }

    public IntParam maxWindowsPerText() {
        return maxWindowsPerText;
    }

    public IntParam windowBatch() {
        return windowBatch;
    }

    public BooleanParam foldCapitals() {
        return foldCapitals;
    }

    public StringArrayParam languages() {
        return languages;
    }

    public LanguageDetectorTransformer setInputCol(String value) {
        set(inputCol, value);
        return this;
    }

    public LanguageDetectorTransformer setOutputCol(String value) {
        set(outputCol, value);
        return this;
    }

    public LanguageDetectorTransformer setModelPath(String value) {
        set(modelPath, value);
        return this;
    }

    public LanguageDetectorTransformer setTopK(int value) {
        set(topK, value);
        return this;
    }

    public LanguageDetectorTransformer setRowsPerBatch(int value) {
        set(rowsPerBatch, value);
        return this;
    }

    public LanguageDetectorTransformer setStride(int value) {
        set(stride, value);
        return this;
    }

    public LanguageDetectorTransformer setMaxWindowsPerText(int value) {
        set(maxWindowsPerText, value);
        return this;
    }

    public LanguageDetectorTransformer setWindowBatch(int value) {
        set(windowBatch, value);
        return this;
    }

    public LanguageDetectorTransformer setFoldCapitals(boolean value) {
        set(foldCapitals, value);
        return this;
    }

    /** Answer from these of the model's languages only (none: all of them). */
    public LanguageDetectorTransformer setLanguages(String... value) {
        set(languages, value);
        return this;
    }

    public String[] getLanguages() {
        return $(languages);
    }

    public String getInputCol() {
        return $(inputCol);
    }

    public String getOutputCol() {
        return $(outputCol);
    }

    public String getModelPath() {
        if (!isDefined(modelPath)) {
            throw new IllegalArgumentException("no model: setModelPath(an artefact directory or a registry)");
        }
        return $(modelPath);
    }

    public int getTopK() {
        return (Integer) $(topK);
    }

    @Override
    public StructType transformSchema(StructType schema) {
        String input = getInputCol();
        String output = getOutputCol();
        if (!Arrays.asList(schema.fieldNames()).contains(input)) {
            throw new IllegalArgumentException("no column '" + input + "' to detect the language of; the columns are: "
                    + String.join(", ", schema.fieldNames()));
        }
        StructField field = schema.apply(input);
        if (!field.dataType().equals(DataTypes.StringType)) {
            throw new IllegalArgumentException("column '" + input + "' holds " + field.dataType().simpleString()
                    + ", not text (string)");
        }
        if (Arrays.asList(schema.fieldNames()).contains(output)) {
            throw new IllegalArgumentException("the output column '" + output + "' is already a column of the input; choose another");
        }
        return schema.add(output, RESULT, false);
    }

    @Override
    public Dataset<Row> transform(Dataset<?> dataset) {
        StructType schema = transformSchema(dataset.schema());
        Configuration conf = dataset.sparkSession().sparkContext().hadoopConfiguration();
        // The model's alphabet screens rows before any task loads the model (loaded here once: a damaged
        // model, or a language it lacks, fails on the driver).
        LanguageDetector detector = loadDetector(conf);
        List<String> subset = List.of(getLanguages());
        if (!subset.isEmpty()) {
            detector.restrictedTo(subset);
        }
        RowScorer scorer = new RowScorer(detectorKey(conf), detector.manifest().alphabet(), subset, new SerializableHadoopConf(conf),
                dataset.schema().fieldIndex(getInputCol()), getTopK(), (Integer) $(rowsPerBatch));
        return dataset.toDF().mapPartitions((MapPartitionsFunction<Row, Row>) scorer::score, Encoders.row(schema));
    }

    /**
     * Loads the model in this JVM, as the tasks will, and returns it: fails here, with the
     * artefact's own message, on a missing or damaged model; in local mode the tasks reuse it.
     */
    public LanguageDetector loadDetector(Configuration conf) {
        return ExecutorDetectors.get(detectorKey(conf), conf);
    }

    /** The registry resolved to its current version here, on the driver: all tasks then read the same artefact. */
    ExecutorDetectors.Key detectorKey(Configuration conf) {
        return new ExecutorDetectors.Key(ModelRegistry.resolve(getModelPath(), conf), (Integer) $(stride),
                (Integer) $(maxWindowsPerText), (Integer) $(windowBatch), (Boolean) $(foldCapitals));
    }

    @Override
    public LanguageDetectorTransformer copy(ParamMap extra) {
        return defaultCopy(extra);
    }

    public static MLReader<LanguageDetectorTransformer> read() {
        return new DefaultParamsReader<>();
    }

    public static LanguageDetectorTransformer load(String path) {
        return read().load(path);
    }
}
