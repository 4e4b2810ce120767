package org.langid.model.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Validates JSON documents against the schemas in {@code data-schemas/} (packaged on the
 * classpath under {@code data-schemas/}), so every file the project writes is checked against
 * the same schema a reader of the repository sees.
 */
public final class JsonSchemas {

    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
    private static final Map<String, JsonSchema> CACHE = new ConcurrentHashMap<>();

    private JsonSchemas() {
    }

    /** Problems of {@code document} against schema file {@code schemaFile} (e.g. "prepare-summary.schema.json"). */
    public static List<String> problems(String schemaFile, JsonNode document) {
        return schema(schemaFile).validate(document).stream()
                .map(ValidationMessage::getMessage)
                .sorted()
                .toList();
    }

    /** Throws {@link IllegalStateException} naming every problem if {@code document} does not validate. */
    public static void requireValid(String schemaFile, JsonNode document, String what) {
        List<String> problems = problems(schemaFile, document);
        if (!problems.isEmpty()) {
            throw new IllegalStateException(what + " does not match " + schemaFile + ": " + String.join("; ", problems));
        }
    }

    /** Loads and compiles {@code schemaFile} now (e.g. on a spare core while a command starts), so that its first use is quick. */
    public static void preload(String schemaFile) {
        schema(schemaFile);
    }

    private static JsonSchema schema(String schemaFile) {
        return CACHE.computeIfAbsent(schemaFile, name -> {
            String resource = "/data-schemas/" + name;
            try (InputStream in = JsonSchemas.class.getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("schema " + resource + " is not on the classpath");
                }
                return FACTORY.getSchema(in);
            } catch (IOException e) {
                throw new IllegalStateException("cannot read schema " + resource, e);
            }
        });
    }

    /** Text of a packaged schema file (e.g. a Parquet message type). */
    public static String resourceText(String schemaFile) {
        String resource = "/data-schemas/" + schemaFile;
        try (InputStream in = JsonSchemas.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("schema " + resource + " is not on the classpath");
            }
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read schema " + resource, e);
        }
    }
}
