package org.langid.jobs.train;

import java.io.Serializable;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.langid.model.graph.BulkArrays;
import org.langid.model.graph.LanguageIdGraph;
import org.langid.model.graph.ModelConfig;
import org.langid.model.graph.ParameterLayout;
import org.langid.model.graph.TableRows;
import org.langid.model.train.NativeThreads;
import org.langid.model.train.TrainConfig;
import org.langid.model.train.TrainingState;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.indexing.NDArrayIndex;

/**
 * Parameter averaging that moves only what changed, for models whose n-gram table rows change
 * only where a minibatch selected them ({@code train.optimizer.ngram_updates: lazy or sgd}). A table of
 * a million rows is 256 MB of parameters and twice that of Adam moments: broadcast and collected
 * whole every round, it would cost more than the steps.
 *
 * <p>Each executor keeps a replica of the training state per worker between rounds. The driver
 * sends the full state once; after that a round's input is the change since the round before:
 * the dense part (every parameter before the table, which the layout puts last, with both
 * moments) and the table rows some worker changed. A worker returns its dense part and the rows
 * it changed. A row no worker changed is the same everywhere, so the average is exact: with W
 * workers, a row becomes (the sum of the changed copies + (W − changes) × its old value) / W —
 * for two workers, bit for bit the mean that exchanging everything computes. A worker that changed
 * most of the table sends all of it instead ({@link Table}), which is cheaper then and averages to
 * the same bits. A lone worker's state is the average, so it is sent no change at all. A worker whose
 * replica is missing or not at the previous round (a new executor, a retried task) answers
 * "stale" without taking a step, and the driver sends it the full state.
 */
final class ResidentRound {

    private ResidentRound() {
    }

    /**
     * Where the table sits in the flat vectors, and whether its rows carry Adam moments: with
     * {@code ngram_updates: sgd} the table's moments are never read or written, so rows travel
     * without them (a third of the bytes).
     */
    record Split(long tableOffset, long size, int buckets, int width, boolean tableMoments) implements Serializable {

        static Split of(ModelConfig model, TrainConfig train) {
            ParameterLayout layout = ParameterLayout.of(model);
            ParameterLayout.Param last = layout.params().get(layout.params().size() - 1);
            if (!LanguageIdGraph.NGRAM_TABLE.equals(last.name())) {
                throw new IllegalStateException("the n-gram table is not last in the parameter layout");
            }
            return new Split(last.offset(), layout.size(), Math.toIntExact(last.shape()[0]), Math.toIntExact(last.shape()[1]),
                    !"sgd".equals(train.optimizer.ngramUpdates));
        }

        /** The dense part of {@code state}: its parameters before the table and their two moments. */
        Dense dense(TrainingState state) {
            return new Dense(copy(state.parameters, 0, tableOffset), copy(state.updaterState, 0, tableOffset),
                    copy(state.updaterState, size, size + tableOffset));
        }

        /** Rows {@code rows} (sorted) of the table's parameters and moments in {@code state}. */
        Rows rows(TrainingState state, int[] rows, int[] changes) {
            INDArray[] tables = tables(state);
            PackedFloats[] values = {PackedFloats.EMPTY, PackedFloats.EMPTY, PackedFloats.EMPTY};
            for (int k = 0; k < tables.length; k++) {
                values[k] = gather(tables[k], rows);
            }
            return new Rows(rows, values[0], values[1], values[2], changes);
        }

        /** The whole table of {@code state} (parameters, and moments if they travel), rows in {@code changed} counted as changed once. */
        Table whole(TrainingState state, BitSet changed) {
            int[] changes = new int[buckets];
            changed.stream().forEach(row -> changes[row] = 1);
            INDArray[] tables = tables(state);
            float[][] values = new float[3][];
            for (int k = 0; k < 3; k++) {
                values[k] = new float[k < tables.length ? buckets * width : 0];
                if (k < tables.length) {
                    TableRows.read(tables[k], 0, buckets, values[k], 0);
                }
            }
            return new Table(new PackedFloats(values[0]), new PackedFloats(values[1]), new PackedFloats(values[2]), changes);
        }

        /** Overwrites the dense part and the changed rows (or the whole table) of {@code state}. */
        void apply(TrainingState state, Dense dense, TableChange change) {
            applyDense(state, dense);
            INDArray[] tables = tables(state);
            if (change instanceof Rows rows) {
                float[][] values = {rows.parameters().values(), rows.first().values(), rows.second().values()};
                for (int k = 0; k < tables.length; k++) {
                    TableRows.assign(tables[k], rows.rows(), values[k]);
                }
            } else {
                Table table = (Table) change;
                float[][] values = {table.parameters().values(), table.first().values(), table.second().values()};
                for (int k = 0; k < tables.length; k++) {
                    TableRows.write(tables[k], 0, buckets, values[k], 0);
                }
            }
        }

