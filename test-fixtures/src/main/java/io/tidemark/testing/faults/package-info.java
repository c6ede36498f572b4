/**
 * Fault injection for tests on the mini-cluster, so that what happens when an RPC's reply is lost, or another client
 * acts while a region server is between two steps of a request, can be tested deterministically.
 *
 * <ul>
 *   <li>{@link io.tidemark.testing.faults.LostReplyInjector} (server side): a region observer that lets a mutation
 *       apply and then fails its reply with a retryable error, so HBase's own client re-sends it. Attached to any
 *       table (a commit table, a data table) with {@link io.tidemark.testing.faults.LostReplies#attachTo} and armed
 *       through {@link io.tidemark.testing.faults.LostReplies}: the next n replies, or each reply with a probability
 *       from a seed. Counters tell how many replies were lost.</li>
 *   <li>{@link io.tidemark.testing.faults.ServerReadStaller} (server side): a region observer that holds or delays a
 *       read the region server makes of its own region while serving a request (the fast path's, a server-side
 *       snapshot read's), between the read and the commit-table lookups that follow it. Attached with
 *       {@link io.tidemark.testing.faults.ServerReadStalls#attachTo}; hold the next chosen read until the test
 *       releases it, or delay reads at random from a seed (a chaos fault).</li>
 *   <li>{@link io.tidemark.testing.faults.DuplicateDelivery} (client side): a connection decorator that sends chosen
 *       operations twice and returns the second answer. For operations no server-side post-hook sees, such as
 *       fast-path Gets.</li>
 * </ul>
 *
 * Parameters and return values are non-null unless documented.
 */
package io.tidemark.testing.faults;
