package io.tidemark.committable;

import io.tidemark.certificate.DecisionKey;
import org.jspecify.annotations.Nullable;

import java.io.IOException;

/**
 * The TSO incarnations' decision keys ({@link DecisionKey}), as those entitled to read them find them: TSOs, region
 * servers and the sweeper, never applications (docs/security.md). A commit table that holds keys signs what it may
 * remove itself (releases commit records, unmarks invalidations, certifies low watermarks); the commit-record guard
 * checks what others send against them.
 */
public interface DecisionKeys {

    /** No keys: an application's commit table, which only sends the seals the TSO gave it. */
    DecisionKeys NONE = new DecisionKeys() {
        @Override
        public @Nullable DecisionKey ofEpoch(long epoch) {
            return null;
        }

        @Override
        public @Nullable DecisionKey newest() {
            return null;
        }
    };

    /** The key of the incarnation of {@code epoch}, or null when none is recorded. */
    @Nullable DecisionKey ofEpoch(long epoch) throws IOException;

    /** The key of the newest recorded incarnation, or null when none is. */
    @Nullable DecisionKey newest() throws IOException;

    /** The fixed key of one incarnation: the TSO's own. */
    static DecisionKeys of(DecisionKey key) {
        return new DecisionKeys() {
            @Override
            public @Nullable DecisionKey ofEpoch(long epoch) {
                return epoch == key.epoch() ? key : null;
            }

            @Override
            public @Nullable DecisionKey newest() {
                return key;
            }
        };
    }
}
