package org.langid.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.langid.jobs.prepare.PrepareConfig;
import org.langid.model.config.ConfigException;
import org.langid.model.config.ConfigTree;
import org.langid.model.config.ValidatedConfig;
import org.langid.model.graph.ModelConfig;
import org.langid.model.train.TrainConfig;
import picocli.CommandLine;

/**
 * Every file in deploy/ and conf/, parsed and checked without a cluster: profiles, Kubernetes
 * manifests, crontab, systemd units, Dockerfiles and shell scripts. Nothing here applies a
 * manifest, builds an image or reaches YARN, Kubernetes or a GPU (none is available); submit.sh
 * runs against a stand-in spark-submit that prints its arguments.
 */
class DeployFilesTest {

    /** Tests run in the jobs module; the repository is its parent. */
    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    private static final Path DEPLOY = REPO.resolve("deploy");
    private static final Path CONF = REPO.resolve("conf");
    private static final Path JOB_DOCKERFILE = DEPLOY.resolve("docker/Dockerfile.job");
    private static final Path SERVE_DOCKERFILE = DEPLOY.resolve("docker/Dockerfile.serve");
    /** Where the images keep the repository's files (Dockerfile.job's COPY destinations say which). */
    private static final String IMAGE_HOME = "/opt/langid/";
    /** Where the crontab and the systemd unit expect a checkout of this repository. */
    private static final String HOST_CHECKOUT = "/opt/langid-spark/";
    private static final String MAIN_CLASS = LangidCommand.class.getName();
    /** Profile sections and their classes, bound as PrepareCommand and TrainCommand bind them. */
    private static final Map<String, Class<? extends ValidatedConfig>> PROFILE_SECTIONS =
            Map.of("prepare", PrepareConfig.class, "model", ModelConfig.class, "train", TrainConfig.class);

    private static final ObjectMapper YAML = new YAMLMapper();
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A profile given to a command or a script: --config FILE, --profile FILE, as words or YAML list items. */
    private static final Pattern PROFILE_ARGUMENT = Pattern.compile("--(?:config|profile)(?:=|[\\s\"',\\[\\]-]+)([^\\s\"',\\]]+)");
    private static final Pattern IMAGE_PATH = Pattern.compile(Pattern.quote(IMAGE_HOME) + "[\\w./-]*");
    private static final Pattern SCRIPT = Pattern.compile("[\\w./${}-]+\\.sh\\b");
    private static final Pattern OBJECT_REFERENCE =
            Pattern.compile("(serviceAccount|serviceAccountName|claimName)[\"']?\\s*[:=]\\s*[\"']?([\\w.-]+)");

    @TempDir
    Path temp;

