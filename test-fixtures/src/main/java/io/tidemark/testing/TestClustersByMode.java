package io.tidemark.testing;

import io.tidemark.protocol.CommitMode;

import java.io.IOException;
import java.util.EnumMap;
import java.util.Map;

/**
 * One {@link TestCluster} per commit mode, each started on first use, for test classes that run their tests in both
 * modes. Hold it in a static field and close it in {@code @AfterAll}.
 */
public final class TestClustersByMode implements AutoCloseable {

    private final String prefix;
    private final Map<CommitMode, TestCluster> clusters = new EnumMap<>(CommitMode.class);

    /** @param prefix start of the TSO tables' names; the mode is appended */
    public TestClustersByMode(String prefix) {
        this.prefix = prefix;
    }

    /** The cluster of {@code mode}, started now if this is its first use. */
    public synchronized TestCluster get(CommitMode mode) throws IOException {
        TestCluster cluster = clusters.get(mode);
        if (cluster == null) {
            cluster = TestCluster.start(prefix + "_" + mode.configName().replace('-', '_'), mode);
            clusters.put(mode, cluster);
        }
        return cluster;
    }

    /** Stops every started cluster's TSO and manager. */
    @Override
    public synchronized void close() {
        clusters.values().forEach(TestCluster::close);
        clusters.clear();
    }
}
