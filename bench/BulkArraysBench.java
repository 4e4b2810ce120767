import org.langid.model.graph.BulkArrays;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;
/**
 * BulkArrays against ND4J's element-at-a-time copies (bench/PROFILE.md, seventeenth session):
 *   CP="$(cat jobs/target/launcher-classpath.txt):$(cat jobs/target/launcher-provided-classpath.txt)"
 *   java -cp "$CP" bench/BulkArraysBench.java
 */
public class BulkArraysBench {
    public static void main(String[] a) {
        double[] v = new double[262144]; for (int i = 0; i < v.length; i++) v[i] = Math.sin(i);
        float[] f = new float[219096];   // issue 14's model: parameters and both moments
        for (int pass = 0; pass < 3; pass++) {
            long t = System.nanoTime(); for (int i = 0; i < 50; i++) Nd4j.createFromArray(v).castTo(DataType.FLOAT); double nd = (System.nanoTime() - t) / 50e6;
            t = System.nanoTime(); for (int i = 0; i < 50; i++) BulkArrays.floats(v); double bulk = (System.nanoTime() - t) / 50e6;
            var g = BulkArrays.floats(v);
            t = System.nanoTime(); for (int i = 0; i < 50; i++) g.dup('c').data().asDouble(); double nd2 = (System.nanoTime() - t) / 50e6;
            t = System.nanoTime(); for (int i = 0; i < 50; i++) BulkArrays.doubles(g); double bulk2 = (System.nanoTime() - t) / 50e6;
            t = System.nanoTime(); for (int i = 0; i < 50; i++) Nd4j.createFromArray(f); double nd3 = (System.nanoTime() - t) / 50e6;
            t = System.nanoTime(); for (int i = 0; i < 50; i++) BulkArrays.floats(f); double bulk3 = (System.nanoTime() - t) / 50e6;
            System.out.printf("n-gram input (262,144 doubles -> FLOAT): %.2f -> %.2f ms; its gradient back: %.2f -> %.2f ms; state (219,096 floats): %.2f -> %.2f ms%n", nd, bulk, nd2, bulk2, nd3, bulk3);
        }
    }
}
