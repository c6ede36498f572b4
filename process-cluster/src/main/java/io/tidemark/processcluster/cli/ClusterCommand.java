package io.tidemark.processcluster.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code ./tidemark cluster up|down|status}: a pseudo-distributed cluster of real processes for development. */
@Command(name = "cluster", mixinStandardHelpOptions = true,
        description = {"A real HBase cluster on this machine, every part a process of its own on its own loopback"
                + " address: a ZooKeeper ensemble of 3, an HDFS NameNode and 3 DataNodes (replication 3), an HMaster"
                + " and 3 region servers with the coprocessor bundle, and two TSOs (active and standby). Started"
                + " from the jars the build already has. See docs/chaos.md."},
        subcommands = {ClusterUpCommand.class, ClusterDownCommand.class, ClusterStatusCommand.class})
public final class ClusterCommand implements Runnable {

    /** Where {@code up} puts the cluster's files unless told otherwise. */
    static final String DEFAULT_DIRECTORY = "tidemark-cluster";

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command: use up, down or status");
    }
}
