package org.langid.jobs.cli;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import org.langid.jobs.export.ArtefactExport;
import org.langid.jobs.train.NgramFilters;
import org.langid.jobs.train.TrainJob;
import org.langid.model.artefact.ModelArtefact;
import org.langid.model.artefact.ModelRegistry;
import org.langid.model.graph.ModelConfig;
import org.langid.model.graph.NgramFilter;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "export", mixinStandardHelpOptions = true,
        description = "Turn the output of langid train into a model artefact (manifest.json, graph.fb, model.onnx; see data-schemas/), "
                + "written to a directory (--to) or published to a registry as its new current version (--registry); "
                + "or give an artefact made before model.onnx existed its ONNX flavour (--add-onnx); "
                + "or publish an artefact made before the n-gram filter existed again with the filter of its training windows (--add-ngram-filter). "
                + "Paths may be local, hdfs:// or s3a://.")
public final class ExportCommand implements Callable<Integer> {

    @Option(names = {"-i", "--trained"}, paramLabel = "DIR", description = "Output directory of langid train.")
    String trained;

    @ArgGroup(exclusive = true)
    Destination destination;

    @Option(names = "--confidence-floor", paramLabel = "P", description = "Record P in the published model's manifest: a text "
            + "whose combined probability is below it is und (in none of the model's languages). Measure it with bench/und/threshold.sh. "
            + "Default: none (0).")
    Double confidenceFloor;

    @Option(names = "--add-onnx", paramLabel = "ARTEFACT", description = "Write model.onnx and model.int8.onnx (from the artefact's own parameters) into "
            + "this artefact, or into a registry's current version, and list them in the manifest. The model version stays.")
    String addOnnx;

    @Option(names = "--add-ngram-filter", paramLabel = "ARTEFACT", description = "Publish a new model (to --to or --registry): this artefact's, "
            + "or a registry's current version's, parameters reading their n-grams through the filter of the training windows in --training-data, "
            + "so that n-grams training never saw select nothing (model.ngram_filter_bits). For models trained before train wrote the filter.")
    String addNgramFilter;

    @Option(names = "--training-data", paramLabel = "DIR", description = "With --add-ngram-filter: the output of langid prepare the model was "
            + "trained on; its fingerprint must be the one in the model's manifest.")
    String trainingData;

    @Option(names = "--ngram-filter-bits", paramLabel = "N", defaultValue = "33554432", description = "With --add-ngram-filter: the filter's size "
            + "in bits, a multiple of 8 (as model.ngram_filter_bits). Default: ${DEFAULT-VALUE} (4 MB).")
    int ngramFilterBits;

    @Mixin
    SparkOptions sparkOptions;

    static final class Destination {
        @Option(names = "--to", paramLabel = "DIR", description = "Write the artefact into this directory.")
        String directory;

        @Option(names = "--registry", paramLabel = "DIR", description = "Publish into this registry and make it current.")
        String registry;
    }

    @Override
    public Integer call() {
        Configuration conf = new Configuration();
        if (addOnnx != null) {
            if (trained != null || destination != null) {
                throw new CommandLine.ParameterException(new CommandLine(this), "--add-onnx takes no -i, --to or --registry");
            }
            String location = ModelRegistry.resolve(addOnnx, conf);
            ModelArtefact upgraded = ModelArtefact.load(location, conf).withOnnxFlavour();
            upgraded.writeTo(location, conf);   // the manifest goes last: until then the old one still describes the files
            ModelArtefact.load(location, conf);   // what was written reads back intact
            System.out.println("model " + upgraded.manifest().modelVersion() + ": " + location + " now has " + ModelArtefact.ONNX + " and " + ModelArtefact.ONNX_INT8);
            return 0;
        }
        if (addNgramFilter != null) {
            if (trained != null || destination == null || trainingData == null) {
                throw new CommandLine.ParameterException(new CommandLine(this),
                        "--add-ngram-filter takes --training-data DIR and one of --to or --registry, and no -i");
            }
            return publish(withNgramFilter(conf), conf);
        }
        if (trainingData != null) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--training-data goes with --add-ngram-filter");
        }
        if (trained == null || destination == null) {
            throw new CommandLine.ParameterException(new CommandLine(this), "give -i DIR and one of --to or --registry (or --add-onnx ARTEFACT)");
        }
        return publish(ArtefactExport.fromTrainingOutput(trained, conf, Instant.now()), conf);
    }

    /** The model of --add-ngram-filter with the filter of its training windows, checked to be its own by their fingerprint. */
    private ModelArtefact withNgramFilter(Configuration conf) {
        ModelArtefact source = ModelArtefact.load(ModelRegistry.resolve(addNgramFilter, conf), conf);
        String version = source.manifest().modelVersion();
        String fingerprint = TrainJob.dataFingerprint(trainingData, conf);
        String trainedOn = source.manifest().dataFingerprint();
        if ("unknown".equals(fingerprint) || !fingerprint.equals(trainedOn)) {
            throw new IllegalArgumentException(trainingData + " has the data fingerprint " + fingerprint + " but model " + version
                    + " was trained on " + trainedOn + ": the filter must be made of the model's own training windows");
        }
        ModelConfig config = source.manifest().modelConfig();
        if (!config.ngrams()) {
            throw new IllegalArgumentException("model " + version + " reads no n-grams (ngram_buckets 0): there is nothing to filter");
        }
        config.ngramFilterBits = ngramFilterBits;
        config.validated();
        NgramFilter filter;
        SparkSession spark = sparkOptions.start("langid export");
        try {
            filter = NgramFilters.build(spark, trainingData, config);
        } finally {
            SparkShutdown.stop(spark);
        }
        ObjectNode provenance = JsonNodeFactory.instance.objectNode();
        provenance.set("ngram_filter", NgramFilters.describe(filter));
        provenance.put("ngram_filter_from", trainingData);
        System.out.printf("n-gram filter of %s: %d of %d bits set (~%d distinct n-grams; an unseen n-gram passes with %.1f%%)%n",
                trainingData, filter.bitsSet(), filter.size(), filter.estimatedNgrams(), 100 * filter.falsePositiveRate());
        return source.withNgramFilter(filter, provenance, Instant.now());
    }

    private int publish(ModelArtefact exported, Configuration conf) {
        ModelArtefact artefact = confidenceFloor == null ? exported : exported.withConfidenceFloor(confidenceFloor);
        String location;
        if (destination.registry != null) {
            location = new ModelRegistry(destination.registry, conf).publish(artefact);
        } else {
            artefact.writeTo(destination.directory, conf);
            ModelArtefact.load(destination.directory, conf);   // what was written reads back intact
            location = destination.directory;
        }
        System.out.println("model " + artefact.manifest().modelVersion() + ": " + location
                + (destination.registry != null ? " (now current in " + destination.registry + ")" : ""));
        return 0;
    }
}
