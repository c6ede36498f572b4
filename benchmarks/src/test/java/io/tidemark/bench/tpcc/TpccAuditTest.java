package io.tidemark.bench.tpcc;

import io.tidemark.bench.ScratchTables;
import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionManager;
import io.tidemark.embedded.EmbeddedCluster;
import io.tidemark.protocol.CommitMode;
import io.tidemark.testing.SharedMiniCluster;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;

import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The audit reads real tables: a freshly loaded database is consistent, and a lost order line is found. */
class TpccAuditTest {

    @Test
    // The TPC-C tables have fixed names, which the TPC-C benchmark's smoke test loads too.
    @ResourceLock(TpccSchema.TABLE_PREFIX)
    void freshLoadIsConsistentAndALostOrderLineBreaksCondition4() throws Exception {
        Connection connection = SharedMiniCluster.connection();
        TpccScale scale = TpccScale.of(1, 0.0001);
        try (EmbeddedCluster tso = EmbeddedCluster.builder().hbaseConnection(connection)
                .tableNamespace("tpcc_audit_test").commitMode(CommitMode.LOW_LATENCY).start();
             TransactionManager tm = TransactionManager.builder(connection).config(tso.clientConfig()).build()) {
            try {
                ScratchTables.recreateAll(connection, TpccSchema.Table.hbaseNames(), TpccSchema.FAMILY_NAME,
                        tso.clientConfig());
                TpccLoader.load(connection, tm, scale, new TpccRandom(new SplittableRandom(7),
                        TpccRandom.Constants.draw(new SplittableRandom(7))));
                assertEquals(List.of(), TpccAudit.check(connection, tm));

                Transaction tx = tm.begin();
                try (TTable lines = new TTable(connection, TpccSchema.Table.ORDER_LINE.hbaseName())) {
                    lines.delete(tx, new Delete(TpccSchema.key(1, 3, 5, 1)));
                }
                tm.commit(tx);

                List<String> found = TpccAudit.check(connection, tm);
                assertEquals(1, found.size(), found.toString());
                assertTrue(found.get(0).startsWith("condition 4: warehouse 1 district 3 has"), found.get(0));
            } finally {
                ScratchTables.dropAll(connection, TpccSchema.Table.hbaseNames());
            }
        }
    }
}
