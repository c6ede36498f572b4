package io.tidemark.chaos.cluster;

import io.tidemark.embedded.TsoProcess;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The HBase cluster a chaos run breaks, whichever it is: HBase's mini-cluster in this JVM ({@link ChaosCluster}), or
 * a cluster of real processes ({@link ProcessChaosCluster}). A run creates its tables, starts its TSO and client
 * processes, and reads the store back through it.
 */
public interface ChaosHBase extends AutoCloseable {

    /** What the cluster is, for the start of a report (several lines for the process cluster). */
    String describe();

    /** This JVM's connection to the cluster (the run's own, never partitioned or paused). */
    Connection connection();

    /** {@code hbase.zookeeper.quorum} for processes the run starts. */
    String zookeeperQuorum();

    /** {@code hbase.zookeeper.property.clientPort} for processes the run starts. */
    int zookeeperPort();

    /** Null when faults can cut processes of this cluster apart; otherwise why not, in a sentence. */
    String partitionsUnavailable();

    /** The region servers that serve now. */
    List<ServerName> liveServers() throws IOException;

    /** {@code server} dies as a crash would (no flush, no clean region close), and a new one replaces it. */
    String crashRegionServer(ServerName server) throws IOException, InterruptedException;

    /** After the faults: every server runs and serves again, and every region is assigned. */
    void restore() throws IOException, InterruptedException;

    /** Waits until no region is in transition. */
    void waitUntilSettled() throws IOException, InterruptedException;

    /** Flushes {@code table} and major-compacts it (compaction garbage collection runs), returning when done. */
    void flushAndMajorCompact(TableName table) throws IOException, InterruptedException;

    /**
     * Starts {@code tidemark tso} (called {@code name} in the run's reports) against this cluster with the run's
     * settings ({@code site}: an {@code hbase-site.xml} naming this cluster's ZooKeeper and the run's
     * {@code tidemark.*} settings), its output in {@code log}; {@code running} are the run's TSO processes that still
     * run.
     */
    TsoProcess startTso(String name, Path site, Path log, List<TsoProcess> running) throws IOException;

    /**
     * The command line of client process {@code slot} (0, 1, ...: at most one running process per slot) running
     * {@code mainClass} with this JVM's classpath.
     */
    List<String> clientCommand(int slot, String heap, String mainClass, String... args) throws IOException;

    /** Stops every server (and every process it started). */
    @Override
    void close();
}
