package org.langid.jobs.prepare;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.CharsetDecoder;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.spark.api.java.JavaNewHadoopRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.langid.jobs.io.SerializableHadoopConf;
import scala.Tuple2;

/**
 * Reads a corpus into {@link CorpusRecord}s on the executors. Line formats go through Hadoop's
 * {@link TextInputFormat} (splits large files, decompresses .gz); JSON files are streamed, one
 * task per file, never parsed whole on the driver.
 */
public final class CorpusReader {

    private CorpusReader() {
    }

    public static JavaRDD<CorpusRecord> read(JavaSparkContext spark, CorpusFiles corpus) {
        return switch (corpus.format()) {
            case JSON -> readJson(spark, corpus.files());
            case TSV, TXT -> readLines(spark, corpus.files(), corpus.format());
        };
    }

    private static JavaRDD<CorpusRecord> readJson(JavaSparkContext spark, List<String> files) {
        SerializableHadoopConf conf = new SerializableHadoopConf(spark.hadoopConfiguration());
        return spark.parallelize(files, files.size()).flatMap(file -> new JsonCorpusIterator(file, conf.get()));
    }

    @SuppressWarnings("unchecked")
    private static JavaRDD<CorpusRecord> readLines(JavaSparkContext spark, List<String> files, CorpusFormat format) {
        Job job;
        try {
            job = Job.getInstance(new Configuration(spark.hadoopConfiguration()));
            FileInputFormat.setInputPaths(job, files.stream().map(Path::new).toArray(Path[]::new));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        JavaNewHadoopRDD<LongWritable, Text> lines = (JavaNewHadoopRDD<LongWritable, Text>) spark.newAPIHadoopRDD(
                job.getConfiguration(), TextInputFormat.class, LongWritable.class, Text.class);
        return lines.mapPartitionsWithInputSplit((split, partition) -> {
            String file = ((FileSplit) split).getPath().toString();
            return new LineRecords(file, format, partition);
        }, true);
    }

    /** Turns the (offset, line) pairs of one input split into records, lazily. */
    private static final class LineRecords implements Iterator<CorpusRecord> {

        private final String file;
        private final CorpusFormat format;
        private final Iterator<Tuple2<LongWritable, Text>> lines;
        private final CharsetDecoder decoder = Utf8.lenientDecoder();
        private final String fileLanguage;

        LineRecords(String file, CorpusFormat format, Iterator<Tuple2<LongWritable, Text>> lines) {
            this.file = file;
            this.format = format;
            this.lines = lines;
            this.fileLanguage = format == CorpusFormat.TXT ? CorpusFormat.languageOfFileName(new Path(file).getName()) : null;
        }

        @Override
        public boolean hasNext() {
            return lines.hasNext();
        }

        @Override
        public CorpusRecord next() {
            Tuple2<LongWritable, Text> line = lines.next();
            long offset = line._1().get();
            String text = Utf8.decode(decoder, line._2().getBytes(), line._2().getLength());
            if (format == CorpusFormat.TXT) {
                return CorpusRecord.of(fileLanguage, text, file, offset);
            }
            String[] fields = text.split("\t", 3);
            if (fields.length < 3) {
                return CorpusRecord.bad(QuarantineReason.MALFORMED_RECORD,
                        "expected id<TAB>lang<TAB>text, found " + fields.length + " field" + (fields.length == 1 ? "" : "s"),
                        null, text, file, offset);
            }
            String language = "\\N".equals(fields[1]) ? null : fields[1];
            return CorpusRecord.of(language, fields[2], file, offset);
        }
    }
}
