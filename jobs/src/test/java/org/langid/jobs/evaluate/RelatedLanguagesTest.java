package org.langid.jobs.evaluate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RelatedLanguagesTest {

    @Test
    void aGroupIsReportedWithTheModelsLanguagesInItsRegionalFormsToo() {
        List<RelatedLanguages.Group> groups = RelatedLanguages.among(List.of("en", "zh-CN", "sv", "pt-BR", "zh_TW", "ca", "es", "oc", "nl"));
        assertEquals(List.of(
                new RelatedLanguages.Group("Ibero-Romance", List.of("pt-BR", "ca", "es")),
                new RelatedLanguages.Group("Catalan–Occitan", List.of("ca", "oc")),
                new RelatedLanguages.Group("Chinese", List.of("zh-CN", "zh_TW"))), groups,
                "sv and nl have no relative here; a language may be in two groups");
    }

    @Test
    void theBriefsGroupsAreAllThere() {
        for (List<String> group : List.of(List.of("da", "nb", "nn", "sv"), List.of("cs", "sk"), List.of("hr", "sr", "bs"),
                List.of("ru", "uk", "be", "bg", "mk"), List.of("es", "gl", "pt", "ca"), List.of("id", "ms"),
                List.of("hsb", "dsb"), List.of("fy", "nl"), List.of("ast", "es"), List.of("oc", "ca"))) {
            assertTrue(RelatedLanguages.among(group).stream().anyMatch(g -> g.members().equals(group)), group.toString());
        }
        Set<String> names = new HashSet<>();
        RelatedLanguages.GROUPS.forEach(g -> assertTrue(names.add(g.name()), "names are unique: " + g.name()));
        assertEquals("zh", RelatedLanguages.primarySubtag("ZH-Hant"));
    }
}
