package io.tidemark.tso;

import io.tidemark.committable.CommitTableAdmin;
import io.tidemark.tso.timestamp.HBaseTimestampStorage;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;

import java.io.IOException;

/** The HBase tables a TSO needs: created when missing by the HBase wiring, before the TSO competes for its lease. */
final class TsoTables {

    private TsoTables() {
    }

    static void createIfMissing(Connection connection, TsoSettings settings) throws IOException {
        new HBaseTimestampStorage(connection, settings.timestampTable()).createTableIfMissing();
        try (Admin admin = connection.getAdmin()) {
            CommitTableAdmin.createIfMissing(admin, settings.commitTable());
            CommitTableAdmin.sealWith(admin, settings.commitTable().tableName(), settings.timestampTable());
        }
    }
}
