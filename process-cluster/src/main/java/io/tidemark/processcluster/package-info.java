/**
 * A pseudo-distributed HBase cluster of real processes on one machine, for development and for the chaos checker:
 * ZooKeeper, HDFS and HBase processes from the jars the build resolved, TSOs and clients, each on its own loopback
 * address, each of them breakable on its own (killed, restarted, paused, cut off).
 *
 * <p>Parameters and return values are non-null unless documented.
 */
package io.tidemark.processcluster;
