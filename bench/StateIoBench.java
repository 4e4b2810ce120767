import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.langid.model.graph.Nd4jFormat;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * A training state's arrays written and read by ND4J (one value at a time) and by Nd4jFormat (in
 * bulk, the same bytes), side by side in one JVM (bench/RESULTS.md, fifty-third session):
 *   CP="$(cat jobs/target/launcher-classpath.txt):$(cat jobs/target/launcher-provided-classpath.txt)"
 *   java -cp "$CP" bench/StateIoBench.java [FLOATS]     # default 16,923,912: the pipeline model's parameters
 * The state is the parameters and Adam's two moments: three times FLOATS floats, to a file in /tmp.
 */
public class StateIoBench {
    public static void main(String[] args) throws Exception {
        long floats = args.length > 0 ? Long.parseLong(args[0]) : 16_923_912L;
        INDArray parameters = Nd4j.rand(DataType.FLOAT, floats);
        INDArray moments = Nd4j.rand(DataType.FLOAT, 2 * floats);
        Path nd4jFile = Files.createTempFile("state-nd4j", ".bin");
        Path bulkFile = Files.createTempFile("state-bulk", ".bin");
        try {
            for (int round = 0; round < 3; round++) {
                long t0 = System.nanoTime();
                try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(nd4jFile), 1 << 16))) {
                    Nd4j.write(parameters, out);
                    Nd4j.write(moments, out);
                }
                long t1 = System.nanoTime();
                try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(bulkFile), 1 << 16))) {
                    Nd4jFormat.write(parameters, out);
                    Nd4jFormat.write(moments, out);
                }
                long t2 = System.nanoTime();
                INDArray[] byNd4j = new INDArray[2];
                try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(nd4jFile), 1 << 16))) {
                    byNd4j[0] = Nd4j.read(in);
                    byNd4j[1] = Nd4j.read(in);
                }
                long t3 = System.nanoTime();
                INDArray[] inBulk = new INDArray[2];
                try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(bulkFile), 1 << 16))) {
                    inBulk[0] = Nd4jFormat.read(in);
                    inBulk[1] = Nd4jFormat.read(in);
                }
                long t4 = System.nanoTime();
                boolean sameBytes = Arrays.equals(Files.readAllBytes(nd4jFile), Files.readAllBytes(bulkFile));
                boolean sameValues = byNd4j[0].equals(inBulk[0]) && byNd4j[1].equals(inBulk[1]) && inBulk[0].equals(parameters);
                System.out.printf("%,d floats (%.0f MB): write %.2f s by ND4J, %.2f s in bulk; read %.2f s by ND4J, %.2f s in bulk; same bytes %b, same values %b%n",
                        3 * floats, Files.size(bulkFile) / 1e6, (t1 - t0) / 1e9, (t2 - t1) / 1e9, (t3 - t2) / 1e9, (t4 - t3) / 1e9,
                        sameBytes, sameValues);
            }
        } finally {
            Files.deleteIfExists(nd4jFile);
            Files.deleteIfExists(bulkFile);
        }
    }
}
