package org.langid.model.graph;

/** Plain-Java reference computations (explicit loops), as seed 000 checks attention by hand. */
final class Reference {

    private Reference() {
    }

    /** Attention weights of one head: w[i][j] = softmax_j(q_i·k_j / √dk + mask[i][j]). */
    static double[][] weights(double[][] q, double[][] k, double[][] mask, boolean scale) {
        int tq = q.length;
        int tk = k.length;
        double[][] w = new double[tq][tk];
        for (int i = 0; i < tq; i++) {
            double max = Double.NEGATIVE_INFINITY;
            for (int j = 0; j < tk; j++) {
                double s = 0;
                for (int c = 0; c < q[i].length; c++) {
                    s += q[i][c] * k[j][c];
                }
                if (scale) {
                    s /= Math.sqrt(q[i].length);
                }
                w[i][j] = s + (mask == null ? 0 : mask[i][j]);
                max = Math.max(max, w[i][j]);
            }
            double sum = 0;
            for (int j = 0; j < tk; j++) {
                w[i][j] = Math.exp(w[i][j] - max);
                sum += w[i][j];
            }
            for (int j = 0; j < tk; j++) {
                w[i][j] /= sum;
            }
        }
        return w;
    }

    /** out[i] = Σ_j w[i][j] v[j]. */
    static double[][] attend(double[][] w, double[][] v) {
        double[][] out = new double[w.length][v[0].length];
        for (int i = 0; i < w.length; i++) {
            for (int j = 0; j < v.length; j++) {
                for (int c = 0; c < v[0].length; c++) {
                    out[i][c] += w[i][j] * v[j][c];
                }
            }
        }
        return out;
    }

    /** x·W + b. */
    static double[][] linear(double[][] x, double[][] weight, double[] bias) {
        double[][] y = new double[x.length][weight[0].length];
        for (int i = 0; i < x.length; i++) {
            for (int o = 0; o < weight[0].length; o++) {
                double s = bias == null ? 0 : bias[o];
                for (int c = 0; c < weight.length; c++) {
                    s += x[i][c] * weight[c][o];
                }
                y[i][o] = s;
            }
        }
        return y;
    }

    /** Columns [from, to) of a matrix. */
    static double[][] columns(double[][] m, int from, int to) {
        double[][] out = new double[m.length][to - from];
        for (int i = 0; i < m.length; i++) {
            System.arraycopy(m[i], from, out[i], 0, to - from);
        }
        return out;
    }

    static double[][] random(java.util.Random random, int rows, int cols) {
        double[][] m = new double[rows][cols];
        for (double[] row : m) {
            for (int c = 0; c < cols; c++) {
                row[c] = random.nextGaussian();
            }
        }
        return m;
    }
}
