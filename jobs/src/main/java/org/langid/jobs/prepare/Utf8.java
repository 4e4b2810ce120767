package org.langid.jobs.prepare;

import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * UTF-8 decoding that marks undecodable bytes with {@link CorpusRecord#INVALID_BYTES} instead of
 * failing or silently substituting U+FFFD, so the record that holds them can be quarantined
 * while its neighbours are kept.
 */
final class Utf8 {

    private Utf8() {
    }

    static CharsetDecoder lenientDecoder() {
        return StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE)
                .replaceWith(String.valueOf(CorpusRecord.INVALID_BYTES));
    }

    static Reader lenientReader(InputStream in) {
        return new InputStreamReader(in, lenientDecoder());
    }

    /** Decodes bytes; a leading byte-order mark is dropped. */
    static String decode(CharsetDecoder decoder, byte[] bytes, int length) {
        try {
            CharBuffer chars = decoder.decode(ByteBuffer.wrap(bytes, 0, length));
            String text = chars.toString();
            return !text.isEmpty() && text.charAt(0) == '\uFEFF' ? text.substring(1) : text;
        } catch (CharacterCodingException e) {
            throw new IllegalStateException("a replacing decoder cannot fail", e);
        }
    }
}
