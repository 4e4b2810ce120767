package org.langid.jobs.prepare;

import java.util.Locale;

/** The corpus layouts {@code prepare} reads. */
public enum CorpusFormat {
    /** The seed's {@code {"en": ["sentence", ...], "de": [...]}}, one or more files. */
    JSON,
    /** Tatoeba-style {@code id<TAB>lang<TAB>text} lines. */
    TSV,
    /** A directory of {@code <lang>.txt} or {@code <lang>.txt.gz} files, one sentence a line. */
    TXT;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether a file name belongs to this format ({@code .gz} allowed after the extension). */
    public boolean matches(String fileName) {
        String name = fileName.toLowerCase(Locale.ROOT);
        if (name.endsWith(".gz")) {
            name = name.substring(0, name.length() - 3);
        }
        return switch (this) {
            case JSON -> name.endsWith(".json");
            case TSV -> name.endsWith(".tsv") || name.endsWith(".csv");
            case TXT -> name.endsWith(".txt");
        };
    }

    /** The language a TXT corpus file is named after ("de.txt.gz" → "de"). */
    static String languageOfFileName(String fileName) {
        String name = fileName;
        if (name.endsWith(".gz")) {
            name = name.substring(0, name.length() - 3);
        }
        int dot = name.lastIndexOf('.');
        return dot < 0 ? name : name.substring(0, dot);
    }
}
