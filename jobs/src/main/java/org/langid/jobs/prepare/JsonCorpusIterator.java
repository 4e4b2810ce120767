package org.langid.jobs.prepare;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.hadoop.conf.Configuration;
import org.langid.model.io.HadoopFiles;

/**
 * Streams the sentences of one seed-format JSON file ({@code {"en": ["...", ...], ...}})
 * without holding the file in memory: one token at a time, on the executor that reads it.
 * A value that is not a string is one malformed record; a syntax error ends the file as one
 * malformed-json record that says where (nothing after it can be located reliably).
 */
final class JsonCorpusIterator implements Iterator<CorpusRecord>, AutoCloseable {

    private static final JsonFactory JSON = new JsonFactory();

    private final String file;
    private final JsonParser parser;
    private String language;
    private CorpusRecord next;
    private boolean done;
    private boolean started;

    JsonCorpusIterator(String file, Configuration conf) {
        this.file = file;
        try {
            InputStream in = HadoopFiles.open(file, conf);
            Reader reader = Utf8.lenientReader(in);
            this.parser = JSON.createParser(reader);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public boolean hasNext() {
        if (next == null && !done) {
            next = advance();
        }
        return next != null;
    }

    @Override
    public CorpusRecord next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        CorpusRecord record = next;
        next = null;
        return record;
    }

    private CorpusRecord advance() {
        try {
            while (true) {
                JsonToken token = parser.nextToken();
                if (token == null) {
                    return finish(started ? null : CorpusRecord.bad(QuarantineReason.MALFORMED_JSON, "the file is empty", null, null, file, 0));
                }
                long line = parser.currentTokenLocation().getLineNr();
                int depth = depth(parser.getParsingContext());
                if (!started) {
                    if (token != JsonToken.START_OBJECT) {
                        return finish(CorpusRecord.bad(QuarantineReason.MALFORMED_JSON,
                                "expected an object {\"lang\": [sentences]} at the top level, found " + token, null, null, file, line));
                    }
                    started = true;
                    continue;
                }
                if (depth == 0) {
                    if (token == JsonToken.END_OBJECT) {
                        continue;
                    }
                    return finish(CorpusRecord.bad(QuarantineReason.MALFORMED_JSON, "content after the top-level object", null, null, file, line));
                }
                if (depth == 1 && (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY)) {
                    return finish(CorpusRecord.bad(QuarantineReason.MALFORMED_JSON, "more than one top-level value", null, null, file, line));
                }
                switch (token) {
                    case FIELD_NAME -> language = parser.currentName();
                    case START_ARRAY -> {
                        if (depth != 2) {
                            parser.skipChildren();
                            return CorpusRecord.bad(QuarantineReason.MALFORMED_RECORD, "an array where a sentence was expected",
                                    language, null, file, line);
                        }
                    }
                    case END_ARRAY -> {
                    }
                    case START_OBJECT -> {
                        parser.skipChildren();
                        return CorpusRecord.bad(QuarantineReason.MALFORMED_RECORD,
                                depth == 2 ? "an object where an array of sentences was expected" : "an object where a sentence was expected",
                                language, null, file, line);
                    }
                    case VALUE_STRING -> {
                        if (depth == 2) {
                            return CorpusRecord.of(language, parser.getText(), file, line);
                        }
                        return CorpusRecord.bad(QuarantineReason.MALFORMED_RECORD,
                                "the value of \"" + language + "\" is a string; expected an array of sentences",
                                language, parser.getText(), file, line);
                    }
                    default -> {
                        return CorpusRecord.bad(QuarantineReason.MALFORMED_RECORD, "a " + token + " where a sentence was expected",
                                language, parser.getText(), file, line);
                    }
                }
            }
        } catch (JsonProcessingException e) {
            long line = e.getLocation() == null ? -1 : e.getLocation().getLineNr();
            return finish(CorpusRecord.bad(QuarantineReason.MALFORMED_JSON,
                    e.getOriginalMessage() + "; the rest of the file from line " + line + " is unreadable",
                    language, null, file, line));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** 0 at the top level, 1 inside the corpus object, 2 inside a language's array, ... */
    private static int depth(JsonStreamContext context) {
        int depth = 0;
        for (JsonStreamContext c = context; c != null && !c.inRoot(); c = c.getParent()) {
            depth++;
        }
        return depth;
    }

    private CorpusRecord finish(CorpusRecord last) {
        done = true;
        close();
        return last;
    }

    @Override
    public void close() {
        try {
            parser.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
