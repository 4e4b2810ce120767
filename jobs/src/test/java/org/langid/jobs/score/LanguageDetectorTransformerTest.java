package org.langid.jobs.score;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.langid.jobs.SparkTestSession;

/** The transformer as Spark code uses it: in a Pipeline, copied with extra params, saved and loaded, schema checked up front. */
class LanguageDetectorTransformerTest {

    private static final String RELEASE = Path.of("..", "models").toString();

    @TempDir
    Path temp;

    private static Dataset<Row> texts() {
        StructType schema = new StructType().add("id", DataTypes.IntegerType).add("comment", DataTypes.StringType);
        return SparkTestSession.get().createDataFrame(List.of(
                RowFactory.create(1, "Le chat dort sur le canapé pendant que la pluie tombe dehors."),
                RowFactory.create(2, "El perro corre por el parque todas las mañanas con su dueño."),
                RowFactory.create(3, null)), schema);
    }

    @Test
    void aSavedPipelineWithTheTransformerLoadsAndDetects() throws Exception {
        LanguageDetectorTransformer detector = new LanguageDetectorTransformer()
                .setInputCol("comment").setOutputCol("lang").setModelPath(RELEASE).setStride(8).setTopK(2);
        PipelineModel model = new Pipeline().setStages(new PipelineStage[] {detector}).fit(texts());
        String saved = temp.resolve("pipeline").toString();
        model.write().save(saved);

        PipelineModel loaded = PipelineModel.load(saved);
        LanguageDetectorTransformer stage = (LanguageDetectorTransformer) loaded.stages()[0];
        assertEquals(detector.uid(), stage.uid());
        assertEquals("comment", stage.getInputCol());
        assertEquals(2, stage.getTopK());
        assertEquals(RELEASE, stage.getModelPath());

        List<Row> rows = loaded.transform(texts()).orderBy("id").select("id", "lang").collectAsList();
        assertEquals(3, rows.size());
        Row french = rows.get(0).getStruct(1);
        assertEquals("fr", french.getAs("language"));
        assertEquals(2, french.getList(french.fieldIndex("top_languages")).size());
        assertNull(french.getAs("reason"));
        assertEquals("es", rows.get(1).getStruct(1).getAs("language"));
        Row nothing = rows.get(2).getStruct(1);
        assertNull(nothing.getAs("language"));
        assertEquals("null", nothing.getAs("reason"));
    }

    @Test
    void copyKeepsTheParamsAndAppliesTheExtraOnes() {
        LanguageDetectorTransformer original = new LanguageDetectorTransformer().setModelPath(RELEASE).setInputCol("comment");
        LanguageDetectorTransformer copy = original.copy(new ParamMap().put(original.topK(), 5));
        assertEquals(original.uid(), copy.uid());
        assertEquals("comment", copy.getInputCol());
        assertEquals(RELEASE, copy.getModelPath());
        assertEquals(5, copy.getTopK());
        assertEquals(3, original.getTopK(), "the original is unchanged");
    }

    @Test
    void transformSchemaRefusesAMissingOrNonTextColumnAndAnExistingOutput() {
        StructType schema = texts().schema();
        LanguageDetectorTransformer detector = new LanguageDetectorTransformer().setModelPath(RELEASE);
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> detector.setInputCol("text").transformSchema(schema));
        assertEquals("no column 'text' to detect the language of; the columns are: id, comment", missing.getMessage());
        IllegalArgumentException notText = assertThrows(IllegalArgumentException.class,
                () -> detector.setInputCol("id").transformSchema(schema));
        assertEquals("column 'id' holds int, not text (string)", notText.getMessage());
        assertThrows(IllegalArgumentException.class, () -> detector.setInputCol("comment").setOutputCol("id").transformSchema(schema));

        IllegalArgumentException noModel = assertThrows(IllegalArgumentException.class,
                () -> new LanguageDetectorTransformer().setInputCol("comment").transform(texts()));
        assertEquals("no model: setModelPath(an artefact directory or a registry)", noModel.getMessage());

        StructType out = detector.setInputCol("comment").setOutputCol("detected").transformSchema(schema);
        assertEquals(LanguageDetectorTransformer.RESULT, out.apply("detected").dataType());
        assertTrue(List.of(out.fieldNames()).containsAll(List.of("id", "comment", "detected")));
    }
}
