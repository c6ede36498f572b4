package io.tidemark.tso;

import io.tidemark.committable.CommitTableAdmin;
import io.tidemark.security.Authorization;
import io.tidemark.tso.timestamp.HBaseTimestampStorage;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.security.AccessDeniedException;

import java.io.IOException;
import java.util.List;
import java.util.TreeSet;

/** The HBase tables a TSO needs: created when missing by the HBase wiring, before the TSO competes for its lease. */
final class TsoTables {

    private TsoTables() {
    }

    /**
     * @throws AccessDeniedException HBase authorization refused the TSO's user what it needs; the message names the
     *     grants (docs/operations.md, step 4)
     */
    static void createIfMissing(Connection connection, TsoSettings settings) throws IOException {
        try {
            new HBaseTimestampStorage(connection, settings.timestampTable()).createTableIfMissing();
            try (Admin admin = connection.getAdmin()) {
                CommitTableAdmin.createIfMissing(admin, settings.commitTable(), settings.timestampTable());
                CommitTableAdmin.sealWith(admin, settings.commitTable().tableName(), settings.timestampTable());
            }
        } catch (IOException e) {
            AccessDeniedException denied = Authorization.deniedIn(e);
            if (denied == null) {
                throw e;
            }
            TableName commits = settings.commitTable().tableName();
            TableName timestamps = settings.timestampTable();
            StringBuilder steps = new StringBuilder();
            for (String namespace : new TreeSet<>(List.of(commits.getNamespaceAsString(),
                    timestamps.getNamespaceAsString()))) {
                steps.append(" create_namespace '").append(namespace).append("' and grant '<the TSO's user>', 'RWC',")
                        .append(" '@").append(namespace).append("';");
            }
            AccessDeniedException explained = new AccessDeniedException("the TSO cannot set up its tables "
                    + timestamps + " and " + commits + ": HBase authorization refused its user (" + denied.getMessage()
                    + "). As an HBase administrator, in the HBase shell:" + steps + " (docs/operations.md, step 4)");
            explained.initCause(e);
            throw explained;
        }
    }
}
