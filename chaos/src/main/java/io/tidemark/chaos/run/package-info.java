/**
 * One chaos run from start to verdict: set up the cluster's tables and TSO, run the clients and the fault thread,
 * settle what the clients could not know, read the store back (also after flush, major compaction and region
 * moves), check the history, and report.
 *
 * <p>Parameters and return values are non-null unless documented.
 */
package io.tidemark.chaos.run;
