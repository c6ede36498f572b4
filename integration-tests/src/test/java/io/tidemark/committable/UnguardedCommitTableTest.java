package io.tidemark.committable;

import io.tidemark.testing.SharedMiniCluster;
import io.tidemark.testing.TestCommitTable;
import io.tidemark.testing.faults.LostReplies;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;

/** HBaseCommitTable on a table without the guard: commits are check-and-mutates. */
class UnguardedCommitTableTest extends HBaseCommitTableContractTest {

    private static TestCommitTable table;

    @BeforeAll
    static void createTable() throws Exception {
        table = TestCommitTable.create("contract:unguarded", 4, false);
        LostReplies.attachTo(SharedMiniCluster.connection(), table.name());
    }

    @AfterAll
    static void dropTable() throws Exception {
        table.drop();
    }

    @Override
    protected TestCommitTable testTable() {
        return table;
    }

    @Test
    void usesConditionalWrites() throws Exception {
        assertFalse(table.commitTable().isGuarded());
    }
}
