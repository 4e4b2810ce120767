package org.langid.jobs.prepare;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The files of a corpus: each input (a file or a directory, on any Hadoop FileSystem) listed,
 * its format settled, and files that belong to no format set aside as ignored (reported in
 * the summary, never silently skipped).
 */
public record CorpusFiles(CorpusFormat format, List<String> files, List<String> ignored) {

    /** Lists {@code inputs}; {@code requested} is "auto" or a format id. */
    public static CorpusFiles list(List<String> inputs, String requested, Configuration hadoop) {
        if (inputs.isEmpty()) {
            throw new PrepareException("no corpus input given");
        }
        List<FileStatus> candidates = new ArrayList<>();
        for (String input : inputs) {
            Path path = new Path(input);
            try {
                FileSystem fs = path.getFileSystem(hadoop);
                if (!fs.exists(path)) {
                    throw new PrepareException("corpus input " + input + " does not exist");
                }
                FileStatus status = fs.getFileStatus(path);
                if (status.isDirectory()) {
                    Arrays.stream(fs.listStatus(path))
                            .filter(FileStatus::isFile)
                            .filter(f -> !f.getPath().getName().startsWith(".") && !f.getPath().getName().startsWith("_"))
                            .forEach(candidates::add);
                } else {
                    candidates.add(status);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot list corpus input " + input + ": " + e.getMessage(), e);
            }
        }
        candidates.sort(Comparator.comparing(f -> f.getPath().toString()));
        CorpusFormat format = "auto".equals(requested) ? detect(candidates, inputs) : CorpusFormat.valueOf(requested.toUpperCase(java.util.Locale.ROOT));
        List<String> files = new ArrayList<>();
        List<String> ignored = new ArrayList<>();
        for (FileStatus candidate : candidates) {
            (format.matches(candidate.getPath().getName()) ? files : ignored).add(candidate.getPath().toString());
        }
        if (files.isEmpty()) {
            throw new PrepareException("no " + format.id() + " corpus files in " + String.join(", ", inputs)
                    + " (looked for " + switch (format) {
                        case JSON -> "*.json[.gz]";
                        case TSV -> "*.tsv[.gz] or *.csv[.gz]";
                        case TXT -> "<lang>.txt[.gz]";
                    } + ")");
        }
        return new CorpusFiles(format, List.copyOf(files), List.copyOf(ignored));
    }

    private static CorpusFormat detect(List<FileStatus> candidates, List<String> inputs) {
        for (CorpusFormat format : List.of(CorpusFormat.TXT, CorpusFormat.JSON, CorpusFormat.TSV)) {
            if (candidates.stream().anyMatch(f -> format.matches(f.getPath().getName()))) {
                return format;
            }
        }
        throw new PrepareException("cannot tell the corpus format of " + String.join(", ", inputs)
                + ": no *.txt, *.json or *.tsv files; pass --format json|tsv|txt");
    }
}
