/**
 * The clients of a chaos run: random generic transactions (gets, puts, deletes, read-modify-write increments, scans
 * over several regions, long-running readers) and fast-path operations over a small key space, each recorded in the
 * client's history file together with what the client was told.
 *
 * <p>Parameters and return values are non-null unless documented.
 */
package io.tidemark.chaos.workload;