        private void applyDense(TrainingState state, Dense dense) {
            state.parameters.get(NDArrayIndex.interval(0, tableOffset)).assign(BulkArrays.floats(dense.parameters().values()));
            state.updaterState.get(NDArrayIndex.interval(0, tableOffset)).assign(BulkArrays.floats(dense.first().values()));
            state.updaterState.get(NDArrayIndex.interval(size, size + tableOffset)).assign(BulkArrays.floats(dense.second().values()));
        }

        /**
         * {@code sum} of {@code workers} averaged into {@code state}'s table and into {@code sum} itself, row
         * for row as {@link ResidentRound#average} averages {@link Rows}; rows no worker changed take the
         * old value, so that {@code sum} is then the whole new table. A block of old rows at a time.
         */
        void averageWhole(TrainingState state, Table sum, int workers) {
            INDArray[] tables = tables(state);
            float[][] summed = {sum.parameters().values(), sum.first().values(), sum.second().values()};
            int[] changes = sum.changes();
            int block = Math.min(buckets, 8192);
            float[] old = new float[block * width];
            for (int k = 0; k < tables.length; k++) {
                float[] values = summed[k];
                for (int from = 0; from < buckets; from += block) {
                    int count = Math.min(block, buckets - from);
                    TableRows.read(tables[k], from, count, old, 0);
                    for (int r = from; r < from + count; r++) {
                        int unchanged = workers - changes[r];
                        if (unchanged == workers) {
                            System.arraycopy(old, (r - from) * width, values, r * width, width);
                        } else {
                            averageRow(values, r * width, old, (r - from) * width, width, unchanged, workers);
                        }
                    }
                    TableRows.write(tables[k], from, count, values, from * width);
                }
            }
        }

        /** The table's parameters, and its first and second moments if they travel, as (buckets, width) views into {@code state}. */
        private INDArray[] tables(TrainingState state) {
            return tableMoments
                    ? new INDArray[] {table(state.parameters, 0), table(state.updaterState, 0), table(state.updaterState, size)}
                    : new INDArray[] {table(state.parameters, 0)};
        }

        /** The table's (buckets, width) view in a flat vector whose copy of the parameters starts at {@code start}. */
        private INDArray table(INDArray flat, long start) {
            return flat.get(NDArrayIndex.interval(start + tableOffset, start + size)).reshape(buckets, width);
        }

        private static PackedFloats gather(INDArray table, int[] rows) {
            return new PackedFloats(TableRows.gatherFloats(table, rows));   // (u, width), flat
        }

        private static PackedFloats copy(INDArray flat, long from, long to) {
            return PackedFloats.of(flat.get(NDArrayIndex.interval(from, to)));
        }
    }

    /** Every parameter before the table, and its first and second moments. */
    record Dense(PackedFloats parameters, PackedFloats first, PackedFloats second) implements Serializable {

        Dense plus(Dense other) {
            return new Dense(PackedFloats.sum(parameters, other.parameters), PackedFloats.sum(first, other.first),
                    PackedFloats.sum(second, other.second));
        }
    }

    /** What a worker sends of the table, and what the driver sends back: the rows it changed, or all of it. */
    sealed interface TableChange extends Serializable permits Rows, Table {

        /** Serialized size, about. */
        long bytes();

        /**
         * a + b (a the earlier workers'), row for row as {@link Rows#plus} adds: a whole table in the
         * sum is added into in place, and since a float sum is the same either way round, b + a serves.
         */
        static TableChange add(TableChange a, TableChange b, int width) {
            if (a instanceof Rows rowsA && b instanceof Rows rowsB) {
                return rowsA.plus(rowsB, width);
            }
            if (a instanceof Table tableA) {
                return b instanceof Table tableB ? tableA.plus(tableB, width) : tableA.plus((Rows) b, width);
            }
            return ((Table) b).plus((Rows) a, width);
        }
    }

    /**
     * Table rows, ascending, each with its parameters and moments ((rows, width) each, flat; the
     * moments empty when the table has none to move) and the number of workers that changed it
     * (summed copies carry their sum).
     */
    record Rows(int[] rows, PackedFloats parameters, PackedFloats first, PackedFloats second, int[] changes) implements TableChange {

