package org.langid.jobs.cli;

import java.io.UncheckedIOException;
import org.langid.jobs.prepare.PrepareException;
import org.langid.model.artefact.ArtefactException;
import org.langid.model.config.ConfigException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code langid}: the one entry point, for {@code ./langid} and for {@code spark-submit}. */
@Command(name = "langid",
        mixinStandardHelpOptions = true,
        versionProvider = LangidCommand.Version.class,
        description = "Attention-based language identification, trained on Apache Spark.",
        subcommands = {PipelineCommand.class, PrepareCommand.class, TrainCommand.class, ExportCommand.class, EvaluateCommand.class, PredictCommand.class,
                ScoreCommand.class,
                org.langid.serving.ServeCommand.class, RetrainCommand.class,
                VisualizeCommand.class, BenchCommand.class, CommandLine.HelpCommand.class})
public final class LangidCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Any subcommand takes it: library logs (Spark, SameDiff, ND4J) on the console as well as in the log file. */
    @CommandLine.Option(names = "--verbose", scope = CommandLine.ScopeType.INHERIT,
            description = "Show library logs (Spark, SameDiff, ND4J) on the console too, not only in the run's log file.")
    void verbose(boolean on) {
        if (on) {
            Logs.showLibraries();
        }
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs a command line and returns its exit code (0 success, 1 failure, 2 usage error). */
    public static int execute(String... args) {
        return execute(new java.io.PrintWriter(System.err, true), args);
    }

    /** As {@link #execute(String...)}, with error messages going to {@code err}. */
    public static int execute(java.io.PrintWriter err, String... args) {
        CommandLine commandLine = new CommandLine(new LangidCommand()).setErr(err);
        commandLine.setExecutionExceptionHandler((e, cmd, parsed) -> {
            cmd.getErr().println("langid " + cmd.getCommandName() + ": error: " + userMessage(e) + logReference());
            if (Boolean.getBoolean("langid.debug")) {
                e.printStackTrace(cmd.getErr());
            }
            return 1;
        });
        try {
            return commandLine.execute(args);
        } catch (OutOfMemoryError e) {
            // An Error passes picocli's handler above; under spark-submit it ended as SparkSubmit's stack trace.
            CommandLine.ParseResult parsed = commandLine.getParseResult();
            while (parsed != null && parsed.hasSubcommand()) {
                parsed = parsed.subcommand();
            }
            err.println("langid " + (parsed == null ? "langid" : parsed.commandSpec().name()) + ": error: out of memory ("
                    + e.getMessage() + "); give this JVM more heap: LANGID_JAVA_OPTS=-Xmx8g for ./langid, or --driver-memory "
                    + "(SPARK_SUBMIT_EXTRA of deploy/spark-submit/submit.sh) for spark-submit's driver" + logReference());
            return 1;
        }
    }

    /** One line a user can act on; the stack trace only with -Dlangid.debug=true. */
    static String userMessage(Throwable e) {
        if (e instanceof PrepareException || e instanceof ConfigException || e instanceof UncheckedIOException
                || e instanceof ArtefactException || e instanceof IllegalArgumentException || e instanceof org.langid.jobs.retrain.RetrainLockedException) {
            return e.getMessage();
        }
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root instanceof PrepareException || root instanceof ConfigException || root instanceof ArtefactException) {
            return root.getMessage();
        }
        // A SparkException's message carries the failed task's stack trace on the lines after its first.
        return e.getClass().getSimpleName() + ": " + firstLine(e.getMessage())
                + (root != e ? " (caused by " + root.getClass().getSimpleName() + ": " + firstLine(root.getMessage()) + ")" : "")
                + " [run with LANGID_DEBUG=1 for the stack trace]";
    }

    /** " (log: FILE)" when this run has a log file, else nothing: every error line ends with it. */
    private static String logReference() {
        String log = Logs.file();
        return log != null && new java.io.File(log).isFile() ? " (log: " + log + ")" : "";
    }

    private static String firstLine(String message) {
        if (message == null) {
            return null;
        }
        int end = message.indexOf('\n');
        return end < 0 ? message : message.substring(0, end).stripTrailing() + " ...";
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = LangidCommand.class.getPackage().getImplementationVersion();
            return new String[] {"langid " + (version == null ? "(development build)" : version)};
        }
    }
}
