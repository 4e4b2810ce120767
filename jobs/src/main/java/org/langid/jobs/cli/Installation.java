package org.langid.jobs.cli;

import java.io.File;

/** Where the project is checked out, for defaults relative to it (set by ./langid; else the working directory). */
final class Installation {

    private Installation() {
    }

    static File home() {
        return new File(System.getProperty("langid.home", "."));
    }

    static String path(String relative) {
        return new File(home(), relative).getPath();
    }
}
