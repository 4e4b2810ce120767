package org.langid.model.graph;

import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Attention as SameDiff graph pieces, written from matmul and softmax on (B, H, T, hs) tensors
 * (faster here than SameDiff's built-in attention op, and features-last like the rest of the
 * graph). The three variants of seed 004: self-attention (queries, keys and values from one
 * sequence), cross-attention (queries from one sequence, keys/values from another, of another
 * length) and causal self-attention (position i sees only j ≤ i).
 */
public final class Attention {

    /** Added to the scores of masked positions: exp underflows to exactly 0 in float32. */
    static final double MASKED = -1e9;

    private Attention() {
    }

    /** The output and the attention weights of one attention call. */
    public record Result(SDVariable output, SDVariable weights) {
    }

    /**
     * softmax(Q·Kᵀ / √d_k + mask)·V.
     *
     * @param q     (B, H, Tq, dk)
     * @param k     (B, H, Tk, dk)
     * @param v     (B, H, Tk, dv)
     * @param mask  additive mask broadcastable to (B, H, Tq, Tk) (0 where allowed,
     *              {@link #MASKED} where not), or null
     * @param scale whether to divide the scores by √dk (the seed tutorial does not)
     * @return output (B, H, Tq, dv) and weights (B, H, Tq, Tk)
     */
    public static Result scaledDotProduct(SameDiff sd, String name, SDVariable q, SDVariable k, SDVariable v,
                                          SDVariable mask, boolean scale, int dk) {
        SDVariable scores = sd.mmul(q, k, false, true, false);                    // (B, H, Tq, Tk)
        if (scale) {
            scores = scores.mul(1.0 / Math.sqrt(dk));                            // (B, H, Tq, Tk)
        }
        if (mask != null) {
            scores = scores.add(mask);                                           // (B, H, Tq, Tk)
        }
        SDVariable weights = sd.nn.softmax(name + "/weights", scores, -1);     // (B, H, Tq, Tk), rows sum to 1
        SDVariable output = sd.mmul(name + "/output", weights, v);             // (B, H, Tq, dv)
        return new Result(output, weights);
    }

    /** Causal mask (Tq, Tk): position i may attend to key j only if j ≤ i. */
    public static SDVariable causalMask(SameDiff sd, String name, int queryLength, int keyLength, DataType dataType) {
        float[][] mask = new float[queryLength][keyLength];
        for (int i = 0; i < queryLength; i++) {
            for (int j = i + 1; j < keyLength; j++) {
                mask[i][j] = (float) MASKED;
            }
        }
        return sd.constant(name, Nd4j.createFromArray(mask).castTo(dataType));   // (Tq, Tk)
    }

    /**
     * Padding mask from a key-validity matrix.
     *
     * @param keyIsReal (B, Tk): 1 for a real key, 0 for padding
     * @return (B, 1, 1, Tk) additive mask
     */
    public static SDVariable paddingMask(SameDiff sd, SDVariable keyIsReal, int keyLength) {
        SDVariable masked = keyIsReal.rsub(1.0).mul(MASKED);                    // (B, Tk)
        return sd.reshape(masked, -1, 1, 1, keyLength);                           // (B, 1, 1, Tk)
    }

    /** Weights of one multi-head attention: H heads of size d/H, Q/K/V projections, output projection. */
    public record MultiHeadWeights(SDVariable wq, SDVariable bq, SDVariable wk, SDVariable bk,
                                   SDVariable wv, SDVariable bv, SDVariable wo, SDVariable bo) {
    }

    /**
     * Multi-head attention: project, split into heads, attend per head, concatenate, project.
     * Self-attention when {@code queries == keysValues}; cross-attention otherwise.
     *
     * @param queries    (B·Tq, d), rows grouped by sequence
     * @param keysValues (B·Tk, d)
     * @param mask       additive, of shape (B, H, Tq, Tk) or broadcastable to it, or null
     * @param queryOnes  (B·Tq, 1) ones for expanding biases (see {@link #linear}), or null
     * @param keyOnes    (B·Tk, 1) ones, or null
     * @return output (B·Tq, d) and weights (B, H, Tq, Tk)
     */
    public static Result multiHead(SameDiff sd, String name, SDVariable queries, SDVariable keysValues,
                                   int queryLength, int keyLength, int d, int heads, MultiHeadWeights w,
                                   SDVariable mask, boolean scale, SDVariable queryOnes, SDVariable keyOnes) {
        int hs = d / heads;
        SDVariable q = splitHeads(sd, linear(sd, queries, w.wq(), w.bq(), queryOnes), queryLength, heads, hs);  // (B, H, Tq, hs)
        SDVariable k = splitHeads(sd, linear(sd, keysValues, w.wk(), w.bk(), keyOnes), keyLength, heads, hs);   // (B, H, Tk, hs)
        SDVariable v = splitHeads(sd, linear(sd, keysValues, w.wv(), w.bv(), keyOnes), keyLength, heads, hs);   // (B, H, Tk, hs)
        Result attended = scaledDotProduct(sd, name, q, k, v, mask, scale, hs);
        SDVariable concatenated = sd.reshape(attended.output().permute(0, 2, 1, 3), -1, d);                  // (B·Tq, d)
        return new Result(linear(sd, concatenated, w.wo(), w.bo(), queryOnes), attended.weights());          // (B·Tq, d)
    }

    /**
     * (N, d_in) · (d_in, d_out) + bias → (N, d_out); bias may be null. With {@code ones} (N, 1)
     * the bias is first expanded to (N, d_out) as the outer product ones · bias, so the add and
     * its gradient are same-shape operations: libnd4j's backward pass of a broadcast add or
     * multiply was measured 20 times slower than same-shape (24 ms against 1.2 ms for 16384×64).
     */
    static SDVariable linear(SameDiff sd, SDVariable x, SDVariable weight, SDVariable bias, SDVariable ones) {
        SDVariable y = sd.mmul(x, weight);                                                  // (N, d_out)
        if (bias == null) {
            return y;
        }
        return ones == null ? y.add(bias) : y.add(expandRows(sd, ones, bias));            // (N, d_out)
    }

    /** ones (N, 1) · v (1, w) → (N, w): v repeated on every row, as a matmul. */
    static SDVariable expandRows(SameDiff sd, SDVariable ones, SDVariable v) {
        return sd.mmul(ones, sd.reshape(v, 1, -1));
    }

    /** (B·T, H·hs) → (B, H, T, hs). */
    static SDVariable splitHeads(SameDiff sd, SDVariable x, int length, int heads, int headSize) {
        return sd.reshape(x, -1, length, heads, headSize).permute(0, 2, 1, 3);
    }
}
