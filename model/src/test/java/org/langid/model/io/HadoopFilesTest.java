package org.langid.model.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HadoopFilesTest {

    private static final Configuration CONF = new Configuration();

    @TempDir
    Path dir;

    @Test
    void aFileFirstWrittenWithAChecksumIsReplacedAndReadBack() throws Exception {
        // What an older version (or any checksumming Hadoop writer) left: the file and its .crc.
        Path file = dir.resolve("summary.json");
        org.apache.hadoop.fs.Path hadoopPath = new org.apache.hadoop.fs.Path(file.toUri());
        FileSystem checksummed = hadoopPath.getFileSystem(CONF);
        try (OutputStream out = checksummed.create(hadoopPath, true)) {
            out.write("old".getBytes(StandardCharsets.UTF_8));
        }
        assertTrue(Files.exists(dir.resolve(".summary.json.crc")));

        HadoopFiles.writeStringAtomically(file.toString(), "new content", CONF);
        assertEquals("new content", HadoopFiles.readString(file.toString(), CONF));
        assertFalse(Files.exists(dir.resolve(".summary.json.crc")), "the stale checksum is gone");
        try (var in = checksummed.open(hadoopPath)) {
            assertEquals("new content", new String(in.readAllBytes(), StandardCharsets.UTF_8), "a checksumming reader reads it too");
        }
        try (var files = Files.list(dir)) {
            assertEquals(1, files.count(), "no temporary files left");
        }
    }
}
