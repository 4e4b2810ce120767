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
        // Pattern of the rewrite pass AttentionFusion (train.trace.passes): these five calls,
        // forward and backward.
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
        return sd.reshape(keyMask(keyIsReal), -1, 1, 1, keyLength);              // (B, 1, 1, Tk)
    }

    /** Additive key mask (B, Tk) from a key-validity matrix (B, Tk): 0 for a real key, {@link #MASKED} for padding. */
    public static SDVariable keyMask(SDVariable keyIsReal) {
        return keyIsReal.rsub(1.0).mul(MASKED);                                   // (B, Tk)
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
     * @return output (B·Tq, d) and weights (B, H, Tq, Tk)
     */
    public static Result multiHead(SameDiff sd, String name, SDVariable queries, SDVariable keysValues,
                                   int queryLength, int keyLength, int d, int heads, MultiHeadWeights w,
                                   SDVariable mask, boolean scale) {
        int hs = d / heads;
        SDVariable q = splitHeads(sd, linear(sd, queries, w.wq(), w.bq()), queryLength, heads, hs);  // (B, H, Tq, hs)
        SDVariable k = splitHeads(sd, linear(sd, keysValues, w.wk(), w.bk()), keyLength, heads, hs);  // (B, H, Tk, hs)
        SDVariable v = splitHeads(sd, linear(sd, keysValues, w.wv(), w.bv()), keyLength, heads, hs);  // (B, H, Tk, hs)
        Result attended = scaledDotProduct(sd, name, q, k, v, mask, scale, hs);
        // Pattern of the rewrite pass HeadLayouts (train.trace.passes): the permute and reshape that
        // join the heads (splitHeads splits them).
        SDVariable concatenated = sd.reshape(attended.output().permute(0, 2, 1, 3), -1, d);       // (B·Tq, d)
        return new Result(linear(sd, concatenated, w.wo(), w.bo()), attended.weights());          // (B·Tq, d)
    }

    /**
     * (N, d_in) · (d_in, d_out) + bias → (N, d_out); bias may be null. The bias goes through
     * libnd4j's bias_add, whose backward pass is a column sum: 0.5 ms for 16384×64 here, against
     * 2 ms for the ones · bias outer product used before and 15 ms for a broadcast multiply's.
     */
    // Pattern of the rewrite pass GradientCopyElision (train.trace.passes): biasadd_bp's input gradient is a copy of dZ.
    static SDVariable linear(SameDiff sd, SDVariable x, SDVariable weight, SDVariable bias) {
        SDVariable y = sd.mmul(x, weight);                                                  // (N, d_out)
        return bias == null ? y : sd.nn.biasAdd(y, bias, true);                            // (N, d_out)
    }

    /** ones (N, 1) · v (1, w) → (N, w): v repeated on every row, as a matmul. */
    static SDVariable expandRows(SameDiff sd, SDVariable ones, SDVariable v) {
        return sd.mmul(ones, sd.reshape(v, 1, -1));
    }

    /**
     * The key-padding mask of every head and query: (B, Tk) → (B, H, Tq, Tk), where
     * out[b, h, i, j] = mask[b, j]. Written as a matmul with a constant 0/1 selection matrix
     * (Tk, H·Tq·Tk), which copies each value exactly; libnd4j's tile took 17 ms for
     * batch 1024 where this takes under 1 ms.
     */
    public static SDVariable expandKeyMask(SameDiff sd, SDVariable keyMask, int heads, int queryLength, int keyLength) {
        float[][] selection = new float[keyLength][heads * queryLength * keyLength];
        for (int j = 0; j < keyLength; j++) {
            for (int row = 0; row < heads * queryLength; row++) {
                selection[j][row * keyLength + j] = 1f;
            }
        }
        SDVariable select = sd.constant(Nd4j.createFromArray(selection).castTo(keyMask.dataType()));  // (Tk, H·Tq·Tk)
        return sd.reshape(sd.mmul(keyMask, select), -1, heads, queryLength, keyLength);                // (B, H, Tq, Tk)
    }

    /** (B·T, H·hs) → (B, H, T, hs). */
    // Pattern of the rewrite pass HeadLayouts (train.trace.passes): a reshape and a permute (0, 2, 1, 3), both copies.
    static SDVariable splitHeads(SameDiff sd, SDVariable x, int length, int heads, int headSize) {
        return sd.reshape(x, -1, length, heads, headSize).permute(0, 2, 1, 3);
    }
}
