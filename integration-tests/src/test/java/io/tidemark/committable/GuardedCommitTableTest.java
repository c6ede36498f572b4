package io.tidemark.committable;

import io.tidemark.testing.SharedMiniCluster;
import io.tidemark.testing.TestCommitTable;
import io.tidemark.testing.faults.LostReplies;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** HBaseCommitTable on a table with the commit-record guard: batches of commits are guarded plain puts. */
class GuardedCommitTableTest extends HBaseCommitTableContractTest {

    private static TestCommitTable table;

    @BeforeAll
    static void createTable() throws Exception {
        table = TestCommitTable.create("contract:guarded", 4, true);
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
    void usesGuardedPuts() throws Exception {
        assertTrue(table.commitTable().isGuarded());
    }
}
