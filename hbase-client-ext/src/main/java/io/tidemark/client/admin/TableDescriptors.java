package io.tidemark.client.admin;

import io.tidemark.security.Authorization;
import io.tidemark.table.TableDescription;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.security.AccessDeniedException;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

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
            return orExplained(describedByRegionServer(table), table.getName(), denied, e);
        }
    }

    /** {@link #of(Table)} without blocking: the future fails with the same exceptions. */
    public static CompletableFuture<TableDescriptor> of(AsyncTable<?> table) {
        return table.getDescriptor().handle((descriptor, failure) -> {
            if (failure == null) {
                return CompletableFuture.completedFuture(descriptor);
            }
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            AccessDeniedException denied = Authorization.deniedIn(cause);
            if (denied == null) {
                return CompletableFuture.<TableDescriptor>failedFuture(cause);
            }
            return table.get(TableDescription.request()).thenApply(answer -> {
                try {
                    return orExplained(TableDescription.fromAnswer(answer), table.getName(), denied, cause);
                } catch (IOException e) {
                    throw new CompletionException(e);
                }
            });
        }).thenCompose(f -> f);
    }

    /** {@code described}, or when the table has no observer to describe it, what to grant or attach. */
    private static TableDescriptor orExplained(@Nullable TableDescriptor described, TableName table,
            AccessDeniedException denied, Throwable cause) throws AccessDeniedException {
        if (described != null) {
            return described;
        }
        AccessDeniedException explained = new AccessDeniedException("cannot read the descriptor of table "
                + table.getNameAsString() + ": HBase shows it only to users with ADMIN or CREATE on the table ("
                + denied.getMessage() + "), and the table has no Tidemark observer to describe it to its readers."
                + " Attach one with ./tidemark table enable " + table.getNameAsString() + " (docs/coprocessors.md)");
        explained.initCause(cause);
        throw explained;
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
