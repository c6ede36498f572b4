package io.tidemark.coprocessor;

import io.tidemark.table.TableDescription;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellBuilderFactory;
import org.apache.hadoop.hbase.CellBuilderType;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.TableDescriptor;

import java.io.IOException;
import java.util.List;

/**
 * Answers a Get asking for the table's {@link TableDescription}: the Tidemark part of the descriptor, for clients that
 * may read the table but not ask the master for its descriptor (HBase authorization). HBase's access control checked
 * the Get before this step runs, so only those who may read the table learn how it is laid out. First in the pipeline:
 * the description is given while the table is bulk loaded, too, so that clients can say why they are refused.
 */
final class TableDescriptionStep implements RegionStep {

    private final TableDescriptor table;

    TableDescriptionStep(TableDescriptor table) {
        this.table = table;
    }

    @Override
    public boolean preGet(Get get, List<Cell> result) throws IOException {
        if (!TableDescription.isRequest(get)) {
            return false;
        }
        result.add(CellBuilderFactory.create(CellBuilderType.DEEP_COPY).setRow(get.getRow())
                .setFamily(table.getColumnFamilies()[0].getName()).setQualifier(TableDescription.QUALIFIER)
                .setTimestamp(HConstants.LATEST_TIMESTAMP).setType(Cell.Type.Put)
                .setValue(TableDescription.encode(table)).build());
        return true;
    }
}
