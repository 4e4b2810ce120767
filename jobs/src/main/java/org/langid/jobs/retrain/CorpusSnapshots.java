package org.langid.jobs.retrain;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** The dated snapshot folders of a corpus root ({@code <root>/2026-11-21/...}), oldest first. */
public final class CorpusSnapshots {

    /** A snapshot folder is named by its date, ISO 8601; anything else under the root is ignored. */
    static final String NAME_PATTERN = "[0-9]{4}-[0-9]{2}-[0-9]{2}";

    private CorpusSnapshots() {
    }

    public static List<String> names(String root, Configuration conf) {
        Path rootPath = new Path(root);
        try {
            FileSystem fs = rootPath.getFileSystem(conf);
            if (!fs.exists(rootPath)) {
                throw new IllegalArgumentException("corpus root " + root + " does not exist");
            }
            List<String> names = new ArrayList<>();
            for (FileStatus status : fs.listStatus(rootPath)) {
                if (status.isDirectory() && status.getPath().getName().matches(NAME_PATTERN)) {
                    names.add(status.getPath().getName());
                }
            }
            names.sort(null);
            return names;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the corpus root " + root + ": " + e.getMessage(), e);
        }
    }
}
