package io.tidemark.table;

import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TableLoadTest {

    private static final long L = 42L << 12;

    @Test
    void aTableWithoutTheAttributeIsNotLoading() {
        TableLoad load = TableLoad.of(table(null));
        assertFalse(load.isLoading());
        assertEquals(0, load.commitTimestamp());
    }

    @Test
    void theAttributeNamesTheLoadsCommitTimestamp() {
        TableLoad load = TableLoad.of(table(" " + L + " "));
        assertTrue(load.isLoading());
        assertEquals(L, load.commitTimestamp());
    }

    @Test
    void zeroMeansLoadingBeforeTheCommitTimestampWasTaken() {
        TableLoad load = TableLoad.of(table("0"));
        assertTrue(load.isLoading());
        assertEquals(0, load.commitTimestamp());
    }

    @Test
    void aValueThatIsNoTimestampIsRefusedNamingTheTable() {
        for (String bad : new String[] {"soon", "-4096", "1.5"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TableLoad.of(table(bad)));
            assertTrue(e.getMessage().contains("t1") && e.getMessage().contains(TransactionalTableLayout.LOADING_AT_KEY),
                    e.getMessage());
        }
    }

    @Test
    void onlyWritesMarkedWithTheCurrentLoadsTimestampAreAccepted() {
        Put ours = marked(L);
        assertTrue(TableLoad.at(L).accepts(ours));
        assertFalse(TableLoad.at(L + 4096).accepts(ours), "a write of an earlier load");
        assertFalse(TableLoad.at(0).accepts(ours), "no commit timestamp yet");
        assertFalse(TableLoad.NONE.accepts(ours), "no load runs");
        assertFalse(TableLoad.at(L).accepts(new Put(Bytes.toBytes("r"))), "an unmarked write");
        Put garbled = new Put(Bytes.toBytes("r"));
        garbled.setAttribute(TableLoad.WRITE_ATTRIBUTE, new byte[] {1});
        assertTrue(TableLoad.isMarked(garbled));
        assertFalse(TableLoad.at(L).accepts(garbled), "a mark that is no timestamp");
    }

    private static Put marked(long commitTimestamp) {
        Put put = new Put(Bytes.toBytes("r"));
        TableLoad.mark(put, commitTimestamp);
        return put;
    }

    private static TableDescriptor table(String loadingAt) {
        TableDescriptorBuilder builder = TableDescriptorBuilder.newBuilder(TableName.valueOf("t1"));
        if (loadingAt != null) {
            builder.setValue(TransactionalTableLayout.LOADING_AT_KEY, loadingAt);
        }
        return builder.build();
    }
}
