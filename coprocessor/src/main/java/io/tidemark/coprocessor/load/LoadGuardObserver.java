package io.tidemark.coprocessor.load;

import io.tidemark.coprocessor.LegacyObserver;
import io.tidemark.table.TransactionalTableLayout;

/**
 * The observer that provided the bulk-load guard in the layout of earlier versions
 * ({@value TransactionalTableLayout#LOAD_GUARD_OBSERVER}), kept loadable so that their tables keep working: see
 * {@link LegacyObserver}. New tables get {@value TransactionalTableLayout#TRANSACTIONAL_OBSERVER}, and
 * {@code ./tidemark table enable} upgrades old ones.
 */
public final class LoadGuardObserver extends LegacyObserver {
}
