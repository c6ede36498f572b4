/**
 * Faults and the seeded thread that injects them during a run: client kills, TSO restarts, region-server aborts,
 * region moves and splits, flushes and compactions, commit-table sweeps.
 *
 * <p>Parameters and return values are non-null unless documented.
 */
package io.tidemark.chaos.fault;
