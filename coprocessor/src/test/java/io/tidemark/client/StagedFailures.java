package io.tidemark.client;

import java.io.IOException;

/**
 * Lets the coprocessor tests stage client crashes with the real client: the hooks TransactionManager offers its own
 * tests are package-private, so this helper lives in the client's package.
 */
public final class StagedFailures {

    private StagedFailures() {
    }

    /**
     * A manager whose clients "die" right after their commit record is durable: shadow cells are never written,
     * so the commit record stays behind.
     */
    public static TransactionManager withoutShadowCells(TransactionManager.Builder builder) {
        return builder.shadowCellWriter((table, cells) -> {
            throw new IOException("staged crash: the client died before writing shadow cells");
        }).build();
    }
}
