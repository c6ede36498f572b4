package io.tidemark.client.admin;

import io.tidemark.client.ClientSettings;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.table.TransactionalTableLayout;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.CoprocessorDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which tables the sweeper and outcome() must search: the "may hold transactional cells" rule. */
class TransactionalTablesTest {

    private static final TransactionalTables TABLES = new TransactionalTables(settings(""));

    private static ClientSettings settings(String nonTransactional) {
        TidemarkConfig config = new TidemarkConfig(new Configuration(false));
        config.set(TidemarkConfig.COMMIT_TABLE, "tidemark:commits");
        config.set(TidemarkConfig.ADMIN_NON_TRANSACTIONAL_TABLES, nonTransactional);
        return new ClientSettings(config);
    }

    private static TableDescriptorBuilder table(String name, int versions, boolean marked) {
        ColumnFamilyDescriptorBuilder family = ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("f"))
                .setMaxVersions(versions);
        if (marked) {
            family.setValue(TransactionalTableLayout.TRANSACTIONAL_FAMILY_KEY,
                    TransactionalTableLayout.TRANSACTIONAL_FAMILY_VALUE);
        }
        return TableDescriptorBuilder.newBuilder(TableName.valueOf(name)).setColumnFamily(family.build());
    }

    @Test
    void anOrdinaryTableCannotHoldTransactionalCells() {
        assertFalse(TABLES.mayHoldTransactionalCells(table("plain", 3, false).build()));
    }

    @Test
    void markedTablesAndTablesKeepingEveryVersionMayHoldThem() {
        assertTrue(TABLES.mayHoldTransactionalCells(table("marked", Integer.MAX_VALUE, true).build()));
        // What the README's snippet made before families were marked: transactions were allowed there.
        assertTrue(TABLES.mayHoldTransactionalCells(table("readme", Integer.MAX_VALUE, false).build()));
    }

    @Test
    void aTidemarkObserverMakesATableCount() throws IOException {
        TableDescriptor observed = table("observed", 1, false).setCoprocessor(CoprocessorDescriptorBuilder
                .newBuilder(TransactionalTableLayout.SNAPSHOT_OBSERVER).build()).build();
        assertTrue(TABLES.mayHoldTransactionalCells(observed));
    }

    @Test
    void tablesOfAnotherCommitTableTheCommitTableAndListedTablesAreLeftAlone() {
        assertFalse(TABLES.mayHoldTransactionalCells(table("theirs", Integer.MAX_VALUE, true)
                .setValue(TransactionalTableLayout.COMMIT_TABLE_KEY, "other:commits").build()));
        assertTrue(TABLES.mayHoldTransactionalCells(table("ours", 1, false)
                .setValue(TransactionalTableLayout.COMMIT_TABLE_KEY, "tidemark:commits").build()));
        assertFalse(TABLES.mayHoldTransactionalCells(table("tidemark:commits", Integer.MAX_VALUE, false).build()));
        assertFalse(new TransactionalTables(settings("history, audit:log")).mayHoldTransactionalCells(
                table("audit:log", Integer.MAX_VALUE, false).build()));
    }
}
