package org.langid.model.artefact;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.langid.model.io.HadoopFiles;

/**
 * Model versions side by side on any Hadoop FileSystem, and a pointer to the one in service:
 * <pre>
 *   &lt;root&gt;/versions/&lt;model_version&gt;/   one artefact per version ({@link ModelArtefact})
 *   &lt;root&gt;/current                      one line: the model_version in service
 * </pre>
 * Publishing writes the artefact under a temporary name, verifies it, renames it into
 * {@code versions/}, and only then replaces {@code current} (again: temporary file, rename).
 * A crash at any point leaves {@code current} naming the previous, complete version.
 * Renames are atomic on HDFS and local disks; on S3 (s3a) a rename is a copy, so there a reader
 * may briefly find no {@code current}: {@link #currentVersion} retries before giving up.
 */
public final class ModelRegistry {

    public static final String CURRENT = "current";
    public static final String VERSIONS = "versions";
    private static final String TEMPORARY_PREFIX = "._tmp.";
    private static final String VERSION_PATTERN = "[0-9]{8}T[0-9]{6}Z-[0-9a-f]{8}";

    /** Test hook: runs after the new version is in place and before {@code current} moves (simulates a crash there). */
    static Runnable beforePointerUpdateForTests = () -> { };

    private final String root;
    private final Configuration conf;

    public ModelRegistry(String root, Configuration conf) {
        this.root = stripTrailingSlash(root);
        this.conf = conf;
    }

    public String root() {
        return root;
    }

    /** True when {@code location} looks like a registry (it has {@code current} or {@code versions/}). */
    public static boolean isRegistry(String location, Configuration conf) {
        try {
            Path path = new Path(location);
            FileSystem fs = HadoopFiles.fileSystem(path, conf);
            return fs.exists(new Path(path, CURRENT)) || fs.exists(new Path(path, VERSIONS));
        } catch (IOException e) {
            throw new ArtefactException("cannot read " + location + ": " + e.getMessage(), e);
        }
    }

    /** The artefact directory {@code location} stands for: itself, or the current version of the registry it is. */
    public static String resolve(String location, Configuration conf) {
        if (isRegistry(location, conf)) {
            ModelRegistry registry = new ModelRegistry(location, conf);
            return registry.versionLocation(registry.currentVersion().orElseThrow(() -> new ArtefactException(
                    "the model registry " + location + " has no current model yet (nothing was published to it)")));
        }
        return location;
    }

    /**
     * Publishes {@code artefact} as a new version and makes it current.
     *
     * @return the new version's directory
     */
    public String publish(ModelArtefact artefact) {
        String version = artefact.manifest().modelVersion();
        try {
            Path versions = new Path(root, VERSIONS);
            FileSystem fs = HadoopFiles.fileSystem(versions, conf);
            Path target = new Path(versions, version);
            if (fs.exists(target)) {
                throw new ArtefactException("model version " + version + " is already in the registry " + root);
            }
            fs.mkdirs(versions);
            Path temporary = new Path(versions, TEMPORARY_PREFIX + version + "." + System.nanoTime());
            artefact.writeTo(temporary.toString(), conf);
            ModelArtefact.load(temporary.toString(), conf);   // what was written reads back intact
            if (!fs.rename(temporary, target)) {
                throw new IOException("cannot rename " + temporary + " to " + target);
            }
            beforePointerUpdateForTests.run();
            setCurrent(version);
            return target.toString();
        } catch (IOException e) {
            throw new ArtefactException("cannot publish model " + version + " to " + root + ": " + e.getMessage(), e);
        }
    }

    /** Points {@code current} at an already published {@code version} (publishing does this; also a rollback). */
    public void setCurrent(String version) {
        requireVersionName(version);
        try {
            Path rootPath = new Path(root);
            FileSystem fs = HadoopFiles.fileSystem(rootPath, conf);
            if (!fs.exists(new Path(versionLocation(version), ModelArtefact.MANIFEST))) {
                throw new ArtefactException("model version " + version + " is not in the registry " + root);
            }
            Path pointer = new Path(rootPath, CURRENT);
            Path temporary = new Path(rootPath, TEMPORARY_PREFIX + CURRENT + "." + System.nanoTime());
            try (OutputStream out = fs.create(temporary, false)) {
                out.write((version + "\n").getBytes(StandardCharsets.UTF_8));
            }
            // A POSIX rename replaces the old pointer atomically; HDFS refuses to rename onto an
            // existing file, and there FileContext's OVERWRITE rename is the atomic replacement.
            if (!fs.rename(temporary, pointer)) {
                FileContext.getFileContext(rootPath.toUri(), conf).rename(temporary, pointer, Options.Rename.OVERWRITE);
            }
        } catch (IOException e) {
            throw new ArtefactException("cannot point " + root + "/" + CURRENT + " at " + version + ": " + e.getMessage(), e);
        }
    }

    /** The version in service, if any was published. */
    public Optional<String> currentVersion() {
        Path pointer = new Path(root, CURRENT);
        for (int attempt = 0; ; attempt++) {
            try {
                FileSystem fs = HadoopFiles.fileSystem(pointer, conf);
                if (!fs.exists(new Path(root, VERSIONS)) && !fs.exists(pointer)) {
                    return Optional.empty();
                }
                String version;
                try (InputStream in = fs.open(pointer)) {
                    version = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
                }
                requireVersionName(version);
                return Optional.of(version);
            } catch (FileNotFoundException e) {
                if (attempt >= 4) {
                    return Optional.empty();
                }
                sleep(50L << attempt);   // an s3a pointer replacement may be in flight
            } catch (IOException e) {
                throw new ArtefactException("cannot read " + pointer + ": " + e.getMessage(), e);
            }
        }
    }

    /** Published versions, oldest first (names sort by creation time). */
    public List<String> versions() {
        List<String> versions = new ArrayList<>();
        try {
            Path dir = new Path(root, VERSIONS);
            FileSystem fs = HadoopFiles.fileSystem(dir, conf);
            if (!fs.exists(dir)) {
                return versions;
            }
            for (FileStatus status : fs.listStatus(dir)) {
                String name = status.getPath().getName();
                if (status.isDirectory() && name.matches(VERSION_PATTERN)) {
                    versions.add(name);
                }
            }
        } catch (IOException e) {
            throw new ArtefactException("cannot list " + root + "/" + VERSIONS + ": " + e.getMessage(), e);
        }
        versions.sort(null);
        return versions;
    }

    public String versionLocation(String version) {
        return root + "/" + VERSIONS + "/" + version;
    }

    private void requireVersionName(String version) {
        if (!version.matches(VERSION_PATTERN)) {
            throw new ArtefactException(root + "/" + CURRENT + " names '" + version + "', which is not a model version");
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ArtefactException("interrupted while reading the registry pointer");
        }
    }

    private static String stripTrailingSlash(String location) {
        return location.length() > 1 && location.endsWith("/") ? location.substring(0, location.length() - 1) : location;
    }
}
