/**
 * Garbage collection of old versions, as readers meet it: a snapshot at or below the horizon a compaction collected
 * with is refused with {@link io.tidemark.gc.SnapshotTooOldException} (docs/coprocessors.md, "Snapshots older than
 * the garbage-collection horizon").
 *
 * <p>Parameters and return values are non-null unless documented otherwise.
 */
package io.tidemark.gc;
