package org.langid.model.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.util.List;

/**
 * A configuration profile: a YAML document with one section per concern ({@code prepare:},
 * {@code model:}, {@code train:}), each bound to its own config class. Keys are
 * snake_case; an unknown key is an error that names it, so a typo never silently falls back
 * to a default.
 */
public final class ConfigTree {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

    private final String origin;
    private final ObjectNode root;

    private ConfigTree(String origin, ObjectNode root) {
        this.origin = origin;
        this.root = root;
    }

    /** An empty profile: every section takes its defaults. */
    public static ConfigTree empty() {
        return new ConfigTree("defaults", JsonNodeFactory.instance.objectNode());
    }

    /** Parses YAML text; {@code origin} names it in error messages (a path, usually). */
    public static ConfigTree parse(String yaml, String origin) {
        try {
            JsonNode node = YAML.readTree(yaml);
            if (node == null || node.isMissingNode() || node.isNull()) {
                return new ConfigTree(origin, JsonNodeFactory.instance.objectNode());
            }
            if (!node.isObject()) {
                throw new ConfigException(origin + ": expected a mapping of sections (prepare:, model:, ...), found " + node.getNodeType());
            }
            return new ConfigTree(origin, (ObjectNode) node);
        } catch (JsonProcessingException e) {
            throw new ConfigException(origin + ": not valid YAML: " + firstLine(e.getOriginalMessage())
                    + (e.getLocation() != null ? " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")" : ""));
        }
    }

    /** The key that names a profile's base: another profile whose settings this one changes. */
    public static final String BASE = "base";

    /** The profile this one is written on top of ({@code base: local.yaml}), as written, or null. */
    public String base() {
        JsonNode base = root.get(BASE);
        if (base == null || base.isNull()) {
            return null;
        }
        if (!base.isTextual() || base.asText().isBlank()) {
            throw new ConfigException(origin + ": '" + BASE + "' must name a profile file, found " + base);
        }
        return base.asText();
    }

    /**
     * This profile written over {@code base}: every key this one sets replaces the base's (mappings
     * merged key by key, lists and values replaced whole); the rest is the base's.
     */
    public ConfigTree over(ConfigTree base) {
        ObjectNode merged = base.root.deepCopy();
        merged.remove(BASE);
        ObjectNode own = root.deepCopy();
        own.remove(BASE);
        merge(merged, own);
        return new ConfigTree(origin + " (on " + base.origin + ")", merged);
    }

    private static void merge(ObjectNode into, ObjectNode from) {
        from.fields().forEachRemaining(field -> {
            JsonNode existing = into.get(field.getKey());
            if (existing != null && existing.isObject() && field.getValue().isObject()) {
                merge((ObjectNode) existing, (ObjectNode) field.getValue());
            } else {
                into.set(field.getKey(), field.getValue());
            }
        });
    }

    /**
     * Applies overrides of the form {@code section.key.subkey=value}; the value is read as a
     * YAML scalar or flow collection ({@code 4}, {@code true}, {@code [en, de]}).
     */
    public ConfigTree withOverrides(List<String> assignments) {
        ObjectNode copy = root.deepCopy();
        for (String assignment : assignments) {
            int eq = assignment.indexOf('=');
            if (eq <= 0) {
                throw new ConfigException("override '" + assignment + "' is not of the form section.key=value");
            }
            String[] path = assignment.substring(0, eq).trim().split("\\.");
            JsonNode value;
            try {
                value = YAML.readTree(assignment.substring(eq + 1));
            } catch (JsonProcessingException e) {
                throw new ConfigException("override '" + assignment + "': value is not valid YAML: " + firstLine(e.getOriginalMessage()));
            }
            ObjectNode parent = copy;
            for (int i = 0; i < path.length - 1; i++) {
                JsonNode child = parent.get(path[i]);
                if (child == null || !child.isObject()) {
                    child = parent.putObject(path[i]);
                }
                parent = (ObjectNode) child;
            }
            parent.set(path[path.length - 1], value == null ? JsonNodeFactory.instance.nullNode() : value);
        }
        return new ConfigTree(origin + " with overrides", copy);
    }

    /** Binds a section to its config class (defaults for absent keys) and validates it. */
    public <T extends ValidatedConfig> T section(String name, Class<T> type) {
        JsonNode node = root.get(name);
        T config;
        try {
            config = node == null || node.isNull()
                    ? type.getDeclaredConstructor().newInstance()
                    : YAML.treeToValue(node, type);
        } catch (UnrecognizedPropertyException e) {
            String key = pathOf(e);
            String moved = newInstance(type).movedKeys().get(key);
            if (moved != null) {
                throw new ConfigException(origin + ": '" + name + "." + key + "' is '" + moved + "' now");
            }
            throw new ConfigException(origin + ": unknown key '" + name + "." + key + "' (known keys here: "
                    + e.getKnownPropertyIds() + ")");
        } catch (JsonProcessingException e) {
            throw new ConfigException(origin + ": section '" + name + "': " + firstLine(e.getOriginalMessage()));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(type + " needs a public no-argument constructor", e);
        }
        List<String> problems = config.problems();
        if (!problems.isEmpty()) {
            throw new ConfigException(origin + ": section '" + name + "': " + String.join("; ", problems));
        }
        return config;
    }

    private static <T> T newInstance(Class<T> type) {
        try {
            return type.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(type + " needs a public no-argument constructor", e);
        }
    }

    /** A deep copy of a config object, through its JSON form. */
    public static <T> T copy(T config, Class<T> type) {
        try {
            return YAML.treeToValue(YAML.valueToTree(config), type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot copy " + type.getSimpleName() + ": " + e.getOriginalMessage(), e);
        }
    }

    /**
     * A copy of a config object with {@code changes} (snake_case keys as in a profile, mappings
     * merged key by key as {@link #over} does) written over it; {@code origin} names the changes in
     * the error an unknown key or a wrong value gives.
     */
    public static <T> T copyWith(T config, java.util.Map<String, Object> changes, Class<T> type, String origin) {
        ObjectNode merged = YAML.valueToTree(config);
        merge(merged, YAML.valueToTree(changes));
        try {
            return YAML.treeToValue(merged, type);
        } catch (UnrecognizedPropertyException e) {
            throw new ConfigException(origin + ": unknown key '" + pathOf(e) + "'");
        } catch (JsonProcessingException e) {
            throw new ConfigException(origin + ": " + firstLine(e.getOriginalMessage()));
        }
    }

    /** The section as plain JSON (for provenance records). */
    public static JsonNode toJson(Object config) {
        return YAML.valueToTree(config);
    }

    private static String firstLine(String message) {
        return message == null ? "" : message.lines().findFirst().orElse("").strip();
    }

    private static String pathOf(UnrecognizedPropertyException e) {
        StringBuilder path = new StringBuilder();
        for (var ref : e.getPath()) {
            if (path.length() > 0) {
                path.append('.');
            }
            path.append(ref.getFieldName() != null ? ref.getFieldName() : "[" + ref.getIndex() + "]");
        }
        return path.toString();
    }
}
