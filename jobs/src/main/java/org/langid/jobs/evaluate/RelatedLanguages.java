package org.langid.jobs.evaluate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Groups of closely related languages, which a detector confuses more than any others and whose
 * confusions are reported apart (report.json's {@code related}): an error inside a group is a
 * different kind of error from one across scripts or families.
 */
public final class RelatedLanguages {

    /** A named group; {@code members} are ISO 639 codes. */
    public record Group(String name, List<String> members) {

        public Group {
            members = List.copyOf(members);
        }
    }

    /**
     * The known groups. A model's language is a member when its code is one of these or its primary
     * subtag is (so zh-CN, zh-TW and zh_Hant are all forms of zh, and pt-BR of pt). Groups may
     * overlap: Catalan is close to both Spanish and Occitan. Judged related besides the brief's
     * list: the two Sorbian languages, Frisian with Dutch, Asturian with the Ibero-Romance group
     * and Occitan with Catalan (each pair shares much of its spelling and vocabulary).
     */
    public static final List<Group> GROUPS = List.of(
            new Group("Scandinavian", List.of("da", "nb", "nn", "no", "sv")),
            new Group("Czech–Slovak", List.of("cs", "sk")),
            new Group("Serbo-Croatian", List.of("hr", "sr", "bs", "sh", "cnr")),
            new Group("East and South Slavic (Cyrillic)", List.of("ru", "uk", "be", "bg", "mk")),
            new Group("Ibero-Romance", List.of("es", "gl", "pt", "ca", "ast")),
            new Group("Catalan–Occitan", List.of("ca", "oc")),
            new Group("Malay", List.of("id", "ms")),
            new Group("Chinese", List.of("zh")),
            new Group("Sorbian", List.of("hsb", "dsb")),
            new Group("Frisian–Dutch", List.of("fy", "nl")));

    private RelatedLanguages() {
    }

    /** The groups with at least two of {@code languages}, each holding those languages in their given order. */
    public static List<Group> among(List<String> languages) {
        return among(languages, GROUPS);
    }

    static List<Group> among(List<String> languages, List<Group> groups) {
        List<Group> present = new ArrayList<>();
        for (Group group : groups) {
            List<String> members = new ArrayList<>();
            for (String language : languages) {
                if (group.members().contains(language.toLowerCase(Locale.ROOT)) || group.members().contains(primarySubtag(language))) {
                    members.add(language);
                }
            }
            if (members.size() >= 2) {
                present.add(new Group(group.name(), members));
            }
        }
        return present;
    }

    static String primarySubtag(String code) {
        int end = 0;
        while (end < code.length() && code.charAt(end) != '-' && code.charAt(end) != '_') {
            end++;
        }
        return code.substring(0, end).toLowerCase(Locale.ROOT);
    }
}
