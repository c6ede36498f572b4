package io.tidemark.client;

import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.hbase.TableName;

import java.io.IOException;

/**
 * A table cannot hold transactional data: one of its column families keeps fewer versions than Tidemark needs
 * ({@code tidemark.client.min-family-versions}). With too few versions HBase would drop committed versions that a
 * running snapshot still has to read.
 */
public class TableNotTransactionalException extends IOException {

    private static final long serialVersionUID = 1L;

    public TableNotTransactionalException(TableName table, String family, int versions, int required) {
        super("table " + table.getNameAsString() + " cannot be used transactionally: column family '" + family
                + "' keeps " + versions + " version(s), Tidemark needs at least " + required + " ("
                + TidemarkConfig.CLIENT_MIN_VERSIONS + "). Fix it in the hbase shell: alter '"
                + table.getNameAsString() + "', {NAME => '" + family + "', VERSIONS => " + required + "}");
    }
}
