package io.tidemark.committable;

/** HBaseCommitTable on a table without the guard: commits are check-and-mutates. */
class UnguardedCommitTableTest extends HBaseCommitTableContractTest {

    UnguardedCommitTableTest() {
        super(false);
    }
}
