package io.tidemark.processcluster;

import java.nio.file.Path;

/**
 * Where a cluster keeps its files, all under one folder: per process a configuration folder (first on its classpath)
 * and a data folder, its log in {@code logs/}, the {@code hbase-site.xml} applications use in {@code client/}.
 */
public record ClusterFiles(Path directory) {

    public ClusterFiles {
        directory = directory.toAbsolutePath();
    }

    public Path confOf(Member member) {
        return directory.resolve(member.name()).resolve("conf");
    }

    public Path dataOf(Member member) {
        return directory.resolve(member.name()).resolve("data");
    }

    public Path logOf(Member member) {
        return directory.resolve("logs").resolve(member.name() + ".log");
    }

    /** The {@code hbase-site.xml} an application (a TSO, a client) needs: the ZooKeeper quorum. */
    public Path clientSite() {
        return directory.resolve("client").resolve("hbase-site.xml");
    }

    /** What {@code ./tidemark cluster up} records for {@code status} and {@code down}. */
    public Path stateFile() {
        return directory.resolve("cluster.properties");
    }
}
