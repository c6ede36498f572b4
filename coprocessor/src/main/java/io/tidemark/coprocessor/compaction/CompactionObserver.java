package io.tidemark.coprocessor.compaction;

import io.tidemark.coprocessor.LegacyObserver;
import io.tidemark.table.TransactionalTableLayout;

/**
 * The observer that provided garbage collection at compaction in the layout of earlier versions
 * ({@value TransactionalTableLayout#COMPACTION_OBSERVER}), kept loadable so that their tables keep working: see
 * {@link LegacyObserver}. New tables get {@value TransactionalTableLayout#TRANSACTIONAL_OBSERVER}, and
 * {@code ./tidemark table enable} upgrades old ones.
 */
public final class CompactionObserver extends LegacyObserver {
}
