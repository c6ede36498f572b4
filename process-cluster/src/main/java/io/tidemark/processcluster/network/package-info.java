/**
 * How the cluster's processes are networked: on the machine's own loopback addresses, or inside a network namespace
 * of the run's own where each process also connects from its own address, so that iptables rules, which exist only
 * in that namespace, can cut any two of them apart.
 *
 * <p>Parameters and return values are non-null unless documented.
 */
package io.tidemark.processcluster.network;
