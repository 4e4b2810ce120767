package org.langid.model.train;

/**
 * Stops training after {@code patience} epochs without a better validation accuracy (better by
 * more than {@code minimumImprovement}). Patience 0 never stops.
 */
public final class EarlyStopping {

    private final int patience;
    private final double minimumImprovement;
    private double best = Double.NEGATIVE_INFINITY;
    private int epochsWithoutImprovement;

    public EarlyStopping(int patience, double minimumImprovement) {
        this.patience = patience;
        this.minimumImprovement = minimumImprovement;
    }

    /** Records an epoch's validation accuracy; returns whether training should stop now. */
    public boolean shouldStop(double validationAccuracy) {
        if (validationAccuracy > best + minimumImprovement) {
            best = validationAccuracy;
            epochsWithoutImprovement = 0;
            return false;
        }
        epochsWithoutImprovement++;
        return patience > 0 && epochsWithoutImprovement >= patience;
    }

    public double best() {
        return best;
    }
}
