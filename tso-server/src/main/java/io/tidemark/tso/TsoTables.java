package io.tidemark.tso;

import io.tidemark.committable.CommitTableAdmin;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.tso.timestamp.HBaseTimestampStorage;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;

import java.io.IOException;

/** The HBase tables a TSO needs: created when missing by the HBase wiring, before the TSO competes for its lease. */
final class TsoTables {

    private TsoTables() {
    }

    static void createIfMissing(Connection connection, TidemarkConfig config, TsoSettings settings)
            throws IOException {
        try (Admin admin = connection.getAdmin()) {
            CommitTableAdmin.createIfMissing(admin, config);
        }
        new HBaseTimestampStorage(connection, settings.timestampTable()).createTableIfMissing();
    }
}
