package org.langid.jobs.cli;

import java.time.Instant;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.langid.jobs.export.ArtefactExport;
import org.langid.model.artefact.ModelArtefact;
import org.langid.model.artefact.ModelRegistry;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "export", mixinStandardHelpOptions = true,
        description = "Turn the output of langid train into a model artefact (manifest.json + graph.fb, see data-schemas/), "
                + "written to a directory (--to) or published to a registry as its new current version (--registry). "
                + "Paths may be local, hdfs:// or s3a://.")
public final class ExportCommand implements Callable<Integer> {

    @Option(names = {"-i", "--trained"}, required = true, paramLabel = "DIR", description = "Output directory of langid train.")
    String trained;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Destination destination;

    static final class Destination {
        @Option(names = "--to", paramLabel = "DIR", description = "Write the artefact into this directory.")
        String directory;

        @Option(names = "--registry", paramLabel = "DIR", description = "Publish into this registry and make it current.")
        String registry;
    }

    @Override
    public Integer call() {
        Configuration conf = new Configuration();
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
