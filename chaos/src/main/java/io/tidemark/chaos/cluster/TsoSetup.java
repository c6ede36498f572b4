package io.tidemark.chaos.cluster;

/** How a run's TSO runs. */
public enum TsoSetup {
    /** One TSO in this JVM; clients are pinned to its address; it can be restarted. */
    IN_PROCESS,
    /**
     * {@code tidemark tso} processes, one active and one standby; clients follow the lease in ZooKeeper; the active
     * one can be killed with {@code kill -9} (the standby takes over and a new standby starts).
     */
    PROCESSES_WITH_STANDBY
}
