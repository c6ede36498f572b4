package io.tidemark.committable;

/** HBaseCommitTable on a table with the commit-record guard: batches of commits are guarded plain puts. */
class GuardedCommitTableTest extends HBaseCommitTableContractTest {

    GuardedCommitTableTest() {
        super(true);
    }
}
