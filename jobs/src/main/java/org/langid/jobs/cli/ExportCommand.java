package org.langid.jobs.cli;

import java.time.Instant;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.langid.jobs.export.ArtefactExport;
import org.langid.model.artefact.ModelArtefact;
import org.langid.model.artefact.ModelRegistry;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "export", mixinStandardHelpOptions = true,
        description = "Turn the output of langid train into a model artefact (manifest.json, graph.fb, model.onnx; see data-schemas/), "
                + "written to a directory (--to) or published to a registry as its new current version (--registry); "
                + "or give an artefact made before model.onnx existed its ONNX flavour (--add-onnx). "
                + "Paths may be local, hdfs:// or s3a://.")
public final class ExportCommand implements Callable<Integer> {

    @Option(names = {"-i", "--trained"}, paramLabel = "DIR", description = "Output directory of langid train.")
    String trained;

    @ArgGroup(exclusive = true)
    Destination destination;

    @Option(names = "--add-onnx", paramLabel = "ARTEFACT", description = "Write model.onnx and model.int8.onnx (from the artefact's own parameters) into "
            + "this artefact, or into a registry's current version, and list them in the manifest. The model version stays.")
    String addOnnx;

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
        if (trained == null || destination == null) {
            throw new CommandLine.ParameterException(new CommandLine(this), "give -i DIR and one of --to or --registry (or --add-onnx ARTEFACT)");
        }
        ModelArtefact artefact = ArtefactExport.fromTrainingOutput(trained, conf, Instant.now());
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