        static final Rows NONE = new Rows(new int[0], PackedFloats.EMPTY, PackedFloats.EMPTY, PackedFloats.EMPTY, new int[0]);

        /** The union of two row sets, values of rows in both added. */
        Rows plus(Rows other, int width) {
            int[] a = rows;
            int[] b = other.rows;
            // Sized to the union, not to both lists: at a million-row table that is ~1.7M rows a
            // round, and a copy down to the union was another pass over every array.
            int union = unionSize(a, b);
            int[] merged = new int[union];
            int[] changed = new int[union];
            int arrays = hasMoments() && other.hasMoments() ? 3 : 1;
            float[][] values = new float[3][];
            for (int k = 0; k < 3; k++) {
                values[k] = new float[k < arrays ? union * width : 0];
            }
            float[][] left = {parameters.values(), first.values(), second.values()};
            float[][] right = {other.parameters.values(), other.first.values(), other.second.values()};
            int i = 0;
            int j = 0;
            for (int n = 0; n < union; n++) {
                boolean fromA = j == b.length || (i < a.length && a[i] <= b[j]);
                boolean fromB = i == a.length || (j < b.length && b[j] <= a[i]);
                merged[n] = fromA ? a[i] : b[j];
                for (int k = 0; k < arrays; k++) {
                    if (fromA && fromB) {
                        addRow(values[k], n * width, left[k], i * width, right[k], j * width, width);
                    } else if (fromA) {
                        System.arraycopy(left[k], i * width, values[k], n * width, width);
                    } else {
                        System.arraycopy(right[k], j * width, values[k], n * width, width);
                    }
                }
                changed[n] = (fromA ? changes[i] : 0) + (fromB ? other.changes[j] : 0);
                if (fromA) {
                    i++;
                }
                if (fromB) {
                    j++;
                }
            }
            return new Rows(merged, new PackedFloats(values[0]), new PackedFloats(values[1]), new PackedFloats(values[2]), changed);
        }

        /** How many distinct rows two ascending row lists hold together. */
        private static int unionSize(int[] a, int[] b) {
            int i = 0;
            int j = 0;
            int shared = 0;
            while (i < a.length && j < b.length) {
                if (a[i] < b[j]) {
                    i++;
                } else if (a[i] > b[j]) {
                    j++;
                } else {
                    shared++;
                    i++;
                    j++;
                }
            }
            return a.length + b.length - shared;
        }

        /** False when only the parameters travel (a table trained by SGD); rows with nothing are either. */
        boolean hasMoments() {
            return first.values().length > 0 || rows.length == 0;
        }

        @Override
        public long bytes() {
            return 8L * rows.length + PackedFloats.bytes(parameters) + PackedFloats.bytes(first) + PackedFloats.bytes(second);
        }
    }

    /**
     * The whole table (parameters, and moments when they travel; (buckets, width) each, flat) and
     * how many workers changed each row. A worker that changed most rows sends this instead of
     * {@link Rows}: straight copies and sums then cost less than gathering, merging and scattering
     * sorted rows (bench/EXPERIMENTS.md, "Spark rounds"). A row no worker changed holds a copy of its old value. Sums
     * and averages are {@link Rows}' row for row, so a round ends bit for bit alike whichever form
     * each worker sent.
     */
    record Table(PackedFloats parameters, PackedFloats first, PackedFloats second, int[] changes) implements TableChange {

        /** this + other, into this table's arrays (a sum's own: each worker's result is added once). */
        Table plus(Table other, int width) {
            float[][] left = values();
            float[][] right = other.values();
            for (int r = 0; r < changes.length; r++) {
                if (other.changes[r] > 0) {
                    add(left, r, right, r, width);
                    changes[r] += other.changes[r];
                }
            }
            return this;
        }

        /** this + other, into this table's arrays. */
        Table plus(Rows other, int width) {
            float[][] left = values();
            float[][] right = {other.parameters().values(), other.first().values(), other.second().values()};
            int[] rows = other.rows();
            for (int i = 0; i < rows.length; i++) {
                add(left, rows[i], right, i, width);
                changes[rows[i]] += other.changes()[i];
            }
            return this;
        }

        /** Row {@code row} of {@code left} plus row {@code at} of {@code right}, or a copy of it where no worker had changed the row yet. */
        private void add(float[][] left, int row, float[][] right, int at, int width) {
            for (int k = 0; k < left.length && left[k].length > 0; k++) {
                if (changes[row] == 0) {
                    System.arraycopy(right[k], at * width, left[k], row * width, width);
                } else {
                    addRow(left[k], row * width, left[k], row * width, right[k], at * width, width);
                }
            }
        }

