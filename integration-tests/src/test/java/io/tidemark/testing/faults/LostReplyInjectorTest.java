package io.tidemark.testing.faults;

import io.tidemark.testing.TestCluster;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fault injectors do what the regression tests rely on: a lost reply means the mutation was applied and then
 * re-sent by HBase's client; a duplicate delivery sends the operation twice.
 */
class LostReplyInjectorTest {

    private static final byte[] F = Bytes.toBytes("f");
    private static final byte[] Q = Bytes.toBytes("q");
    private static final TableName TABLE = TableName.valueOf("lost_reply_injector");

    @BeforeAll
    static void createTable() throws Exception {
        try (Admin admin = connection().getAdmin()) {
            admin.createTable(TableDescriptorBuilder.newBuilder(TABLE)
                    .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F)).build());
        }
        LostReplies.attachTo(connection(), TABLE);
    }

    @AfterAll
    static void dropTable() throws Exception {
        TestCluster.drop(TABLE);
    }

    @AfterEach
    void disarm() {
        LostReplies.disarm(TABLE);
        LostReplies.resetCounters(TABLE);
    }

    private static Connection connection() {
        return TestCluster.connection();
    }

    @Test
    void aConditionalPutWhoseReplyIsLostWasAppliedAndIsResent() throws Exception {
        byte[] row = Bytes.toBytes("cas");
        LostReplies.armNext(TABLE, 1);
        try (Table table = connection().getTable(TABLE)) {
            boolean applied = table.checkAndMutate(CheckAndMutate.newBuilder(row).ifNotExists(F, Q)
                    .build(new Put(row).addColumn(F, Q, Bytes.toBytes("first")))).isSuccess();

            assertFalse(applied, "the re-sent attempt finds what the first attempt wrote");
            assertArrayEquals(Bytes.toBytes("first"), table.get(new Get(row)).getValue(F, Q));
        }
        assertEquals(1, LostReplies.lost(TABLE));
    }

    @Test
    void aBatchWhoseReplyIsLostIsAppliedAndResent() throws Exception {
        LostReplies.armNext(TABLE, 1);
        try (Table table = connection().getTable(TABLE)) {
            List<Row> puts = List.of(new Put(Bytes.toBytes("b1")).addColumn(F, Q, Bytes.toBytes(1L)),
                    new Put(Bytes.toBytes("b2")).addColumn(F, Q, Bytes.toBytes(2L)));
            Object[] results = new Object[puts.size()];
            table.batch(puts, results);

            assertFalse(table.get(new Get(Bytes.toBytes("b2"))).isEmpty());
        }
        assertEquals(1, LostReplies.lost(TABLE));
        assertTrue(LostReplies.seen(TABLE) >= 2, "applied, then applied again when re-sent");
    }

    @Test
    void aDeleteWhoseReplyIsLostIsResent() throws Exception {
        byte[] row = Bytes.toBytes("del");
        try (Table table = connection().getTable(TABLE)) {
            table.put(new Put(row).addColumn(F, Q, Bytes.toBytes("x")));
            LostReplies.armNext(TABLE, 1);
            table.delete(new Delete(row));
            assertTrue(table.get(new Get(row)).isEmpty());
        }
        assertEquals(1, LostReplies.lost(TABLE));
        assertTrue(LostReplies.seen(TABLE) >= 3, "the put, the delete, and the re-sent delete");
    }

    @Test
    void aDisarmedTableLosesNothing() throws Exception {
        try (Table table = connection().getTable(TABLE)) {
            table.put(new Put(Bytes.toBytes("calm")).addColumn(F, Q, Bytes.toBytes("x")));
        }
        assertEquals(0, LostReplies.lost(TABLE));
        assertEquals(1, LostReplies.seen(TABLE));
    }

    @Test
    void aSeededArmingLosesReproduciblyManyReplies() throws Exception {
        LostReplies.arm(TABLE, 0.5, 42);
        try (Table table = connection().getTable(TABLE)) {
            for (int i = 0; i < 20; i++) {
                table.put(new Put(Bytes.toBytes("seeded" + i)).addColumn(F, Q, Bytes.toBytes(i)));
            }
            for (int i = 0; i < 20; i++) {
                assertFalse(table.get(new Get(Bytes.toBytes("seeded" + i))).isEmpty());
            }
        }
        assertTrue(LostReplies.lost(TABLE) > 0);
    }

    @Test
    void duplicateDeliverySendsTheChosenOperationsTwice() throws Exception {
        byte[] row = Bytes.toBytes("twice");
        DuplicateDelivery duplicates = new DuplicateDelivery(operation -> operation instanceof Increment);
        try (Connection twice = duplicates.wrap(connection());
             Table table = twice.getTable(TABLE)) {
            long value = Bytes.toLong(table.increment(new Increment(row).addColumn(F, Q, 1)).getValue(F, Q));
            table.get(new Get(row));

            assertEquals(2, value, "the second delivery's answer, after both increments");
        }
        assertEquals(1, duplicates.duplicates());
    }
}
