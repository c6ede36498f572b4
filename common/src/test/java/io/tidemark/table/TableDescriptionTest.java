package io.tidemark.table;

import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellBuilderFactory;
import org.apache.hadoop.hbase.CellBuilderType;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.CoprocessorDescriptorBuilder;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.PageFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TableDescriptionTest {

    private static final byte[] ROW = Bytes.toBytes("r");

    @Test
    void aDescriptionHoldsWhatClientsCheckAndNothingElse() throws IOException {
        TableDescriptor described = TableDescription.of(table());

        assertEquals(TableName.valueOf("accounts"), described.getTableName());
        assertEquals("tidemark:commits", described.getValue(TransactionalTableLayout.COMMIT_TABLE_KEY));
        assertEquals("4096", described.getValue(TransactionalTableLayout.CONVERTED_AT_KEY));
        assertNull(described.getValue("owner.secret"), "a table setting of someone else's");
        ColumnFamilyDescriptor f = described.getColumnFamily(Bytes.toBytes("f"));
        assertEquals(Integer.MAX_VALUE, f.getMaxVersions());
        assertEquals(HConstants.FOREVER, f.getTimeToLive());
        assertEquals(TransactionalTableLayout.TRANSACTIONAL_FAMILY_VALUE,
                f.getValue(TransactionalTableLayout.TRANSACTIONAL_FAMILY_KEY));
        assertNull(f.getValue("ENCRYPTION_KEY"), "a family's key stays in the region server");
        ColumnFamilyDescriptor g = described.getColumnFamily(Bytes.toBytes("g"));
        assertEquals(3, g.getMaxVersions());
        assertEquals(600, g.getTimeToLive());
        assertEquals(Set.of(TableFeature.SERVER_SIDE_SNAPSHOTS, TableFeature.FAST_PATH), TableFeature.of(described));
        assertTrue(described.hasCoprocessor(TransactionalTableLayout.TRANSACTIONAL_OBSERVER));
        assertFalse(described.hasCoprocessor("com.example.Audit"), "another coprocessor and its properties");
    }

    @Test
    void theAnswerOfTheObserverIsTheDescription() throws IOException {
        TableDescriptor described = TableDescription.fromAnswer(answer(TableDescription.encode(table())));
        assertEquals(TableDescription.of(table()), described);
    }

    @Test
    void aTableWithoutTheObserverAnswersNothing() throws IOException {
        assertNull(TableDescription.fromAnswer(Result.EMPTY_RESULT));
    }

    @Test
    void theRequestReadsNothingTheTableStores() {
        Get request = TableDescription.request();
        assertTrue(TableDescription.isRequest(request));
        assertTrue(request.getFilter() instanceof PageFilter
                && ((PageFilter) request.getFilter()).getPageSize() == 0, "a stored cell cannot pose as the answer");
        assertFalse(TableDescription.isRequest(new Get(ROW)));
    }

    @Test
    void anAnswerThatIsNoDescriptionIsAClearError() {
        IOException refused = assertThrows(IOException.class,
                () -> TableDescription.fromAnswer(answer(Bytes.toBytes("garbage"))));
        assertTrue(refused.getMessage().contains("description of table"), refused.getMessage());
    }

    private static TableDescriptor table() throws IOException {
        return TableDescriptorBuilder.newBuilder(TableName.valueOf("accounts"))
                .setValue(TransactionalTableLayout.COMMIT_TABLE_KEY, "tidemark:commits")
                .setValue(TransactionalTableLayout.CONVERTED_AT_KEY, "4096")
                .setValue("owner.secret", "x")
                .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("f"))
                        .setMaxVersions(Integer.MAX_VALUE)
                        .setValue(TransactionalTableLayout.TRANSACTIONAL_FAMILY_KEY,
                                TransactionalTableLayout.TRANSACTIONAL_FAMILY_VALUE)
                        .setValue("ENCRYPTION_KEY", "wrapped key").build())
                .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("g"))
                        .setMaxVersions(3).setTimeToLive(600).build())
                .setCoprocessor(CoprocessorDescriptorBuilder.newBuilder(TransactionalTableLayout.TRANSACTIONAL_OBSERVER)
                        .setProperties(Map.of(TransactionalTableLayout.FEATURES_PROPERTY,
                                TableFeature.encode(Set.of(TableFeature.SERVER_SIDE_SNAPSHOTS,
                                        TableFeature.FAST_PATH))))
                        .build())
                .setCoprocessor(CoprocessorDescriptorBuilder.newBuilder("com.example.Audit")
                        .setProperties(Map.of("audit.password", "secret")).build())
                .build();
    }

    private static Result answer(byte[] value) {
        Cell cell = CellBuilderFactory.create(CellBuilderType.DEEP_COPY).setRow(ROW).setFamily(Bytes.toBytes("f"))
                .setQualifier(TableDescription.QUALIFIER).setTimestamp(HConstants.LATEST_TIMESTAMP)
                .setType(Cell.Type.Put).setValue(value).build();
        return Result.create(List.of(cell));
    }
}
