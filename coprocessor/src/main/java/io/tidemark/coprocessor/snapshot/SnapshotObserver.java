package io.tidemark.coprocessor.snapshot;

import io.tidemark.coprocessor.LegacyObserver;
import io.tidemark.table.TransactionalTableLayout;

/**
 * The observer that provided server-side snapshot reads in the layout of earlier versions
 * ({@value TransactionalTableLayout#SNAPSHOT_OBSERVER}), kept loadable so that their tables keep working: see
 * {@link LegacyObserver}. New tables get {@value TransactionalTableLayout#TRANSACTIONAL_OBSERVER}, and
 * {@code ./tidemark table enable} upgrades old ones.
 */
public final class SnapshotObserver extends LegacyObserver {
}
