package org.langid.jobs.score;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.langid.model.io.HadoopFiles;

/** The formats {@code langid score} reads, and how it tells them from file names. */
public enum InputFormat {
    PARQUET("parquet"),
    CSV("csv"),
    TSV("tsv"),
    JSON("json"),
    TEXT("text");

    private final String id;

    InputFormat(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    /** The format named on the command line. */
    public static InputFormat named(String name) {
        for (InputFormat format : values()) {
            if (format.id.equals(name.toLowerCase(Locale.ROOT))) {
                return format;
            }
        }
        throw new IllegalArgumentException("--format " + name + " is not one of parquet, csv, tsv, json, text");
    }

    /**
     * The format of a file, or of the files of a directory and of its partition subdirectories
     * ({@code split=train/}, as Spark writes them: {@code langid prepare}'s windows, for one),
     * from their extensions after any compression suffix. Names starting with _ or . are Spark's
     * and Hadoop's bookkeeping, not data.
     */
    public static InputFormat infer(String input, Configuration conf) {
        Path path = new Path(input);
        Set<String> extensions = new TreeSet<>();
        Set<InputFormat> formats = new TreeSet<>();
        try {
            FileSystem fs = HadoopFiles.fileSystem(path, conf);
            FileStatus status = fs.getFileStatus(path);
            ArrayDeque<FileStatus> pending = new ArrayDeque<>(status.isDirectory() ? List.of(fs.listStatus(path)) : List.of(status));
            while (!pending.isEmpty()) {
                FileStatus file = pending.poll();
                String name = file.getPath().getName();
                if (name.startsWith("_") || name.startsWith(".")) {
                    continue;
                }
                if (file.isDirectory()) {
                    if (isPartition(name)) {
                        pending.addAll(List.of(fs.listStatus(file.getPath())));
                    }
                    continue;
                }
                String extension = extension(name);
                extensions.add(extension.isEmpty() ? "(none)" : extension);
                InputFormat format = ofExtension(extension);
                if (format != null) {
                    formats.add(format);
                }
            }
        } catch (FileNotFoundException e) {
            throw new IllegalArgumentException("input " + input + " does not exist");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the input " + input + ": " + e.getMessage(), e);
        }
        if (formats.size() == 1 && extensions.size() == 1) {
            return formats.iterator().next();
        }
        throw new IllegalArgumentException("cannot tell the format of " + input + " from its file names (extensions: "
                + (extensions.isEmpty() ? "no files" : String.join(", ", extensions))
                + "); give --format parquet, csv, tsv, json or text");
    }

    /** A directory named as Spark names a partition: {@code column=value}. */
    static boolean isPartition(String name) {
        int equals = name.indexOf('=');
        return equals > 0 && equals < name.length() - 1;
    }

    private static String extension(String name) {
        String lower = name.toLowerCase(Locale.ROOT).replaceFirst("\\.(gz|bz2|deflate|zst|lz4|snappy)$", "");
        int dot = lower.lastIndexOf('.');
        return dot < 0 ? "" : lower.substring(dot + 1);
    }

    private static InputFormat ofExtension(String extension) {
        return switch (extension) {
            case "parquet" -> PARQUET;
            case "csv" -> CSV;
            case "tsv", "tab" -> TSV;
            case "json", "jsonl", "ndjson" -> JSON;
            case "txt", "text" -> TEXT;
            default -> null;
        };
    }
}
