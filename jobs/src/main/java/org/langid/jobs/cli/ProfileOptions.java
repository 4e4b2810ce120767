package org.langid.jobs.cli;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.langid.model.io.HadoopFiles;
import org.langid.model.config.ConfigException;
import org.langid.model.config.ConfigTree;
import picocli.CommandLine.Option;

/** The configuration profile of a run: a YAML file from conf/ (any Hadoop path) plus overrides. */
public final class ProfileOptions {

    /** The profile used when none is named: conf/local.yaml of the installation. */
    static final String DEFAULT_PROFILE = "conf/local.yaml";

    @Option(names = {"-c", "--config"}, paramLabel = "FILE",
            description = "Configuration profile (YAML; local path or Hadoop URI). Default: conf/local.yaml of the installation.")
    String config;

    @Option(names = "--set", paramLabel = "KEY=VALUE",
            description = "Override one setting, e.g. --set prepare.window.stride=4; repeatable.")
    List<String> overrides = new ArrayList<>();

    public ConfigTree load(Configuration hadoop) {
        String file = config != null ? config : defaultProfile();
        ConfigTree tree;
        if (file == null) {
            tree = ConfigTree.empty();
        } else {
            if (!HadoopFiles.exists(file, hadoop)) {
                throw new ConfigException("configuration file " + file + " does not exist");
            }
            String text;
            try {
                text = HadoopFiles.readString(file, hadoop);
            } catch (RuntimeException e) {
                throw new ConfigException("cannot read configuration file " + file + ": " + e.getMessage());
            }
            tree = ConfigTree.parse(text, file);
        }
        return overrides.isEmpty() ? tree : tree.withOverrides(overrides);
    }

    private static String defaultProfile() {
        File profile = new File(Installation.home(), DEFAULT_PROFILE);
        return profile.isFile() ? profile.getPath() : null;
    }
}
