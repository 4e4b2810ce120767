package org.langid.jobs.io;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import org.apache.hadoop.conf.Configuration;

/** Carries a Hadoop {@link Configuration} (not Serializable) to Spark tasks. */
public final class SerializableHadoopConf implements Serializable {

    private static final long serialVersionUID = 1L;

    private transient Configuration configuration;

    public SerializableHadoopConf(Configuration configuration) {
        this.configuration = configuration;
    }

    public Configuration get() {
        return configuration;
    }

    private void writeObject(ObjectOutputStream out) throws IOException {
        out.defaultWriteObject();
        configuration.write(out);
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        configuration = new Configuration(false);
        configuration.readFields(in);
    }
}
