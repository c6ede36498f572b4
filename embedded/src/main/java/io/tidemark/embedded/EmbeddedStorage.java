package io.tidemark.embedded;

import io.tidemark.config.Choices;

/**
 * Where an embedded HBase keeps its root directory and its write-ahead log: the one setting behind
 * {@code --storage local|hdfs} of {@code ./tidemark server}, {@code quickstart} and the benchmarks.
 *
 * <p>The difference matters for every latency figure: on the local file system the WAL's hflush and hsync only hand
 * the bytes to the operating system (no sync, nothing is durable), while on HDFS they wait for the DataNode pipeline
 * to acknowledge them, as on a production cluster.
 */
public enum EmbeddedStorage {

    /** The local file system (the default: fast start, not durable). */
    LOCAL("local", "local file system (the WAL's hflush is no sync: nothing is durable)"),
    /** HBase's mini-DFS in this JVM, as HBase's own default mini-cluster uses (one NameNode, one DataNode). */
    HDFS("hdfs", "mini-HDFS in the same JVM, one DataNode (the WAL's hflush/hsync wait for the DataNode pipeline)");

    /** What {@code --storage} means when not given. */
    public static final EmbeddedStorage DEFAULT = LOCAL;

    private final String label;
    private final String description;

    EmbeddedStorage(String label, String description) {
        this.label = label;
        this.description = description;
    }

    /** The name the command line and the reports use: {@code local} or {@code hdfs}. */
    public String label() {
        return label;
    }

    /** One line for reports: where the data goes and what a WAL sync means there. */
    public String description() {
        return description;
    }

    @Override
    public String toString() {
        return label;
    }

    /** @throws IllegalArgumentException naming the accepted values */
    public static EmbeddedStorage fromLabel(String label) {
        return Choices.parse(values(), EmbeddedStorage::label, label, "storage");
    }
}
