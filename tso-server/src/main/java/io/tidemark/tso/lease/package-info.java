/**
 * Leadership of the TSOs of one timestamp table: a lease in the HBase cluster's ZooKeeper
 * ({@link io.tidemark.tso.lease.ZooKeeperLeaseElection}), or in memory for tests and single-process use
 * ({@link io.tidemark.tso.lease.InMemoryLeases}). Parameters and return values are non-null unless documented.
 */
package io.tidemark.tso.lease;
