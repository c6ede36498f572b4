package io.tidemark.client;

import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Table;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks, once per table, that every column family keeps enough versions for snapshot reads. Remembers the tables
 * that passed, so only the first touch of a table pays for reading its descriptor.
 */
final class TransactionalTableCheck {

    private final int minVersions;
    private final Set<TableName> passed = ConcurrentHashMap.newKeySet();

    TransactionalTableCheck(int minVersions) {
        this.minVersions = minVersions;
    }

    void check(Table table) throws IOException {
        TableName name = table.getName();
        if (passed.contains(name)) {
            return;
        }
        for (ColumnFamilyDescriptor family : table.getDescriptor().getColumnFamilies()) {
            if (family.getMaxVersions() < minVersions) {
                throw new TableNotTransactionalException(name, family.getNameAsString(), family.getMaxVersions(),
                        minVersions);
            }
        }
        passed.add(name);
    }
}
