package io.tidemark.chaos.child;

import io.tidemark.chaos.history.KeySpace;
import io.tidemark.chaos.workload.OperationMix;
import io.tidemark.chaos.workload.WorkloadSettings;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Everything a child JVM needs, written by the parent to a properties file: where the cluster is, which table,
 * which clients to run with which seeds, where the run's start is announced, and the Tidemark client settings.
 *
 * @param clients the client names this child runs, one thread each
 * @param tsoFile where the parent announces the address of the run's TSO ({@link RunStart#announceTso})
 * @param startFile where the parent announces the start and the deadline of the workload ({@link RunStart})
 * @param tidemark every {@code tidemark.*} client setting
 */
public record ChildSpec(String zookeeperQuorum, int zookeeperPort, String table, Path historyDirectory,
                        List<String> clients, long seed, Path tsoFile, Path startFile, WorkloadSettings workload,
                        Map<String, String> tidemark) {

    private static final String TIDEMARK_PREFIX = "tidemark.";

    public ChildSpec {
        clients = List.copyOf(clients);
        tidemark = Map.copyOf(tidemark);
    }

    public void write(Path file) throws IOException {
        Properties p = new Properties();
        p.setProperty("zookeeper.quorum", zookeeperQuorum);
        p.setProperty("zookeeper.port", Integer.toString(zookeeperPort));
        p.setProperty("table", table);
        p.setProperty("history.directory", historyDirectory.toAbsolutePath().toString());
        p.setProperty("clients", String.join(",", clients));
        p.setProperty("seed", Long.toString(seed));
        p.setProperty("tso.file", tsoFile.toAbsolutePath().toString());
        p.setProperty("start.file", startFile.toAbsolutePath().toString());
        p.setProperty("workload.rows", Integer.toString(workload.keySpace().rows().size()));
        p.setProperty("workload.fast-path-share", Double.toString(workload.mix().fastPath()));
        p.setProperty("workload.long-reader-share", Double.toString(workload.mix().longReaders()));
        p.setProperty("workload.slow-writer-share", Double.toString(workload.mix().slowWriters()));
        p.setProperty("workload.max-ops", Integer.toString(workload.maxOpsPerTransaction()));
        tidemark.forEach(p::setProperty);
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            p.store(out, "a chaos child client");
        }
    }

    public static ChildSpec read(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(in);
        }
        WorkloadSettings workload = new WorkloadSettings(KeySpace.of(Integer.parseInt(p.getProperty("workload.rows"))),
                new OperationMix(Double.parseDouble(p.getProperty("workload.fast-path-share")),
                        Double.parseDouble(p.getProperty("workload.long-reader-share")),
                        Double.parseDouble(p.getProperty("workload.slow-writer-share"))),
                Integer.parseInt(p.getProperty("workload.max-ops")));
        Map<String, String> tidemark = new java.util.HashMap<>();
        for (String name : p.stringPropertyNames()) {
            if (name.startsWith(TIDEMARK_PREFIX)) {
                tidemark.put(name, p.getProperty(name));
            }
        }
        return new ChildSpec(p.getProperty("zookeeper.quorum"), Integer.parseInt(p.getProperty("zookeeper.port")),
                p.getProperty("table"), Path.of(p.getProperty("history.directory")),
                new ArrayList<>(List.of(p.getProperty("clients").split(","))), Long.parseLong(p.getProperty("seed")),
                Path.of(p.getProperty("tso.file")), Path.of(p.getProperty("start.file")), workload, tidemark);
    }
}