        private float[][] values() {
            return new float[][] {parameters.values(), first.values(), second.values()};
        }

        @Override
        public long bytes() {
            return 4L * changes.length + PackedFloats.bytes(parameters) + PackedFloats.bytes(first) + PackedFloats.bytes(second);
        }
    }

    /**
     * What the driver sends: the round's settings ({@code round}, whose parameters and Adam
     * state are the full state when this is a full round and null otherwise) and, otherwise, the
     * change from the previous round's start ({@code dense}, {@code table}). {@code version} counts
     * the rounds of this run; {@code onlyWorkers}, if not null, limits the round to those workers. A
     * worker that changed at least {@code wholeTableFrom} of the table's rows sends it whole.
     */
    record Input(long run, long version, AveragingRound.Input round, Dense dense, TableChange table, Set<Integer> onlyWorkers,
                 double wholeTableFrom) implements Serializable {

        /**
         * A round after one that a single worker took: its replica, at the end of that round, is
         * the averaged state, so no change travels ({@code dense} and {@code table} null).
         */
        static Input replicaIsCurrent(long run, long version, AveragingRound.Input round, double wholeTableFrom) {
            return new Input(run, version, round, null, null, null, wholeTableFrom);
        }

        boolean full() {
            return round.parameters() != null;
        }

        /** Serialized size, about: the full state, or the change's floats and row numbers. */
        long bytes() {
            long bytes = round.bytes();
            if (dense != null) {
                bytes += PackedFloats.bytes(dense.parameters()) + PackedFloats.bytes(dense.first()) + PackedFloats.bytes(dense.second());
            }
            if (table != null) {
                bytes += table.bytes();
            }
            return bytes;
        }
    }

    /** Workers' contributions, summed; {@code stale} lists the workers that could not take the round. */
    record Sum(Dense dense, TableChange table, double lossSum, long steps, long samples, int workers, int[] stale) implements Serializable {

        static final Sum NONE = new Sum(null, null, 0, 0, 0, 0, new int[0]);

        static Sum stale(int worker) {
            return new Sum(null, null, 0, 0, 0, 0, new int[] {worker});
        }

        static Sum add(Sum a, Sum b, int width) {
            int[] stale = Arrays.copyOf(a.stale, a.stale.length + b.stale.length);
            System.arraycopy(b.stale, 0, stale, a.stale.length, b.stale.length);
            Dense dense = a.workers == 0 ? b.dense : b.workers == 0 ? a.dense : a.dense.plus(b.dense);
            TableChange table = a.workers == 0 ? b.table : b.workers == 0 ? a.table : TableChange.add(a.table, b.table, width);
            return new Sum(dense, table, a.lossSum + b.lossSum, a.steps + b.steps, a.samples + b.samples, a.workers + b.workers, stale);
        }
    }

    /** A worker's state between rounds: at the end of round {@code version} of run {@code run}, unless {@code valid} is false. */
    private static final class Replica {
        final long run;
        final TrainingState state;
        long version;
        boolean valid;

        Replica(long run, long version, TrainingState state) {
            this.run = run;
            this.version = version;
            this.state = state;
        }
    }

    /** The replicas on this executor, by worker. */
    private static final ConcurrentHashMap<Integer, Replica> REPLICAS = new ConcurrentHashMap<>();

    /** Workers' results sent as a whole table, in this JVM so far (tests: which form a round took). */
    private static final java.util.concurrent.atomic.AtomicLong WHOLE_TABLES = new java.util.concurrent.atomic.AtomicLong();

    static long wholeTablesForTests() {
        return WHOLE_TABLES.get();
    }

    /** Tests only: which workers send their whole table, whatever they changed (null: by the round's share). */
    static volatile java.util.function.IntPredicate wholeTableForTests;

    /** Tests only: forget every replica (what a new executor starts with). */
    static void dropReplicasForTests() {
        REPLICAS.clear();
    }