    @Test
    void everyYamlAndJsonFileParses() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Path file : dataFiles()) {
            try {
                documents(file);
            } catch (IOException e) {
                problems.add(relative(file) + ": not valid " + (file.toString().endsWith(".json") ? "JSON" : "YAML") + ": "
                        + e.getMessage().lines().findFirst().orElse(""));
            }
        }
        assertNoProblems(problems);
    }

    @Test
    void everyProfileLoadsThroughConfigTree() throws IOException {
        List<String> problems = new ArrayList<>();
        List<Path> profiles = dataFiles().stream().filter(file -> file.startsWith(CONF)).toList();
        assertFalse(profiles.isEmpty(), "no profiles in conf/");
        for (Path profile : profiles) {
            String origin = relative(profile);
            String text = Files.readString(profile);
            ConfigTree tree;
            try {
                tree = ProfileOptions.read(profile.toString(), new org.apache.hadoop.conf.Configuration());   // with its bases
            } catch (ConfigException e) {
                problems.add(e.getMessage());
                continue;
            }
            // ConfigTree binds only the sections asked for, so a misspelt section would go unnoticed there.
            YAML.readTree(text).fieldNames().forEachRemaining(section -> {
                if (ConfigTree.BASE.equals(section)) {
                    return;
                }
                Class<? extends ValidatedConfig> type = PROFILE_SECTIONS.get(section);
                if (type == null) {
                    problems.add(origin + ": unknown section '" + section + "' (known: " + new TreeSet<>(PROFILE_SECTIONS.keySet()) + ")");
                    return;
                }
                try {
                    tree.section(section, type);
                } catch (ConfigException e) {
                    problems.add(e.getMessage());
                }
            });
            try {   // the self-teachers' model: train's distillation over the profile's model, as train and pipeline check it
                tree.section("train", TrainConfig.class).validatedFor(tree.section("model", ModelConfig.class));
            } catch (ConfigException e) {
                problems.add(origin + ": " + e.getMessage());
            }
        }
        assertNoProblems(problems);
    }

    @Test
    void kubernetesManifestsHaveTheirRequiredFields() throws IOException {
        List<String> problems = new ArrayList<>();
        Map<String, Set<String>> namesByKind = new HashMap<>();
        Map<Path, List<JsonNode>> manifests = manifests();
        assertFalse(manifests.isEmpty(), "no Kubernetes manifests in deploy/");
        manifests.forEach((file, objects) -> objects.forEach(object ->
                namesByKind.computeIfAbsent(object.path("kind").asText(), kind -> new TreeSet<>()).add(object.at("/metadata/name").asText())));
        for (Map.Entry<Path, List<JsonNode>> manifest : manifests.entrySet()) {
            String file = relative(manifest.getKey());
            for (JsonNode object : manifest.getValue()) {
                String kind = object.path("kind").asText();
                String where = file + " (" + (kind.isEmpty() ? "no kind" : kind) + " " + object.at("/metadata/name").asText("?") + ")";
                for (String field : List.of("/apiVersion", "/kind", "/metadata/name")) {
                    if (object.at(field).asText().isBlank()) {
                        problems.add(where + ": no " + field.substring(1).replace('/', '.'));
                    }
                }
                switch (kind) {
                    case "ScheduledSparkApplication" -> checkScheduledSparkApplication(where, object, problems);
                    case "CronJob" -> checkCronJob(where, object, problems);
                    case "Deployment" -> checkDeployment(where, object, problems);
                    default -> { }
                }
            }
            Matcher reference = OBJECT_REFERENCE.matcher(Files.readString(manifest.getKey()));
            while (reference.find()) {
                String kind = reference.group(1).equals("claimName") ? "PersistentVolumeClaim" : "ServiceAccount";
                if (!namesByKind.getOrDefault(kind, Set.of()).contains(reference.group(2))) {
                    problems.add(file + ": " + reference.group(1) + " " + reference.group(2) + " names no " + kind + " in deploy/");
                }
            }
        }
        assertNoProblems(problems);
    }

    @Test
    void everyProfileAndImagePathMentionedInDeployExists() throws IOException {
        List<String> problems = new ArrayList<>();
        Map<String, Optional<String>> jobImage = copiedIntoImage(JOB_DOCKERFILE);
        for (Path file : deployFiles()) {
            if (file.getFileName().toString().startsWith("Dockerfile")) {
                continue;   // the Dockerfiles define the image paths; their COPY sources are checked below
            }
            String text = Files.readString(file);
            Matcher profile = PROFILE_ARGUMENT.matcher(text);
            while (profile.find()) {
                String path = profile.group(1).replaceFirst("^local://", "");
                // Variables, placeholders (FILE) and remote URIs are not files of this repository.
                if (path.startsWith("$") || path.contains("://") || !path.matches(".*\\.(ya?ml|json)")) {
                    continue;
                }
                checkPath(relative(file), path, jobImage, problems);
            }
            Matcher imagePath = IMAGE_PATH.matcher(text);
            while (imagePath.find()) {
                checkPath(relative(file), imagePath.group().replaceAll("[./]+$", ""), jobImage, problems);
            }
        }
        assertNoProblems(problems);
    }

    @Test
    void everyShellScriptIsExecutableAndPassesBashSyntaxCheck() throws IOException, InterruptedException {
        List<String> problems = new ArrayList<>();
        List<Path> scripts = deployFiles().stream().filter(file -> file.toString().endsWith(".sh")).toList();
        assertFalse(scripts.isEmpty(), "no shell scripts in deploy/");
        for (Path script : scripts) {
            if (!Files.isExecutable(script)) {
                problems.add(relative(script) + ": not executable");
            }
            Process check = new ProcessBuilder("bash", "-n", script.toString()).redirectErrorStream(true).start();
            String output = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (check.waitFor() != 0) {
                problems.add(relative(script) + ": bash -n fails: " + output.strip());
            }
        }
        assertNoProblems(problems);
    }

    @Test
    void systemdUnitsHaveTheirSectionsAndStartExistingScripts() throws IOException {
        List<String> problems = new ArrayList<>();
        List<Path> units = deployFiles().stream()
                .filter(file -> file.toString().endsWith(".service") || file.toString().endsWith(".timer")).toList();
        assertFalse(units.isEmpty(), "no systemd units in deploy/");
        for (Path unit : units) {
            String file = relative(unit);
            Map<String, Map<String, String>> sections = unitSections(Files.readString(unit));
            boolean isTimer = unit.toString().endsWith(".timer");
            List<String> required = isTimer ? List.of("Unit", "Timer", "Install") : List.of("Unit", "Service");
            for (String section : required) {
                if (!sections.containsKey(section)) {
                    problems.add(file + ": no [" + section + "] section");
                }
            }
            if (isTimer) {
                if (!sections.getOrDefault("Timer", Map.of()).containsKey("OnCalendar")) {
                    problems.add(file + ": [Timer] has no OnCalendar");
                }
                String service = sections.getOrDefault("Timer", Map.of())
                        .getOrDefault("Unit", unit.getFileName().toString().replaceFirst("\\.timer$", ".service"));
                if (!Files.isRegularFile(unit.resolveSibling(service))) {
                    problems.add(file + ": starts " + service + ", which is not in " + relative(unit.getParent()));
                }
            } else {
                String execStart = sections.getOrDefault("Service", Map.of()).get("ExecStart");
                if (execStart == null) {
                    problems.add(file + ": [Service] has no ExecStart");
                } else {
                    List<String> words = List.of(execStart.strip().replaceFirst("^[-@:+!]+", "").split("\\s+"));
                    checkHostScript(file, words.get(0), problems);
                    checkSubcommandAfterDoubleDash(file, words, problems);
                }
            }
        }
        assertNoProblems(problems);
    }

    @Test
    void crontabEntriesHaveValidSchedulesAndRunExistingScripts() throws IOException {
        List<String> problems = new ArrayList<>();
        List<Path> crontabs = deployFiles().stream().filter(file -> file.toString().endsWith(".crontab")).toList();
        assertFalse(crontabs.isEmpty(), "no crontab in deploy/");
        for (Path crontab : crontabs) {
            String file = relative(crontab);
            List<String> entries = Files.readAllLines(crontab).stream()
                    .map(String::strip)
                    .filter(line -> !line.isEmpty() && !line.startsWith("#") && !line.matches("[A-Za-z_]\\w*\\s*=.*"))
                    .toList();
            if (entries.isEmpty()) {
                problems.add(file + ": no entries");
            }
            for (String entry : entries) {
                String[] words = entry.split("\\s+");
                if (words.length < 6) {
                    problems.add(file + ": entry '" + entry + "' is not a schedule of 5 fields and a command");
                    continue;
                }
                cronProblem(String.join(" ", List.of(words).subList(0, 5)))
                        .ifPresent(problem -> problems.add(file + ": schedule of '" + entry + "': " + problem));
                Matcher script = SCRIPT.matcher(entry);
                while (script.find()) {
                    checkHostScript(file, script.group(), problems);
                }
                checkSubcommandAfterDoubleDash(file, List.of(words), problems);
            }
        }
        assertNoProblems(problems);
    }

    @Test
    void dockerfilesBuildTheServingAndJobImages() throws IOException {
        List<String> problems = new ArrayList<>();
        List<Path> dockerfiles = deployFiles().stream().filter(file -> file.getFileName().toString().startsWith("Dockerfile")).toList();
        assertTrue(dockerfiles.containsAll(List.of(SERVE_DOCKERFILE, JOB_DOCKERFILE)), "deploy/docker/ lacks Dockerfile.serve or Dockerfile.job");
        for (Path dockerfile : dockerfiles) {
            String file = relative(dockerfile);
            List<String[]> instructions = instructions(dockerfile);
            if (instructions.stream().noneMatch(instruction -> instruction[0].equals("FROM"))) {
                problems.add(file + ": no FROM");
            }
            // The build context is the repository's root.
            for (String[] copy : instructions.stream().filter(instruction -> instruction[0].equals("COPY")).toList()) {
                List<String> words = List.of(copy[1].split("\\s+"));
                if (words.stream().anyMatch(word -> word.startsWith("--from="))) {
                    continue;
                }
                List<String> sources = words.stream().filter(word -> !word.startsWith("--")).toList();
                for (String source : sources.subList(0, sources.size() - 1)) {
                    if (!Files.exists(REPO.resolve(source))) {
                        problems.add(file + ": COPY " + source + ": not in the repository");
                    }
                }
            }
        }

        String serve = relative(SERVE_DOCKERFILE);
        List<String[]> serveInstructions = instructions(SERVE_DOCKERFILE);
        if (!finalBaseImage(serveInstructions).startsWith("eclipse-temurin:17")) {
            problems.add(serve + ": the image is not based on eclipse-temurin:17 but " + finalBaseImage(serveInstructions));
        }
        String entrypoint = last(serveInstructions, "ENTRYPOINT");
        String serveMain = org.langid.serving.ServeCommand.class.getName();
        if (!entrypoint.contains("\"" + serveMain + "\"")) {
            problems.add(serve + ": ENTRYPOINT does not run " + serveMain + ": " + entrypoint);
        }
        // The serving image is the serving module alone: no Spark, ND4J or Hadoop is built into it.
        if (instructions(SERVE_DOCKERFILE).stream().anyMatch(i -> i[0].equals("COPY") && i[1].matches("(model|jobs)\\s.*"))) {
            problems.add(serve + ": copies the model or jobs sources; the serving image builds serving/ only");
        }
        if (!List.of(last(serveInstructions, "EXPOSE").split("\\s+")).contains("8080")) {
            problems.add(serve + ": does not EXPOSE 8080");
        }
        if (last(serveInstructions, "HEALTHCHECK").isEmpty()) {
            problems.add(serve + ": no HEALTHCHECK");
        }
        if (last(serveInstructions, "USER").matches("|root.*|0|0:.*")) {
            problems.add(serve + ": runs as root (no USER, or USER root)");
        }

        String job = relative(JOB_DOCKERFILE);
        // The job image builds the whole reactor: every module's sources must be in its build stage.
        java.util.regex.Matcher modules = java.util.regex.Pattern.compile("<module>([^<]+)</module>")
                .matcher(Files.readString(REPO.resolve("pom.xml")));
        List<String> copiedSources = instructions(JOB_DOCKERFILE).stream().filter(i -> i[0].equals("COPY"))
                .map(i -> i[1].split("\\s+")[0]).toList();
        while (modules.find()) {
            if (!copiedSources.contains(modules.group(1))) {
                problems.add(job + ": does not COPY the module " + modules.group(1) + " that pom.xml builds");
            }
        }
        String jobBase = finalBaseImage(instructions(JOB_DOCKERFILE));
        if (!jobBase.startsWith("apache/spark:3.5")) {
            problems.add(job + ": the image is not based on apache/spark:3.5.x but " + jobBase);
        }
        if (!copiedIntoImage(JOB_DOCKERFILE).containsKey(IMAGE_HOME + "langid-jobs-cluster.jar")) {
            problems.add(job + ": does not put the cluster jar at " + IMAGE_HOME + "langid-jobs-cluster.jar");
        }
        assertNoProblems(problems);
    }

    @Test
    void trainGpuAsksYarnForOneGpuPerExecutorAndTask() throws IOException, InterruptedException {
        Path cudaJar = jarHolding("org/nd4j/linalg/jcublas/JCublasBackend.class");
        Submission gpu = submit("train-gpu.sh", Map.of("LANGID_JAR", cudaJar.toString()),
                "--master", "yarn", "--executors", "3", "-i", "in", "-o", "out");
        assertEquals(0, gpu.exitCode(), gpu.err());
        assertTrue(gpu.arguments().containsAll(List.of("spark.executor.resource.gpu.amount=1", "spark.task.resource.gpu.amount=1",
                "spark.executor.resource.gpu.discoveryScript=./discover-gpus.sh", "spark.executor.instances=3")), gpu.arguments().toString());
        // YARN puts the discovery script, shipped with the job, in the executor's working directory.
        assertTrue(gpu.valueOf("--files").contains("/deploy/gpu/discover-gpus.sh"), gpu.arguments().toString());
        List<String> gpuJob = gpu.after(cudaJar.toString());
        assertEquals(List.of("train", "--config"), gpuJob.subList(0, 2));
        assertTrue(Files.isSameFile(CONF.resolve("gpu.yaml"), Path.of(gpuJob.get(2))), gpuJob.toString());
        assertEquals(List.of("--trainer", "spark", "--workers", "3", "-i", "in", "-o", "out"), gpuJob.subList(3, gpuJob.size()));

        Path cpuJar = jarHolding("org/nd4j/linalg/cpu/nativecpu/CpuBackend.class");
        Submission cpuJarOnGpus = submit("submit.sh", Map.of("LANGID_JAR", cpuJar.toString()), "--master", "yarn", "--gpu", "--", "train");
        assertEquals(1, cpuJarOnGpus.exitCode());
        assertTrue(cpuJarOnGpus.err().contains("has no CUDA backend"), cpuJarOnGpus.err());
    }

    @Test
    void submitRunsTheJarAndProfileOfTheImageInKubernetesClusterMode() throws IOException, InterruptedException {
        Submission kubernetes = submit("submit.sh", Map.of(), "--master", "k8s://https://api.example:6443", "--deploy-mode", "cluster",
                "--image", "langid-job:test", "--profile", "local:///opt/langid/conf/local.yaml", "--", "retrain", "--corpus", "/data/corpus");
        assertEquals(0, kubernetes.exitCode(), kubernetes.err());
        assertTrue(kubernetes.arguments().containsAll(List.of("spark.kubernetes.container.image=langid-job:test",
                "spark.kubernetes.namespace=default", "spark.kubernetes.authenticate.driver.serviceAccountName=langid-spark")),
                kubernetes.arguments().toString());
        assertFalse(kubernetes.arguments().contains("--files"), kubernetes.arguments().toString());
        assertEquals(List.of("retrain", "--config", "/opt/langid/conf/local.yaml", "--corpus", "/data/corpus"),
                kubernetes.after("local:///opt/langid/langid-jobs-cluster.jar"));

        Submission localProfileToKubernetes = submit("submit.sh", Map.of(), "--master", "k8s://https://api.example:6443",
                "--deploy-mode", "cluster", "--image", "langid-job:test", "--", "retrain");
        assertEquals(1, localProfileToKubernetes.exitCode());
        assertTrue(localProfileToKubernetes.err().contains("spark.kubernetes.file.upload.path"), localProfileToKubernetes.err());
    }

    @Test
    void submitCountsStandaloneExecutorsInCoresAndPrepareDefaultsToLocal() throws IOException, InterruptedException {
        Path cpuJar = jarHolding("org/nd4j/linalg/cpu/nativecpu/CpuBackend.class");
        Submission standalone = submit("submit.sh", Map.of("LANGID_JAR", cpuJar.toString()), "--master", "spark://head:7077",
                "--executors", "2", "--executor-cores", "2", "--", "prepare", "-i", "in", "-o", "out");
        assertEquals(0, standalone.exitCode(), standalone.err());
        assertTrue(standalone.arguments().containsAll(List.of("spark.cores.max=4", "spark.executor.cores=2")), standalone.arguments().toString());

        Submission prepare = submit("prepare.sh", Map.of("LANGID_JAR", cpuJar.toString()), "-i", "in", "-o", "out");
        assertEquals(0, prepare.exitCode(), prepare.err());
        assertEquals("local[*]", prepare.valueOf("--master"));
        assertTrue(Files.isSameFile(CONF.resolve("local.yaml"), Path.of(prepare.after(cpuJar.toString()).get(2))), prepare.arguments().toString());
    }

    @Test
    void submitShipsThePipelinesProfileWithTheProfileItIsWrittenOn() throws IOException, InterruptedException {
        Path cpuJar = jarHolding("org/nd4j/linalg/cpu/nativecpu/CpuBackend.class");
        Submission pipeline = submit("submit.sh", Map.of("LANGID_JAR", cpuJar.toString()), "--master", "yarn", "--deploy-mode", "cluster",
                "--", "pipeline", "-i", "hdfs:///corpus");
        assertEquals(0, pipeline.exitCode(), pipeline.err());
        // YARN puts --files in the driver's working directory, so the base resolves there by its name.
        List<String> shipped = List.of(pipeline.valueOf("--files").split(","));
        // pipeline.yaml is written on many.yaml, which is written on local.yaml: each base is shipped
        assertEquals(3, shipped.size(), shipped.toString());
        assertTrue(Files.isSameFile(CONF.resolve("pipeline.yaml"), Path.of(shipped.get(0))), shipped.toString());
        assertTrue(Files.isSameFile(CONF.resolve("many.yaml"), Path.of(shipped.get(1))), shipped.toString());
        assertTrue(Files.isSameFile(CONF.resolve("local.yaml"), Path.of(shipped.get(2))), shipped.toString());
        assertEquals(List.of("pipeline", "--config", "pipeline.yaml", "-i", "hdfs:///corpus"), pipeline.after(cpuJar.toString()));
    }

    @Test
    void scoreSubmitsTheScoreCommandWithItsOptionsAndNoProfile() throws IOException, InterruptedException {
        Path cpuJar = jarHolding("org/nd4j/linalg/cpu/nativecpu/CpuBackend.class");
        Submission score = submit("score.sh", Map.of("LANGID_JAR", cpuJar.toString()), "--master", "yarn", "--executors", "4",
                "--model", "hdfs:///langid/registry", "-i", "hdfs:///data/comments.parquet", "--column", "body", "-o", "out");
        assertEquals(0, score.exitCode(), score.err());
        assertEquals("yarn", score.valueOf("--master"));
        assertTrue(score.arguments().contains("spark.executor.instances=4"), score.arguments().toString());
        assertFalse(score.arguments().contains("--files"), "score reads no profile: " + score.arguments());
        List<String> job = score.after(cpuJar.toString());
        assertEquals(List.of("score", "--model", "hdfs:///langid/registry", "-i", "hdfs:///data/comments.parquet", "--column", "body",
                "-o", "out"), job);
        // What the script hands over parses as the score command's options.
        new CommandLine(new LangidCommand()).parseArgs(job.toArray(String[]::new));
    }

    @Test
    void submitKeepsALoopbackClusterOnLoopbackAndGivesTheDriverTheCliLogging() throws IOException, InterruptedException {
        Path cpuJar = jarHolding("org/nd4j/linalg/cpu/nativecpu/CpuBackend.class");
        Submission loopback = submit("submit.sh", Map.of("LANGID_JAR", cpuJar.toString()), "--master", "spark://127.0.0.1:7077",
                "--executors", "2", "--", "train", "-i", "in", "-o", "out");
        assertEquals(0, loopback.exitCode(), loopback.err());
        assertTrue(loopback.arguments().containsAll(List.of("spark.driver.host=127.0.0.1", "spark.driver.bindAddress=127.0.0.1",
                "spark.cores.max=2", "spark.scheduler.minRegisteredResourcesRatio=1.0")), loopback.arguments().toString());
        String driverOptions = loopback.valueOf("--driver-java-options");
        assertTrue(driverOptions.contains("-Dlog4j2.configurationFile=" + CONF.resolve("log4j2.properties")), driverOptions);
        assertTrue(driverOptions.matches(".*-Dlangid\\.log\\.file=\\S*/work/logs/train-[0-9-]+\\.log.*"), driverOptions);

        Submission remote = submit("submit.sh", Map.of("LANGID_JAR", cpuJar.toString()), "--master", "spark://head:7077",
                "--", "train", "-i", "in", "-o", "out");
        assertEquals(0, remote.exitCode(), remote.err());
        assertFalse(remote.arguments().contains("spark.driver.host=127.0.0.1"), "executors elsewhere must reach the driver: "
                + remote.arguments());
    }

    @Test
    void submitRefusesWithoutSparkSubmitOrJar() throws IOException, InterruptedException {
        Path cpuJar = jarHolding("org/nd4j/linalg/cpu/nativecpu/CpuBackend.class");
        Submission noSparkSubmit = submit("submit.sh", Map.of("LANGID_JAR", cpuJar.toString(), "SPARK_HOME", temp.toString()),
                "--master", "yarn", "--", "prepare");
        assertEquals(1, noSparkSubmit.exitCode());
        assertTrue(noSparkSubmit.err().contains("no spark-submit"), noSparkSubmit.err());

        Submission noJar = submit("submit.sh", Map.of("LANGID_JAR", temp.resolve("missing.jar").toString()), "--master", "yarn", "--", "prepare");
        assertEquals(1, noJar.exitCode());
        assertTrue(noJar.err().contains("missing.jar does not exist"), noJar.err());
    }

    private static void checkScheduledSparkApplication(String where, JsonNode application, List<String> problems) {
        JsonNode spec = application.path("spec");
        JsonNode template = spec.path("template");
        cronProblem(spec.path("schedule").asText()).ifPresent(problem -> problems.add(where + ": spec.schedule: " + problem));
        if (!spec.path("concurrencyPolicy").asText().equals("Forbid")) {
            problems.add(where + ": spec.concurrencyPolicy is not Forbid (runs could overlap)");
        }
        String mainClass = template.path("mainClass").asText();
        try {
            Class.forName(mainClass);
        } catch (ClassNotFoundException e) {
            problems.add(where + ": spec.template.mainClass '" + mainClass + "' is not a class of this project");
        }
        if (template.path("mainApplicationFile").asText().isBlank()) {
            problems.add(where + ": no spec.template.mainApplicationFile");
        }
        if (!template.path("sparkVersion").asText().startsWith("3.5")) {
            problems.add(where + ": spec.template.sparkVersion '" + template.path("sparkVersion").asText() + "' is not 3.5.x");
        }
        requireStrings(where, "spec.template.arguments", template.path("arguments"), problems);
        requireStrings(where, "spec.template.sparkConf", template.path("sparkConf"), problems);
        String subcommand = template.path("arguments").path(0).asText();
        if (!subcommands().contains(subcommand)) {
            problems.add(where + ": spec.template.arguments starts with '" + subcommand + "', not a langid subcommand " + subcommands());
        }
        for (String field : List.of("/driver/cores", "/driver/memory", "/executor/instances", "/executor/cores", "/executor/memory")) {
            if (template.at(field).isMissingNode()) {
                problems.add(where + ": no spec.template" + field.replace('/', '.'));
            }
        }
    }

    private static void checkCronJob(String where, JsonNode cronJob, List<String> problems) {
        JsonNode spec = cronJob.path("spec");
        cronProblem(spec.path("schedule").asText()).ifPresent(problem -> problems.add(where + ": spec.schedule: " + problem));
        if (!spec.path("concurrencyPolicy").asText().equals("Forbid")) {
            problems.add(where + ": spec.concurrencyPolicy is not Forbid (runs could overlap)");
        }
        JsonNode containers = spec.at("/jobTemplate/spec/template/spec/containers");
        if (containers.isEmpty()) {
            problems.add(where + ": no spec.jobTemplate.spec.template.spec.containers");
        }
        for (JsonNode container : containers) {
            if (container.path("command").isEmpty()) {
                problems.add(where + ": container " + container.path("name").asText("?") + " has no command");
            }
            requireStrings(where, "command", container.path("command"), problems);
            requireStrings(where, "args", container.path("args"), problems);
            List<String> arguments = new ArrayList<>();
            container.path("args").forEach(argument -> arguments.add(argument.asText()));
            // The executors must run the image the driver runs: the same jar and profiles.
            arguments.stream().filter(argument -> argument.startsWith("spark.kubernetes.container.image=")).forEach(setting -> {
                if (!setting.endsWith("=" + container.path("image").asText())) {
                    problems.add(where + ": " + setting + " is not the container's own image " + container.path("image").asText());
                }
            });
            if (!valueAfter(arguments, "--class").equals(MAIN_CLASS)) {
                problems.add(where + ": spark-submit's --class is not " + MAIN_CLASS);
            }
            String jar = arguments.stream().filter(argument -> argument.endsWith(".jar")).findFirst().orElse("");
            String subcommand = valueAfter(arguments, jar);
            if (!subcommands().contains(subcommand)) {
                problems.add(where + ": the argument after the application jar, '" + subcommand + "', is not a langid subcommand " + subcommands());
            }
        }
    }

    private static void checkDeployment(String where, JsonNode deployment, List<String> problems) {
        JsonNode containers = deployment.at("/spec/template/spec/containers");
        if (containers.isEmpty()) {
            problems.add(where + ": no spec.template.spec.containers");
        }
        for (JsonNode container : containers) {
            String name = where + ": container " + container.path("name").asText("?");
            List<String> ports = new ArrayList<>();
            container.path("ports").forEach(port -> ports.add(port.path("containerPort").asText()));
            if (ports.isEmpty()) {
                problems.add(name + " has no containerPort");
            }
            for (String probe : List.of("readinessProbe", "livenessProbe")) {
                if (!container.at("/" + probe + "/httpGet/path").asText().equals("/healthz")) {
                    problems.add(name + ": " + probe + " does not GET /healthz");
                }
            }
            requireStrings(name, "args", container.path("args"), problems);
            // langid serve listens on loopback unless told otherwise; the probes would never reach it.
            List<String> arguments = new ArrayList<>();
            container.path("args").forEach(argument -> arguments.add(argument.asText()));
            if (!valueAfter(arguments, "--host").equals("0.0.0.0")) {
                problems.add(name + ": args do not say --host 0.0.0.0");
            }
            if (!ports.contains(valueAfter(arguments, "--port"))) {
                problems.add(name + ": --port " + valueAfter(arguments, "--port") + " is not a containerPort " + ports);
            }
        }
    }

    /** Kubernetes refuses numbers and booleans where it expects strings: an unquoted "2" in args, "1" in sparkConf. */
    private static void requireStrings(String where, String field, JsonNode values, List<String> problems) {
        values.forEach(value -> {
            if (!value.isTextual()) {
                problems.add(where + ": " + field + " holds " + value + ", not a string (quote it)");
            }
        });
    }

    /** A path named in a deploy file: inside the job image (via Dockerfile.job's COPY) or in a checkout of the repository. */
    private static void checkPath(String file, String path, Map<String, Optional<String>> jobImage, List<String> problems) {
        if (!path.startsWith(IMAGE_HOME)) {
            checkHostFile(file, path, problems);
            return;
        }
        Optional<Map.Entry<String, Optional<String>>> copy = jobImage.entrySet().stream()
                .filter(entry -> path.equals(entry.getKey()) || path.startsWith(entry.getKey() + "/"))
                .findFirst();
        if (copy.isEmpty()) {
            problems.add(file + ": " + path + " is not in the job image (" + relative(JOB_DOCKERFILE) + " copies nothing there)");
            return;
        }
        String destination = copy.get().getKey();
        copy.get().getValue().ifPresent(source -> {   // empty: built in the image, not a file of the repository
            Path inRepository = REPO.resolve(source + path.substring(destination.length()));
            if (!Files.exists(inRepository)) {
                problems.add(file + ": " + path + " comes from " + relative(inRepository) + ", which does not exist");
            } else if (path.endsWith(".sh") && !Files.isExecutable(inRepository)) {
                problems.add(file + ": " + path + " comes from " + relative(inRepository) + ", which is not executable");
            }
        });
    }

    private static void checkHostFile(String file, String path, List<String> problems) {
        hostPath(path).ifPresentOrElse(inRepository -> {
            if (!Files.exists(inRepository)) {
                problems.add(file + ": " + path + " does not exist in the repository");
            }
        }, () -> problems.add(file + ": " + path + " is neither in the repository nor in an image"));
    }

    private static void checkHostScript(String file, String script, List<String> problems) {
        hostPath(script).ifPresentOrElse(inRepository -> {
            if (!Files.isRegularFile(inRepository)) {
                problems.add(file + ": runs " + script + ", which does not exist in the repository");
            } else if (!Files.isExecutable(inRepository)) {
                problems.add(file + ": runs " + script + ", which is not executable");
            }
        }, () -> problems.add(file + ": runs " + script + ", which is not in the repository"));
    }

    /** The repository file for a path relative to the checkout or under {@link #HOST_CHECKOUT}. */
    private static Optional<Path> hostPath(String path) {
        if (path.startsWith(HOST_CHECKOUT)) {
            return Optional.of(REPO.resolve(path.substring(HOST_CHECKOUT.length())));
        }
        return path.startsWith("/") ? Optional.empty() : Optional.of(REPO.resolve(path));
    }

    /** submit.sh and its wrappers take the langid subcommand after "--". */
    private static void checkSubcommandAfterDoubleDash(String file, List<String> words, List<String> problems) {
        if (words.stream().noneMatch(word -> word.endsWith("submit.sh"))) {
            return;
        }
        String subcommand = valueAfter(words, "--");
        if (!subcommands().contains(subcommand)) {
            problems.add(file + ": submit.sh is given '" + subcommand + "' after --, not a langid subcommand " + subcommands());
        }
    }

    private static Set<String> subcommands() {
        return new TreeSet<>(new CommandLine(new LangidCommand()).getSubcommands().keySet());
    }

    /** What is wrong with a 5-field cron schedule (minute hour day-of-month month day-of-week), if anything. */
    private static Optional<String> cronProblem(String schedule) {
        String[] fields = schedule.strip().split("\\s+");
        if (fields.length != 5) {
            return Optional.of("'" + schedule + "' has " + fields.length + " fields, not 5");
        }
        String[] names = {"minute", "hour", "day of month", "month", "day of week"};
        int[][] ranges = {{0, 59}, {0, 23}, {1, 31}, {1, 12}, {0, 7}};
        List<List<String>> symbols = List.of(List.of(), List.of(), List.of(),
                List.of("", "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"),
                List.of("sun", "mon", "tue", "wed", "thu", "fri", "sat"));
        for (int i = 0; i < 5; i++) {
            for (String item : fields[i].split(",", -1)) {
                if (!cronItemIsValid(item, ranges[i][0], ranges[i][1], symbols.get(i))) {
                    return Optional.of(names[i] + " '" + fields[i] + "' is not valid (" + ranges[i][0] + "-" + ranges[i][1] + ")");
                }
            }
        }
        return Optional.empty();
    }

    private static boolean cronItemIsValid(String item, int min, int max, List<String> symbols) {
        String[] rangeAndStep = item.split("/", -1);
        if (rangeAndStep.length > 2 || (rangeAndStep.length == 2 && !rangeAndStep[1].matches("[1-9]\\d*"))) {
            return false;
        }
        if (rangeAndStep[0].equals("*")) {
            return true;
        }
        String[] ends = rangeAndStep[0].split("-", -1);
        if (ends.length > 2) {
            return false;
        }
        OptionalInt low = cronValue(ends[0], symbols);
        OptionalInt high = cronValue(ends[ends.length - 1], symbols);
        return low.isPresent() && high.isPresent() && low.getAsInt() >= min && high.getAsInt() <= max && low.getAsInt() <= high.getAsInt();
    }

    private static OptionalInt cronValue(String token, List<String> symbols) {
        if (token.matches("\\d{1,2}")) {
            return OptionalInt.of(Integer.parseInt(token));
        }
        int index = symbols.indexOf(token.toLowerCase());
        return token.isEmpty() || index < 0 ? OptionalInt.empty() : OptionalInt.of(index);
    }

    /** Every *.yaml, *.yml and *.json under deploy/ and conf/. */
    private static List<Path> dataFiles() throws IOException {
        List<Path> files = new ArrayList<>();
        for (Path root : List.of(DEPLOY, CONF)) {
            try (Stream<Path> walk = Files.walk(root)) {
                walk.filter(Files::isRegularFile).filter(file -> file.toString().matches(".*\\.(ya?ml|json)")).sorted().forEach(files::add);
            }
        }
        return files;
    }

    private static List<Path> deployFiles() throws IOException {
        try (Stream<Path> walk = Files.walk(DEPLOY)) {
            return walk.filter(Files::isRegularFile).sorted().toList();
        }
    }

    /** The YAML or JSON documents of a file (a YAML file may hold several, separated by ---). */
    private static List<JsonNode> documents(Path file) throws IOException {
        String text = Files.readString(file);
        if (file.toString().endsWith(".json")) {
            return List.of(JSON.readTree(text));
        }
        return YAML.readerFor(JsonNode.class).<JsonNode>readValues(text).readAll().stream()
                .filter(document -> document != null && !document.isNull() && !document.isMissingNode())
                .toList();
    }

    /** The Kubernetes objects of every YAML or JSON file under deploy/. */
    private static Map<Path, List<JsonNode>> manifests() throws IOException {
        Map<Path, List<JsonNode>> manifests = new LinkedHashMap<>();
        for (Path file : dataFiles()) {
            if (file.startsWith(DEPLOY)) {
                manifests.put(file, documents(file));
            }
        }
        return manifests;
    }

    /** A Dockerfile's instructions as {keyword, arguments}, continuation lines joined, comments dropped. */
    private static List<String[]> instructions(Path dockerfile) throws IOException {
        List<String[]> instructions = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : Files.readAllLines(dockerfile)) {
            if (line.strip().startsWith("#")) {
                continue;
            }
            current.append(line.strip().replaceFirst("\\\\$", "")).append(' ');
            if (!line.strip().endsWith("\\")) {
                String instruction = current.toString().strip();
                current.setLength(0);
                if (!instruction.isEmpty()) {
                    String[] keywordAndRest = instruction.split("\\s+", 2);
                    instructions.add(new String[] {keywordAndRest[0].toUpperCase(), keywordAndRest.length > 1 ? keywordAndRest[1] : ""});
                }
            }
        }
        return instructions;
    }

    private static String last(List<String[]> instructions, String keyword) {
        return instructions.stream().filter(instruction -> instruction[0].equals(keyword)).reduce((first, second) -> second)
                .map(instruction -> instruction[1]).orElse("");
    }

    /** The image the last stage starts from, a ${VARIABLE} replaced by its ARG default. */
    private static String finalBaseImage(List<String[]> instructions) {
        String image = last(instructions, "FROM").split("\\s+")[0];
        Matcher variable = Pattern.compile("\\$\\{?(\\w+)}?").matcher(image);
        if (!variable.matches()) {
            return image;
        }
        return instructions.stream().filter(instruction -> instruction[0].equals("ARG"))
                .map(instruction -> instruction[1]).filter(argument -> argument.startsWith(variable.group(1) + "="))
                .map(argument -> argument.substring(variable.group(1).length() + 1)).findFirst().orElse(image);
    }

    /** COPY destinations of the final stage, each with its source in the repository (empty when copied from a build stage). */
    private static Map<String, Optional<String>> copiedIntoImage(Path dockerfile) throws IOException {
        Map<String, Optional<String>> copies = new LinkedHashMap<>();
        for (String[] instruction : instructions(dockerfile)) {
            if (instruction[0].equals("FROM")) {
                copies.clear();
            } else if (instruction[0].equals("COPY")) {
                List<String> words = List.of(instruction[1].split("\\s+"));
                boolean fromStage = words.stream().anyMatch(word -> word.startsWith("--from="));
                List<String> paths = words.stream().filter(word -> !word.startsWith("--")).toList();
                copies.put(paths.get(paths.size() - 1).replaceAll("/+$", ""), fromStage ? Optional.empty() : Optional.of(paths.get(0)));
            }
        }
        return copies;
    }

    private static Map<String, Map<String, String>> unitSections(String text) {
        Map<String, Map<String, String>> sections = new LinkedHashMap<>();
        Map<String, String> section = null;
        for (String line : text.lines().map(String::strip).toList()) {
            if (line.isEmpty() || line.startsWith("#") || line.startsWith(";")) {
                continue;
            }
            if (line.matches("\\[[^]]+]")) {
                section = sections.computeIfAbsent(line.substring(1, line.length() - 1), name -> new LinkedHashMap<>());
            } else if (section != null && line.contains("=")) {
                section.put(line.substring(0, line.indexOf('=')).strip(), line.substring(line.indexOf('=') + 1).strip());
            }
        }
        return sections;
    }

    private static String valueAfter(List<String> words, String option) {
        int at = words.indexOf(option);
        return at >= 0 && at + 1 < words.size() ? words.get(at + 1) : "";
    }

    private record Submission(int exitCode, List<String> arguments, String err) {
        String valueOf(String option) {
            return valueAfter(arguments, option);
        }

        /** The arguments after the application jar: what LangidCommand receives. */
        List<String> after(String jar) {
            assertTrue(arguments.contains(jar), "no application jar " + jar + " in " + arguments);
            return arguments.subList(arguments.indexOf(jar) + 1, arguments.size());
        }
    }

    /** Runs a script of deploy/spark-submit/ against a spark-submit that prints its arguments, one a line. */
    private Submission submit(String script, Map<String, String> environment, String... arguments) throws IOException, InterruptedException {
        Path sparkHome = temp.resolve("spark");
        Path sparkSubmit = sparkHome.resolve("bin/spark-submit");
        if (!Files.exists(sparkSubmit)) {
            Files.createDirectories(sparkSubmit.getParent());
            Files.writeString(sparkSubmit, "#!/bin/sh\nprintf '%s\\n' \"$@\"\n");
            Files.setPosixFilePermissions(sparkSubmit, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        List<String> command = new ArrayList<>(List.of("bash", DEPLOY.resolve("spark-submit").resolve(script).toString()));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command);
        for (String variable : List.of("SPARK_MASTER", "LANGID_JAR", "LANGID_IMAGE", "LANGID_K8S_NAMESPACE", "SPARK_SUBMIT_EXTRA")) {
            builder.environment().remove(variable);
        }
        builder.environment().put("SPARK_HOME", sparkHome.toString());
        builder.environment().putAll(environment);
        Path err = Files.createTempFile(temp, "stderr", ".txt");
        Process process = builder.redirectError(err.toFile()).start();
        List<String> out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        return new Submission(process.waitFor(), out, Files.readString(err));
    }

    /** A stand-in jar holding one (empty) entry: submit.sh only looks at the names inside. */
    private Path jarHolding(String entry) throws IOException {
        Path jar = Files.createTempFile(temp, "langid-jobs-", "-cluster.jar");
        try (OutputStream file = Files.newOutputStream(jar); ZipOutputStream zip = new ZipOutputStream(file)) {
            zip.putNextEntry(new ZipEntry(entry));
            zip.closeEntry();
        }
        return jar;
    }

    private static String relative(Path file) {
        return REPO.relativize(file.toAbsolutePath().normalize()).toString();
    }

    private static void assertNoProblems(List<String> problems) {
        assertTrue(problems.isEmpty(), problems.size() + " problem(s):\n" + String.join("\n", problems));
    }
}
