/**
 * The garbage-collection horizon of each open region, raised before a compaction collects and checked by every
 * transactional read (docs/coprocessors.md, "Snapshots older than the garbage-collection horizon").
 *
 * <p>Parameters and return values are non-null unless documented otherwise.
 */
package io.tidemark.coprocessor.horizon;
