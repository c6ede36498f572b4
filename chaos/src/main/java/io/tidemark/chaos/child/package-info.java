/**
 * Clients in child JVMs: started with this module's classpath against the same mini-cluster (through its ZooKeeper),
 * they run the same workers as the clients in the parent, write their history files into the run's directory, and
 * can be killed with {@code kill -9} at any moment.
 *
 * <p>Parameters and return values are non-null unless documented.
 */
package io.tidemark.chaos.child;