    static Iterator<Sum> run(Iterator<WorkerShard> shards, Input input, ModelConfig model, TrainConfig train, Split split) {
        if (!shards.hasNext()) {
            return List.<Sum>of().iterator();
        }
        WorkerShard shard = shards.next();
        int worker = shard.worker();
        if (input.onlyWorkers() != null && !input.onlyWorkers().contains(worker)) {
            return List.<Sum>of().iterator();
        }
        AveragingRound.Input round = input.round();
        if (AveragingRound.beforeRoundForTests != null) {
            AveragingRound.beforeRoundForTests.accept(worker, round.step());
        }
        NativeThreads.limit(train.nativeThreads);
        GpuBinding.bindCurrentTask();
        Replica replica = REPLICAS.get(worker);
        if (input.full()) {
            replica = new Replica(input.run(), input.version(), round.state());
            REPLICAS.put(worker, replica);
        } else if (replica == null || replica.run != input.run() || !replica.valid || replica.version != input.version() - 1) {
            return List.of(Sum.stale(worker)).iterator();
        } else {
            if (input.dense() != null) {
                split.apply(replica.state, input.dense(), input.table());
            }
            replica.state.step = round.step();
            replica.state.epoch = round.epoch();
            replica.version = input.version();
        }
        // Steps change the replica in place: until they are done it is no round's state.
        replica.valid = false;
        TrainingState state = replica.state;
        BitSet changed = new BitSet(split.buckets());
        AveragingRound.Taken taken = AveragingRound.takeSteps(shard, state, round, model, train, steps -> {
            for (int row : steps.lastTableRows()) {
                changed.set(row);
            }
        });
        TableChange table;
        java.util.function.IntPredicate whole = wholeTableForTests;
        if (whole != null ? whole.test(worker) : changed.cardinality() >= input.wholeTableFrom() * split.buckets()) {
            table = split.whole(state, changed);
            WHOLE_TABLES.incrementAndGet();
        } else {
            int[] rows = changed.stream().toArray();
            int[] ones = new int[rows.length];
            Arrays.fill(ones, 1);
            table = split.rows(state, rows, ones);
        }
        Sum sum = new Sum(split.dense(state), table, taken.lossSum(), taken.steps(), taken.samples(), 1, new int[0]);
        replica.valid = true;
        return List.of(sum).iterator();
    }

    /**
     * The driver's side: averages a round's summed contributions into {@code state}, in place. The
     * sum's dense part and table then hold the averaged values: the change to send next round.
     */
    static void average(TrainingState state, Sum sum, Split split) {
        int workers = sum.workers();
        float[] dense = sum.dense().parameters().values();
        float[] first = sum.dense().first().values();
        float[] second = sum.dense().second().values();
        for (int i = 0; i < dense.length; i++) {
            dense[i] /= workers;
            first[i] /= workers;
            second[i] /= workers;
        }
        if (sum.table() instanceof Table whole) {
            split.averageWhole(state, whole, workers);
            split.applyDense(state, sum.dense());
            return;
        }
        Rows rows = (Rows) sum.table();
        // Old values are read only for rows some worker left unchanged (with one worker: none).
        int[] partlyChanged = java.util.stream.IntStream.range(0, rows.rows().length)
                .filter(r -> rows.changes()[r] < workers).map(r -> rows.rows()[r]).toArray();
        Rows old = split.rows(state, partlyChanged, new int[partlyChanged.length]);
        float[][] summed = {rows.parameters().values(), rows.first().values(), rows.second().values()};
        float[][] before = {old.parameters().values(), old.first().values(), old.second().values()};
        int width = split.width();
        int arrays = split.tableMoments() ? 3 : 1;
        int p = 0;
        for (int r = 0; r < rows.rows().length; r++) {
            int unchanged = workers - rows.changes()[r];
            for (int k = 0; k < arrays; k++) {
                averageRow(summed[k], r * width, before[k], p * width, width, unchanged, workers);
            }
            if (unchanged > 0) {
                p++;
            }
        }
        split.apply(state, sum.dense(), rows);
    }

    /** sum[sumAt ..] = a[aAt ..] + b[bAt ..], one row: the one sum of changed copies that rows and whole tables share. */
    private static void addRow(float[] sum, int sumAt, float[] a, int aAt, float[] b, int bAt, int width) {
        for (int c = 0; c < width; c++) {
            sum[sumAt + c] = a[aAt + c] + b[bAt + c];
        }
    }

    /**
     * One row's average, in place: (the sum of the changed copies + unchanged × old) / workers, or
     * the sum / workers when every worker changed it ({@code old} not read). Changed rows and whole
     * tables both average here, which is what makes them end bit for bit alike.
     */
    private static void averageRow(float[] summed, int at, float[] old, int oldAt, int width, int unchanged, int workers) {
        if (unchanged == 0) {
            for (int c = 0; c < width; c++) {
                summed[at + c] = summed[at + c] / workers;
            }
        } else {
            for (int c = 0; c < width; c++) {
                summed[at + c] = (summed[at + c] + unchanged * old[oldAt + c]) / workers;
            }
        }
    }
}
