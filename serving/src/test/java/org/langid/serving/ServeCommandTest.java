package org.langid.serving;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code langid serve}'s command line: what it refuses before it listens, each with a one-line reason. */
class ServeCommandTest {

    @Test
    void aModelOffLocalDiskIsRefusedWithWhatToDo() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> command("--model", "hdfs://namenode/langid/registry", "--port", "0").call());
        assertEquals("langid serve reads its model from local disk; copy hdfs://namenode/langid/registry there first "
                + "(e.g. hadoop fs -get), or bake it into the image", refused.getMessage());
    }

    @Test
    void anUnknownEngineIsRefused() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> command("--model", ReleasedModel.REGISTRY.toString(), "--engine", "samediff", "--port", "0").call());
        assertEquals("--engine is onnx or onnx-float, not 'samediff'", refused.getMessage());
    }

    @Test
    void aDirectoryThatIsNotAModelIsRefusedInOneLine(@TempDir Path temp) {
        String missing = temp.resolve("models").toUri().toString();   // a file:// URI is local disk too
        ServingModel.ModelLoadException refused = assertThrows(ServingModel.ModelLoadException.class,
                () -> command("--model", missing, "--port", "0").call());
        assertTrue(refused.getMessage().startsWith(temp.resolve("models") + " has no manifest.json"), refused.getMessage());
        assertFalse(refused.getMessage().contains("\n"), refused.getMessage());
    }

    @Test
    void usageErrorsAndHelpAreWrittenByTheParser() {
        StringWriter err = new StringWriter();
        CommandLine missingModel = new CommandLine(new ServeCommand()).setErr(new PrintWriter(err, true));
        assertEquals(CommandLine.ExitCode.USAGE, missingModel.execute("--port", "0"));
        assertTrue(err.toString().startsWith("Missing required option: '--model=DIR'"), err.toString());

        StringWriter out = new StringWriter();
        CommandLine help = new CommandLine(new ServeCommand()).setOut(new PrintWriter(out, true));
        assertEquals(CommandLine.ExitCode.OK, help.execute("--help"));
        for (String documented : new String[] {"POST /v1/detect", "GET /healthz", "GET /v1/model", "--max-request-bytes", "--engine"}) {
            assertTrue(out.toString().contains(documented), documented + " in " + out);
        }
    }

    private static ServeCommand command(String... args) {
        return CommandLine.populateCommand(new ServeCommand(), args);
    }
}
