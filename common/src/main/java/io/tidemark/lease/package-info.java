/**
 * Where the active TSO's lease lives in ZooKeeper and what it says. Parameters and return values are non-null unless
 * documented.
 */
package io.tidemark.lease;
