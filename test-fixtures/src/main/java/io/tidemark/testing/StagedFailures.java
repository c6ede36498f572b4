package io.tidemark.testing;

import io.tidemark.client.TransactionManager;

import java.io.IOException;

/**
 * Client crashes staged with the real client, through its documented fault-injection seams
 * ({@link TransactionManager.Builder#commitRecordWriter}, {@link TransactionManager.Builder#shadowCellWriter}).
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
