package io.tidemark.tso.lease;

import io.tidemark.lease.TsoLeaseNode;

/**
 * Makes the lease election of a TSO once it knows where clients reach it (after binding its port). ZooKeeper:
 * {@link ZooKeeperLeaseElection#factory}; in memory: {@code inMemoryLeases::election}.
 */
@FunctionalInterface
public interface LeaseElectionFactory {

    LeaseElection create(TsoLeaseNode self);
}
