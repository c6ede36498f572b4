package io.tidemark.client.admin;

import io.tidemark.security.Authorization;
import io.tidemark.table.TableDescription;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.security.AccessDeniedException;
import org.jspecify.annotations.Nullable;

import java.io.IOException;

/**
 * A table's descriptor, as a Tidemark client may read it. With HBase authorization on, the master gives it only to
 * users with ADMIN or CREATE on the table, which applications, read-only users and the sweeper do not hold; the table's
 * Tidemark observer then describes the table to whoever may read it ({@link TableDescription}, docs/security.md).
 */
public final class TableDescriptors {

    private TableDescriptors() {
    }

    /**
     * The descriptor of {@code table}: the master's, or where it is denied, the description by the table's observer.
     *
     * @throws AccessDeniedException the master denied it and the table has no Tidemark observer to describe it; the
     *     message says what to grant or attach
     */
    public static TableDescriptor of(Table table) throws IOException {
        try {
            return table.getDescriptor();
        } catch (IOException e) {
            AccessDeniedException denied = Authorization.deniedIn(e);
            if (denied == null) {
                throw e;
            }
            TableDescriptor described = describedByRegionServer(table);
            if (described == null) {
                AccessDeniedException explained = new AccessDeniedException("cannot read the descriptor of table "
                        + table.getName().getNameAsString() + ": HBase shows it only to users with ADMIN or CREATE"
                        + " on the table (" + denied.getMessage() + "), and the table has no Tidemark observer to"
                        + " describe it to its readers. Attach one with ./tidemark table enable "
                        + table.getName().getNameAsString() + " (docs/coprocessors.md)");
                explained.initCause(e);
                throw explained;
            }
            return described;
        }
    }

    /**
     * The description of {@code table} by its Tidemark observer, or null when it has none.
     *
     * @throws AccessDeniedException this user may not read the table
     */
    public static @Nullable TableDescriptor describedByRegionServer(Table table) throws IOException {
        return TableDescription.fromAnswer(table.get(TableDescription.request()));
    }
}
