/**
 * The cluster a chaos run breaks: an HBase mini-cluster with two region servers (so regions can move and a region
 * server can die while the other takes over), a TSO that can be restarted, and the checked table.
 *
 * <p>Parameters and return values are non-null unless documented.
 */
package io.tidemark.chaos.cluster;
