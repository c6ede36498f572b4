/**
 * The read rule, written once: which version of a column a reader sees, and whether the writer of a version
 * committed. The client ({@code TTable}), the region server's snapshot reads, the compaction's garbage collection and
 * the fast path all use it (docs/architecture.md, "Reading a snapshot").
 *
 * <ul>
 *   <li>{@link io.tidemark.visibility.ColumnVersions}: the stored versions of one user column (data cells,
 *       tombstones, shadow cells), newest first;</li>
 *   <li>{@link io.tidemark.visibility.WriterOutcome}: what is known about a writer (committed at a timestamp, never
 *       committed, pending);</li>
 *   <li>{@link io.tidemark.visibility.WriterResolver}: decides a writer through shadow cells and the commit table,
 *       with a {@link io.tidemark.visibility.PendingWriterPolicy} for writers nobody decided yet;</li>
 *   <li>{@link io.tidemark.visibility.SnapshotQuery}: the cells a snapshot sees in a row;
 *       {@link io.tidemark.visibility.CommittedRow}: the latest committed state of a row (fast path);</li>
 *   <li>{@link io.tidemark.visibility.VersionStore}: the storage seam (a {@code Table} on the client,
 *       {@link io.tidemark.visibility.TableVersionStore}; a {@code Region} in the region server).</li>
 * </ul>
 *
 * <p>Parameters and return values are non-null unless documented otherwise.
 */
package io.tidemark.visibility;
