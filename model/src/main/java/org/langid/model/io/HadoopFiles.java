package org.langid.model.io;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;

/** Small file operations through the Hadoop FileSystem, so every path may be local, hdfs:// or s3a://. */
public final class HadoopFiles {

    private HadoopFiles() {
    }

    /**
     * Opens a file, decompressing by extension (.gz, .bz2, ...). Local files are read without
     * Hadoop's .crc verification, like {@link #fileSystem} writes them: a .crc left by an older
     * writer must not make a newer file unreadable.
     */
    public static InputStream open(String file, Configuration conf) throws IOException {
        Path path = new Path(file);
        InputStream raw = fileSystem(path, conf).open(path);
        CompressionCodec codec = new CompressionCodecFactory(conf).getCodec(path);
        return codec == null ? raw : codec.createInputStream(raw);
    }

    /** Reads a whole (small) text file as UTF-8. */
    public static String readString(String file, Configuration conf) {
        try (InputStream in = open(file, conf)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static boolean exists(String file, Configuration conf) {
        try {
            Path path = new Path(file);
            return path.getFileSystem(conf).exists(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The file system of {@code path}; for the local one without Hadoop's .crc side files: the
     * small files written here (summaries, reports, artefacts) carry no need for them, and for
     * artefacts a flipped byte should be reported by the manifest's SHA-256, not as a Hadoop
     * ChecksumException.
     */
    public static FileSystem fileSystem(Path path, Configuration conf) throws IOException {
        FileSystem fs = path.getFileSystem(conf);
        return fs instanceof org.apache.hadoop.fs.LocalFileSystem local ? local.getRawFileSystem() : fs;
    }

    /**
     * Writes a small file so that readers see the old content or the new, never a part: written
     * beside the target under a temporary name, then renamed over it (atomically on a local
     * disk; on HDFS, which will not rename onto an existing file, the old one is deleted first).
     */
    public static void writeStringAtomically(String file, String content, Configuration conf) {
        Path target = new Path(file);
        Path temporary = new Path(target.getParent(), "._tmp." + target.getName() + "." + System.nanoTime());
        try {
            FileSystem fs = fileSystem(target, conf);
            try (OutputStream out = fs.create(temporary, true)) {
                out.write(content.getBytes(StandardCharsets.UTF_8));
            }
            // A .crc beside the target from an older, checksumming writer would no longer match.
            Path staleChecksum = new Path(target.getParent(), "." + target.getName() + ".crc");
            if (fs instanceof org.apache.hadoop.fs.RawLocalFileSystem && fs.exists(staleChecksum)) {
                fs.delete(staleChecksum, false);
            }
            if (fs.rename(temporary, target)) {
                return;
            }
            if (fs.exists(target) && !fs.delete(target, false)) {
                throw new IOException("cannot replace " + target);
            }
            if (!fs.rename(temporary, target)) {
                throw new IOException("cannot rename " + temporary + " to " + target);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** {@link #writeStringAtomically} of a JSON document as {@code json} writes it, with a final newline. */
    public static void writeJsonAtomically(String file, Object document, com.fasterxml.jackson.databind.ObjectMapper json, Configuration conf) {
        String text;
        try {
            text = json.writeValueAsString(document) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + file + " as JSON: " + e.getOriginalMessage(), e);
        }
        writeStringAtomically(file, text, conf);
    }
}
