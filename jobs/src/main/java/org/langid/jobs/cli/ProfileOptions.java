package org.langid.jobs.cli;

import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.langid.model.io.HadoopFiles;
import org.langid.model.config.ConfigException;
import org.langid.model.config.ConfigTree;
import picocli.CommandLine.Option;

/**
 * The configuration profile of a run: a YAML file from conf/ (any Hadoop path) plus overrides.
 * A profile may be written on top of another ({@code base: local.yaml}, a path relative to its
 * own directory), setting only what it changes.
 */
public final class ProfileOptions {

    /** The profile used when none is named: conf/local.yaml of the installation. */
    static final String DEFAULT_PROFILE = "conf/local.yaml";
    /** The pipeline's: many.yaml's model, sized for the committed sample. */
    static final String PIPELINE_PROFILE = "conf/pipeline.yaml";
    /** Bases within bases: more than this is a mistake, most likely a loop. */
    private static final int MAX_BASES = 8;

    @Option(names = {"-c", "--config"}, paramLabel = "FILE",
            description = "Configuration profile (YAML; local path or Hadoop URI). Default: conf/local.yaml of the installation "
                    + "(for pipeline: conf/pipeline.yaml, many.yaml's model sized for the committed sample).")
    String config;

    @Option(names = "--set", paramLabel = "KEY=VALUE",
            description = "Override one setting, e.g. --set prepare.window.stride=4; repeatable.")
    List<String> overrides = new ArrayList<>();

    public ConfigTree load(Configuration hadoop) {
        return load(hadoop, DEFAULT_PROFILE);
    }

    /** The named profile, else {@code defaultProfile} of the installation (none there: every default). */
    ConfigTree load(Configuration hadoop, String defaultProfile) {
        String file = config != null ? config : installed(defaultProfile);
        ConfigTree tree = file == null ? ConfigTree.empty() : read(file, hadoop);
        return overrides.isEmpty() ? tree : tree.withOverrides(overrides);
    }

    /** A profile file (any Hadoop path), written over its bases. */
    public static ConfigTree read(String file, Configuration hadoop) {
        List<ConfigTree> layers = new ArrayList<>();   // the file first, its root base last
        Set<String> seen = new LinkedHashSet<>();
        for (String current = file; current != null; ) {
            if (!seen.add(current) || seen.size() > MAX_BASES) {
                throw new ConfigException(file + ": its bases form a loop or are nested too deep: " + String.join(" -> ", seen)
                        + " -> " + current);
            }
            ConfigTree layer = parse(current, hadoop);
            layers.add(layer);
            String base = layer.base();
            current = base == null ? null : new Path(new Path(current).getParent(), base).toString();
        }
        ConfigTree merged = layers.get(layers.size() - 1);
        for (int i = layers.size() - 2; i >= 0; i--) {
            merged = layers.get(i).over(merged);
        }
        return merged;
    }

    private static ConfigTree parse(String file, Configuration hadoop) {
        if (!HadoopFiles.exists(file, hadoop)) {
            throw new ConfigException("configuration file " + file + " does not exist");
        }
        String text;
        try {
            text = HadoopFiles.readString(file, hadoop);
        } catch (RuntimeException e) {
            throw new ConfigException("cannot read configuration file " + file + ": " + e.getMessage());
        }
        return ConfigTree.parse(text, file);
    }

    private static String installed(String profile) {
        File file = new File(Installation.home(), profile);
        return file.isFile() ? file.getPath() : null;
    }
}
