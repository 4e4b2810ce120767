package org.langid.model.train;

import java.io.Serializable;
import org.langid.model.data.Mix64;
import org.langid.text.Alphabet;

/**
 * Shows a share of the training windows in all capitals or all lower case, half each. Text in
 * the wild has headings and shouted lines in capitals and chat in lower case; the LibreOffice
 * corpus has almost neither, and a model trained on it alone reads "ALLMÄN FÖRKLARING" as
 * Dutch (UDHR, README: second genre). Labels are unchanged; symbols without case stay as they are.
 *
 * <p>Which windows change is a function of (seed, step, window index), so a step that Spark
 * runs again sees the same minibatch, and a run stays reproducible from its seed.
 *
 * @param share    fraction of windows changed, in [0, 1]; 0 turns the augmentation off
 * @param seed     the run's seed
 * @param alphabet the model's: what a letter's other case is
 */
public record CaseAugmentation(double share, long seed, Alphabet alphabet) implements Serializable {

    /** No change. */
    public static final CaseAugmentation NONE = new CaseAugmentation(0, 0, Alphabet.SEED);

    public CaseAugmentation {
        if (!(share >= 0 && share <= 1)) {
            throw new IllegalArgumentException("case augmentation share must be in [0, 1], got " + share);
        }
    }

    /**
     * Changes, in place, the rows of a minibatch that the draw selects.
     *
     * @param symbols      (B, T) row-major symbol indices
     * @param windowLength T
     * @param windowIds    (B) each row's index in its dataset: what the draw is keyed on
     * @param step         the training step this minibatch is for
     */
    public void apply(int[] symbols, int windowLength, int[] windowIds, long step) {
        if (share == 0) {
            return;
        }
        for (int row = 0; row < windowIds.length; row++) {
            double draw = uniform(seed, step, windowIds[row]);
            if (draw >= share) {
                continue;
            }
            boolean upper = draw < share / 2;
            for (int j = row * windowLength, end = j + windowLength; j < end; j++) {
                symbols[j] = upper ? alphabet.toUpper(symbols[j]) : alphabet.toLower(symbols[j]);
            }
        }
    }

    /** A uniform double in [0, 1) from a hash of the three keys ({@link Mix64}). */
    static double uniform(long seed, long step, long windowId) {
        return Mix64.unit(seed * 0x9E3779B97F4A7C15L + step * 0xC2B2AE3D27D4EB4FL + windowId * 0x165667B19E3779F9L);
    }
}
