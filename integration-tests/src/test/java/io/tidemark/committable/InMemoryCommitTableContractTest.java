package io.tidemark.committable;

import io.tidemark.testing.CommitTableContract;

/** The in-memory table keeps the contract the HBase table keeps (see the HBase contract tests next to it). */
class InMemoryCommitTableContractTest extends CommitTableContract {

    private static final InMemoryCommitTable TABLE = new InMemoryCommitTable();

    @Override
    protected CommitTable table() {
        return TABLE;
    }
}
