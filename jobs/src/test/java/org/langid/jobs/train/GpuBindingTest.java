package org.langid.jobs.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.OptionalInt;
import org.apache.spark.resource.ResourceInformation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.langid.jobs.cli.ProfileOptions;
import org.langid.model.config.ConfigTree;
import org.langid.model.graph.ModelConfig;
import org.langid.model.train.TrainConfig;

/** The GPU path's logic and files, checked without a GPU (none with Java is available here). */
class GpuBindingTest {

    @TempDir
    Path temp;

    @Test
    void aTaskIsBoundToTheOneGpuSparkAssignedIt() {
        assertEquals(OptionalInt.of(3), GpuBinding.deviceFor(Map.of("gpu", new ResourceInformation("gpu", new String[] {"3"}))));
        assertEquals(OptionalInt.empty(), GpuBinding.deviceFor(Map.of()), "CPU workers: no binding");
        IllegalStateException two = assertThrows(IllegalStateException.class,
                () -> GpuBinding.deviceFor(Map.of("gpu", new ResourceInformation("gpu", new String[] {"0", "1"}))));
        assertTrue(two.getMessage().contains("set spark.task.resource.gpu.amount=1"), two.getMessage());
        IllegalStateException uuid = assertThrows(IllegalStateException.class,
                () -> GpuBinding.deviceFor(Map.of("gpu", new ResourceInformation("gpu", new String[] {"GPU-8f2a"}))));
        assertTrue(uuid.getMessage().contains("is not a device index"), uuid.getMessage());
    }

    @Test
    void outsideASparkTaskNothingIsBound() {
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        var previous = GpuBinding.deviceSetter;
        GpuBinding.deviceSetter = device -> calls.incrementAndGet();
        try {
            GpuBinding.bindCurrentTask();
        } finally {
            GpuBinding.deviceSetter = previous;
        }
        assertEquals(0, calls.get());
    }

    @Test
    void theDiscoveryScriptReportsDeviceIndicesInSparksFormat() throws IOException, InterruptedException {
        Path bin = Files.createDirectories(temp.resolve("bin"));
        Path fakeSmi = bin.resolve("nvidia-smi");
        Files.writeString(fakeSmi, "#!/bin/sh\nprintf '0\\n1\\n'\n");
        Files.setPosixFilePermissions(fakeSmi, PosixFilePermissions.fromString("rwxr-xr-x"));
        ProcessBuilder builder = new ProcessBuilder("bash", Path.of("..", "deploy", "gpu", "discover-gpus.sh").toString());
        builder.environment().put("PATH", bin + ":/usr/bin:/bin");
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.waitFor());
        JsonNode json = new ObjectMapper().readTree(out);
        assertEquals("gpu", json.path("name").asText());
        assertEquals("[\"0\",\"1\"]", json.path("addresses").toString());
    }

    @Test
    void theGpuProfileAndSubmitScriptAreConsistent() throws IOException {
        org.apache.hadoop.conf.Configuration hadoop = new org.apache.hadoop.conf.Configuration();
        ConfigTree tree = ProfileOptions.read(Path.of("..", "conf", "gpu.yaml").toString(), hadoop);   // over its base
        ModelConfig model = tree.section("model", ModelConfig.class);
        TrainConfig train = tree.section("train", TrainConfig.class);
        assertEquals(ConfigTree.toJson(ProfileOptions.read(Path.of("..", "conf", "local.yaml").toString(), hadoop)
                .section("model", ModelConfig.class)), ConfigTree.toJson(model), "the GPU profile trains the same model");
        assertTrue(train.batchSize >= 1024);
        // train-gpu.sh is submit.sh --gpu, which holds the settings (DeployFilesTest runs both).
        String trainGpu = Files.readString(Path.of("..", "deploy", "spark-submit", "train-gpu.sh"));
        assertTrue(trainGpu.contains("--gpu") && trainGpu.contains("--trainer spark"), "train-gpu.sh trains with submit.sh --gpu");
        String submit = Files.readString(Path.of("..", "deploy", "spark-submit", "submit.sh"));
        for (String setting : new String[] {"spark.executor.resource.gpu.amount=1", "spark.task.resource.gpu.amount=1",
                "spark.executor.resource.gpu.discoveryScript", "org.langid.jobs.cli.LangidCommand"}) {
            assertTrue(submit.contains(setting), "submit.sh sets " + setting);
        }
        assertTrue(Files.isExecutable(Path.of("..", "deploy", "gpu", "discover-gpus.sh")));
    }
}
