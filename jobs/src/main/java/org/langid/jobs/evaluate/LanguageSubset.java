package org.langid.jobs.evaluate;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.langid.serving.TextDetector;

/**
 * The languages an evaluation scores ({@code langid evaluate --languages}): all of the model's,
 * or a subset, as a deployment restricted to the languages it expects
 * ({@link TextDetector#restrictedTo}). Restricted, only items labelled with one of the subset's
 * languages are scored, and every detector answers from the subset: the model and fastText from
 * the subset's classes plus the model's {@value TextDetector#UNDETERMINED} class if it has one
 * (it stays in every subset, as in {@link TextDetector#restrictedTo}), Lingua from those of the
 * subset it knows.
 *
 * <p>Candidates answer with indices into {@link #languages()}; {@code languages().size()} is
 * a declined answer, and so is the model's und class when it is not one of the languages
 * evaluated.
 *
 * @param model      the model's classes, in its output order
 * @param languages  the languages evaluated, in the model's order
 * @param restricted whether {@code --languages} chose them (else they are all of the model's)
 */
public record LanguageSubset(List<String> model, List<String> languages, boolean restricted) {

    public LanguageSubset {
        model = List.copyOf(model);
        languages = List.copyOf(languages);
    }

    /** Every language of the model: no restriction. */
    public static LanguageSubset all(List<String> model) {
        return new LanguageSubset(model, model, false);
    }

    /**
     * The model's languages named in {@code requested} (in the model's order, each once).
     *
     * @throws IllegalArgumentException naming a code the model does not know, or when fewer than
     *                                  two languages (besides und) remain to choose between
     */
    public static LanguageSubset of(List<String> model, Collection<String> requested) {
        Set<String> chosen = new LinkedHashSet<>();
        for (String code : requested) {
            String language = code.trim();
            if (!model.contains(language)) {
                throw new IllegalArgumentException("--languages: '" + code + "' is not one of the model's languages ("
                        + String.join(", ", model) + ")");
            }
            chosen.add(language);
        }
        long choices = chosen.stream().filter(l -> !l.equals(TextDetector.UNDETERMINED)).count();
        if (choices < 2) {
            throw new IllegalArgumentException("--languages needs at least two of the model's languages to choose between, got "
                    + (chosen.isEmpty() ? "none" : String.join(",", chosen)));
        }
        List<String> ordered = new ArrayList<>();
        for (String language : model) {
            if (chosen.contains(language)) {
                ordered.add(language);
            }
        }
        return new LanguageSubset(model, ordered, true);
    }

    /** Whether the model has an und class (text in none of its languages). */
    public boolean modelHasUnd() {
        return model.contains(TextDetector.UNDETERMINED);
    }

    /** The model's classes a restricted model (or fastText) answers from: the languages evaluated, and the model's und class. */
    public boolean[] answering() {
        boolean[] answering = new boolean[model.size()];
        for (int c = 0; c < answering.length; c++) {
            answering[c] = !restricted || languages.contains(model.get(c)) || model.get(c).equals(TextDetector.UNDETERMINED);
        }
        return answering;
    }

    /** The languages a restricted detector answers from, as {@link TextDetector#restrictedTo} takes them. */
    public List<String> answeringLanguages() {
        boolean[] answering = answering();
        List<String> codes = new ArrayList<>();
        for (int c = 0; c < answering.length; c++) {
            if (answering[c]) {
                codes.add(model.get(c));
            }
        }
        return codes;
    }

    /** For each of the model's classes, its index in {@link #languages()}, or the declined index {@code languages().size()}. */
    public int[] indexOfClass() {
        int[] index = new int[model.size()];
        for (int c = 0; c < index.length; c++) {
            int i = languages.indexOf(model.get(c));
            index[c] = i < 0 ? languages.size() : i;
        }
        return index;
    }

    /**
     * Whether a detector answering from {@link #answering()} may give an answer outside the
     * languages evaluated: the model's und class, when the subset leaves it out.
     */
    public boolean answersUndOutside() {
        return restricted && modelHasUnd() && !languages.contains(TextDetector.UNDETERMINED);
    }

    /** "restricted to en, de" for a description, or "" when unrestricted. */
    public String describe() {
        return restricted ? "restricted to " + String.join(", ", languages)
                + (answersUndOutside() ? " (and the model's " + TextDetector.UNDETERMINED + " class)" : "") : "";
    }
}
