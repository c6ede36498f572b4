package io.tidemark.coprocessor.fastpath;

import io.tidemark.coprocessor.LegacyObserver;
import io.tidemark.table.TransactionalTableLayout;

/**
 * The observer that provided the fast path in the layout of earlier versions
 * ({@value TransactionalTableLayout#FAST_PATH_OBSERVER}), kept loadable so that their tables keep working: see
 * {@link LegacyObserver}. New tables get {@value TransactionalTableLayout#TRANSACTIONAL_OBSERVER}, and
 * {@code ./tidemark table enable} upgrades old ones.
 */
public final class FastPathObserver extends LegacyObserver {
}
