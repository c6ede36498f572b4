package io.tidemark.committable;

import io.tidemark.certificate.DecisionKey;
import io.tidemark.testing.TestCluster;
import io.tidemark.timestamp.TimestampTableSchema;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The commit-record guard's view of the TSOs' decision keys, read from a real timestamp table on a clock the test
 * moves: the key of a TSO that took over is found as soon as it asks, even right after its predecessor's key was read,
 * while epochs nobody recorded (forged ones) read the table at most once in each interval.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class TimestampTableKeysTest {

    private static final AtomicInteger TABLES = new AtomicInteger();
    private static final SecureRandom RANDOM = new SecureRandom();

    private final AtomicLong clock = new AtomicLong();
    private TableName table;

    @BeforeEach
    void createTimestampTable() throws IOException {
        table = TableName.valueOf("keys_" + TABLES.incrementAndGet());
        try (Admin admin = TestCluster.connection().getAdmin()) {
            admin.createTable(TableDescriptorBuilder.newBuilder(table)
                    .setColumnFamily(ColumnFamilyDescriptorBuilder.of(TimestampTableSchema.FAMILY)).build());
        }
    }

    @AfterEach
    void dropTimestampTable() throws IOException {
        TestCluster.drop(table);
    }

    @Test
    void theKeyOfATsoThatTookOverIsFoundRightAfterItsPredecessorsWasRead() throws IOException {
        tso().record(DecisionKey.generate(1, RANDOM));
        TimestampTableKeys guard = guard();
        assertNotNull(guard.ofEpoch(1), "the first TSO's key");

        tso().record(DecisionKey.generate(2, RANDOM));
        advanceMillis(100);
        assertNotNull(guard.ofEpoch(2), "the key of the TSO that took over, 100 ms after its predecessor's was read");
    }

    @Test
    void anEpochNobodyRecordedReadsTheTableAtMostOnceInEachInterval() throws IOException {
        tso().record(DecisionKey.generate(1, RANDOM));
        tso().record(DecisionKey.generate(3, RANDOM));
        TimestampTableKeys guard = guard();
        assertNotNull(guard.ofEpoch(3));

        advanceMillis(100);
        assertNull(guard.ofEpoch(9), "a forged newer epoch reads the table, and finds nothing");
        tso().record(DecisionKey.generate(4, RANDOM));
        advanceMillis(10);
        assertNull(guard.ofEpoch(4), "within 50 ms of the last read, a newer epoch is not read again");
        advanceMillis(50);
        assertNotNull(guard.ofEpoch(4), "50 ms after the last read it is");

        tso().record(DecisionKey.generate(2, RANDOM));
        advanceMillis(100);
        assertNull(guard.ofEpoch(2), "an unknown epoch below the newest key is read again only after a second");
        advanceMillis(1000);
        assertNotNull(guard.ofEpoch(2));
    }

    private TimestampTableKeys tso() {
        return new TimestampTableKeys(TestCluster.connection(), table);
    }

    private TimestampTableKeys guard() {
        return new TimestampTableKeys(TestCluster.connection(), table, clock::get);
    }

    private void advanceMillis(long millis) {
        clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(millis));
    }
}
