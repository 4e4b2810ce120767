package org.langid.jobs.retrain;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Publish a candidate only if it is not worse than the model in service by more than
 * {@code margin} (accuracy, as a fraction): overall, and for every language both models know.
 */
record PromotionGate(double margin) {

    PromotionGate {
        if (margin < 0 || margin >= 1) {
            throw new IllegalArgumentException("the promotion margin must be in [0, 1), got " + margin);
        }
    }

    /** The verdict and, when refused, every reason. */
    record Verdict(boolean promote, List<String> reasons) {
    }

    Verdict judge(double candidateOverall, Map<String, Double> candidateByLanguage,
                  double currentOverall, Map<String, Double> currentByLanguage) {
        List<String> reasons = new ArrayList<>();
        if (candidateOverall < currentOverall - margin) {
            reasons.add(String.format(Locale.ROOT, "overall accuracy %.4f is below the current model's %.4f by more than the margin %.4f",
                    candidateOverall, currentOverall, margin));
        }
        currentByLanguage.forEach((language, current) -> {
            Double candidate = candidateByLanguage.get(language);
            if (candidate != null && candidate < current - margin) {
                reasons.add(String.format(Locale.ROOT, "%s accuracy %.4f is below the current model's %.4f by more than the margin %.4f",
                        language, candidate, current, margin));
            }
        });
        return new Verdict(reasons.isEmpty(), reasons);
    }
}
