package org.langid.model.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConfigTreeTest {

    public static class Sample implements ValidatedConfig {
        public int windowLength = 16;
        public List<String> languages = new ArrayList<>();
        public Inner inner = new Inner();

        public static class Inner {
            public double rate = 0.5;
        }

        @Override
        public List<String> problems() {
            return windowLength < 1 ? List.of("window_length must be at least 1, got " + windowLength) : List.of();
        }
    }

    @Test
    void bindsSnakeCaseKeysKeepsDefaultsAndAppliesOverrides() {
        ConfigTree tree = ConfigTree.parse("sample:\n  window_length: 8\n", "test.yaml")
                .withOverrides(List.of("sample.languages=[en, de]", "sample.inner.rate=0.25"));
        Sample sample = tree.section("sample", Sample.class);
        assertEquals(8, sample.windowLength);
        assertEquals(List.of("en", "de"), sample.languages);
        assertEquals(0.25, sample.inner.rate);
        assertEquals(16, ConfigTree.empty().section("sample", Sample.class).windowLength);
    }

    @Test
    void unknownKeysBadYamlAndInvalidValuesAreOneLineErrors() {
        ConfigException typo = assertThrows(ConfigException.class,
                () -> ConfigTree.parse("sample:\n  window_lenght: 8\n", "p.yaml").section("sample", Sample.class));
        assertTrue(typo.getMessage().startsWith("p.yaml: unknown key 'sample.window_lenght'"), typo.getMessage());

        ConfigException yaml = assertThrows(ConfigException.class, () -> ConfigTree.parse("sample: [unclosed\n", "p.yaml"));
        assertTrue(yaml.getMessage().startsWith("p.yaml: not valid YAML"), yaml.getMessage());

        ConfigException invalid = assertThrows(ConfigException.class,
                () -> ConfigTree.parse("sample:\n  window_length: 0\n", "p.yaml").section("sample", Sample.class));
        assertEquals("p.yaml: section 'sample': window_length must be at least 1, got 0", invalid.getMessage());

        ConfigException override = assertThrows(ConfigException.class, () -> ConfigTree.empty().withOverrides(List.of("no-equals-sign")));
        assertTrue(override.getMessage().contains("not of the form section.key=value"));
        for (String message : List.of(typo.getMessage(), yaml.getMessage(), invalid.getMessage())) {
            assertTrue(!message.contains("\n"), "one line: " + message);
        }
    }
    @Test
    void aProfileWrittenOverItsBaseChangesOnlyWhatItSets() {
        ConfigTree base = ConfigTree.parse("sample:\n  window_length: 8\n  languages: [en, de, fr]\n  inner:\n    rate: 0.25\n", "base.yaml");
        ConfigTree own = ConfigTree.parse("base: base.yaml\nsample:\n  languages: [sv]\n  inner: {}\n", "own.yaml");
        assertEquals("base.yaml", own.base());
        assertEquals(null, base.base());
        Sample merged = own.over(base).section("sample", Sample.class);
        assertEquals(8, merged.windowLength, "a key the profile leaves out is the base's");
        assertEquals(List.of("sv"), merged.languages, "a list is replaced whole, not merged");
        assertEquals(0.25, merged.inner.rate, "mappings merge key by key");
        assertEquals(null, own.over(base).base(), "the merged profile names no base");
        // Overrides still come last.
        assertEquals(4, own.over(base).withOverrides(List.of("sample.window_length=4")).section("sample", Sample.class).windowLength);

        ConfigException notAName = assertThrows(ConfigException.class, () -> ConfigTree.parse("base: [a, b]\n", "p.yaml").base());
        assertTrue(notAName.getMessage().startsWith("p.yaml: 'base' must name a profile file"), notAName.getMessage());
    }
}
