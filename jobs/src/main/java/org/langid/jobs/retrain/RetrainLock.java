package org.langid.jobs.retrain;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.langid.model.io.HadoopFiles;

/**
 * {@code <registry>/retrain.lock}: at most one retraining run per registry. Taken by creating
 * the file without overwrite (atomic on HDFS and local disks), released by deleting it. A run
 * that died leaves its lock; the refusal names its owner so a person can check and remove it.
 */
final class RetrainLock implements AutoCloseable {

    static final String FILE = "retrain.lock";

    private final FileSystem fs;
    private final Path path;

    private RetrainLock(FileSystem fs, Path path) {
        this.fs = fs;
        this.path = path;
    }

    static RetrainLock acquire(String registry, Configuration conf) {
        Path path = new Path(registry, FILE);
        try {
            FileSystem fs = HadoopFiles.fileSystem(path, conf);
            fs.mkdirs(path.getParent());
            try (OutputStream out = fs.create(path, false)) {
                out.write(("owner: " + ManagementFactory.getRuntimeMXBean().getName() + "\nsince: " + Instant.now() + "\n")
                        .getBytes(StandardCharsets.UTF_8));
            }
            return new RetrainLock(fs, path);
        } catch (FileAlreadyExistsException e) {
            throw new RetrainLockedException("another retraining run holds " + path + " (" + describe(path, conf)
                    + "); if that run is no longer alive, delete the file and run again");
        } catch (IOException e) {
            if (HadoopFiles.exists(path.toString(), conf)) {
                throw new RetrainLockedException("another retraining run holds " + path + " (" + describe(path, conf)
                        + "); if that run is no longer alive, delete the file and run again");
            }
            throw new UncheckedIOException("cannot create the retraining lock " + path + ": " + e.getMessage(), e);
        }
    }

    private static String describe(Path path, Configuration conf) {
        try {
            return HadoopFiles.readString(path.toString(), conf).strip().replace('\n', ' ');
        } catch (UncheckedIOException e) {
            return "owner unknown";
        }
    }

    @Override
    public void close() {
        try {
            fs.delete(path, false);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot release the retraining lock " + path + ": " + e.getMessage(), e);
        }
    }
}
