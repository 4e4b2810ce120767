package org.langid.model.train;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.langid.model.graph.AlignedFloats;
import org.langid.model.graph.HostMemory;
import org.langid.model.graph.Nd4jFormat;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Everything a training step depends on, as plain values: the flat parameter vector, Adam's
 * state (first and second moments, one flat vector of twice the parameters), the number of
 * steps taken and the epoch. The shuffling order is a function of (seed, epoch) and dropout is
 * seeded by (seed, step), so this state plus the config determines the next step exactly.
 * The distributed trainer averages {@link #parameters} and {@link #updaterState} across workers.
 * With {@code train.ema_span}, {@link #average} is the run's moving average of the parameters
 * ({@link WeightAverage}), kept in checkpoints so that a resumed run ends where an undisturbed one does.
 */
public final class TrainingState {

    /** 1: no average; 2: a flag and, when set, the average after the Adam state. */
    private static final int FORMAT = 2;

    /** Replaced only by {@link #placeParameters}, with the same values. */
    public INDArray parameters;
    public final INDArray updaterState;
    public long step;
    public int epoch;
    /** The moving average of {@link #parameters} ({@link WeightAverage}); null when the run keeps none. */
    public INDArray average;

    public TrainingState(INDArray parameters, INDArray updaterState, long step, int epoch) {
        if (updaterState.length() != 2 * parameters.length()) {
            throw new IllegalArgumentException("Adam state must hold 2 values per parameter: " + updaterState.length()
                    + " for " + parameters.length() + " parameters");
        }
        this.parameters = parameters;
        this.updaterState = updaterState;
        this.step = step;
        this.epoch = epoch;
    }

    /**
     * Moves {@link #parameters} to memory where element {@code element} starts a cache line,
     * unless it already does; the values stay the same. The n-gram table's rows of 16 floats are
     * then one line each, not two: a step reads and writes ~60,000 of them at random (local
     * trainer +3.4% at batch 1024, bench/EXPERIMENTS.md, "Training speed: the step"). CPU backend only: on CUDA the state stays
     * where ND4J put it.
     */
    public void placeParameters(long element) {
        if (!HostMemory.cpuBackend() || parameters.dataType() != DataType.FLOAT || parameters.isView()
                || AlignedFloats.startsALine(parameters, element)) {
            return;
        }
        INDArray placed = AlignedFloats.vector(parameters.length(), element);
        placed.assign(parameters);
        parameters = placed;
    }

    /** A fresh state: given parameters, zero moments, step 0. */
    public static TrainingState start(INDArray parameters) {
        return new TrainingState(parameters, Nd4j.zeros(parameters.dataType(), 2 * parameters.length()), 0, 0);
    }

    /** A deep copy. */
    public TrainingState copy() {
        TrainingState copy = new TrainingState(parameters.dup(), updaterState.dup(), step, epoch);
        copy.average = average == null ? null : average.dup();
        return copy;
    }

    public void write(OutputStream out) throws IOException {
        DataOutputStream data = new DataOutputStream(out);
        data.writeInt(FORMAT);
        data.writeLong(step);
        data.writeInt(epoch);
        data.flush();
        Nd4jFormat.write(parameters, data);
        Nd4jFormat.write(updaterState, data);
        data.writeBoolean(average != null);
        if (average != null) {
            Nd4jFormat.write(average, data);
        }
        data.flush();
    }

    public static TrainingState read(InputStream in) throws IOException {
        DataInputStream data = new DataInputStream(in);
        int format = data.readInt();
        if (format != 1 && format != FORMAT) {
            throw new IOException("training state format " + format + " is not supported (this version reads 1 and " + FORMAT + ")");
        }
        long step = data.readLong();
        int epoch = data.readInt();
        INDArray parameters = Nd4jFormat.read(data);
        INDArray updater = Nd4jFormat.read(data);
        TrainingState state = new TrainingState(parameters, updater, step, epoch);
        if (format >= 2 && data.readBoolean()) {
            state.average = Nd4jFormat.read(data);
        }
        return state;
    }
}
