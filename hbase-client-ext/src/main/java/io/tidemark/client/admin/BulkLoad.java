package io.tidemark.client.admin;

import io.tidemark.client.TimestampNotAllowedException;
import io.tidemark.encoding.CellEncoding;
import io.tidemark.fastpath.FastPathErrors;
import io.tidemark.table.TableLoad;
import io.tidemark.table.TableLoadingException;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A bulk load into a transactional table, begun by {@link TidemarkAdmin#beginLoad} (docs/api.md, "Bulk loads"). Every
 * cell written through it is committed at the load's commit timestamp L ({@link #commitTimestamp()}): it is stored at
 * version L together with its shadow cell, in the same row mutation, so no reader ever resolves it through the commit
 * table. Nothing loaded is visible while the load runs (transactional reads of the table are refused); after
 * {@link #finish()} every snapshot above L sees all of it and every snapshot below L none of it.
 *
 * <p>{@link #close()} without {@code finish()} leaves the table loading: a crashed or abandoned load is resumed by
 * {@code beginLoad} with the same L (loading the same Puts again is harmless) or ended by
 * {@link TidemarkAdmin#finishLoad} ({@code ./tidemark table finish-load <table>}). Meant for one thread at a time,
 * like an HBase {@code Table}; several loaders may each hold a {@code BulkLoad} of the same load.
 */
public final class BulkLoad implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BulkLoad.class);

    private final TidemarkAdmin admin;
    private final TableName tableName;
    private final Table table;
    private final long commitTimestamp;
    private boolean finished;
    private boolean closed;

    BulkLoad(TidemarkAdmin admin, TableName tableName, Table table, long commitTimestamp) {
        this.admin = admin;
        this.tableName = tableName;
        this.table = table;
        this.commitTimestamp = commitTimestamp;
    }

    /** The load's commit timestamp L: the version of every loaded cell and the commit timestamp of its shadow cell. */
    public long commitTimestamp() {
        return commitTimestamp;
    }

    public TableName tableName() {
        return tableName;
    }

    /** Writes {@code put}'s cells committed at L; see {@link #markPutsAsCommitted}. */
    public void markPutAsCommitted(Put put) throws IOException {
        markPutsAsCommitted(Collections.singletonList(put));
    }

    /**
     * Writes every cell of {@code puts} at version L with its shadow cell (commit timestamp L), one row mutation per
     * Put, so each row's cells appear committed together. Puts are checked before anything is written.
     *
     * @throws TimestampNotAllowedException a Put or one of its cells carries a timestamp: versions belong to the load
     * @throws IllegalArgumentException a Put is empty, holds cells other than puts, or uses a qualifier Tidemark
     *     reserves
     * @throws IllegalStateException the load was finished or closed
     * @throws TableLoadingException the table is no longer loading at L (the load was finished, or begun again,
     *     elsewhere): the region servers refused the Puts, and the application must load them again in a new load
     */
    public void markPutsAsCommitted(List<Put> puts) throws IOException {
        checkOpen("write");
        List<Put> committed = new ArrayList<>(puts.size());
        for (Put put : puts) {
            committed.add(committedAtLoad(put));
        }
        try {
            table.put(committed);
        } catch (IOException e) {
            TableLoadingException refused = FastPathErrors.find(e, TableLoadingException.class);
            throw refused != null ? refused : e;
        }
    }

    private Put committedAtLoad(Put put) {
        String row = Bytes.toStringBinary(put.getRow());
        if (put.getTimestamp() != HConstants.LATEST_TIMESTAMP) {
            throw new TimestampNotAllowedException("bulk-load Put of row " + row);
        }
        if (put.isEmpty()) {
            throw new IllegalArgumentException("bulk-load Put of row " + row + " holds no cell; add columns to it");
        }
        Put loaded = new Put(put.getRow(), commitTimestamp);
        byte[] shadow = CellEncoding.encodeCommitTimestamp(commitTimestamp);
        for (List<Cell> cells : put.getFamilyCellMap().values()) {
            for (Cell cell : cells) {
                if (cell.getTimestamp() != HConstants.LATEST_TIMESTAMP) {
                    throw new TimestampNotAllowedException("bulk-load Put of row " + row);
                }
                if (cell.getType() != Cell.Type.Put) {
                    throw new IllegalArgumentException("bulk-load Put of row " + row + " holds a " + cell.getType()
                            + " cell; a load only writes values");
                }
                byte[] family = CellUtil.cloneFamily(cell);
                byte[] qualifier = CellUtil.cloneQualifier(cell);
                CellEncoding.checkUserQualifier(qualifier);
                loaded.addColumn(family, qualifier, commitTimestamp, CellUtil.cloneValue(cell));
                loaded.addColumn(family, CellEncoding.shadowQualifier(qualifier), commitTimestamp, shadow);
            }
        }
        loaded.setDurability(put.getDurability());
        TableLoad.mark(loaded, commitTimestamp);
        return loaded;
    }

    /**
     * Ends the load: the table is no longer marked as loading, its regions reopen, and transactions read and write it
     * again. Every transaction whose snapshot is above L sees every loaded cell; those below L see none.
     *
     * @throws TableLoadingException the table is no longer loading at L (finished, or begun again,
     *     elsewhere); nothing was changed
     */
    public void finish() throws IOException {
        checkOpen("finish");
        admin.finishLoad(tableName, commitTimestamp);
        finished = true;
    }

    private void checkOpen(String action) {
        if (finished || closed) {
            throw new IllegalStateException("cannot " + action + ": the bulk load of " + tableName.getNameAsString()
                    + " at " + commitTimestamp + " was " + (finished ? "finished" : "closed")
                    + "; begin a new load with TidemarkAdmin.beginLoad");
        }
    }

    /** Releases the table; without {@link #finish()} the table stays loading (see the class comment). */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        if (!finished) {
            LOG.warn("Bulk load of {} at {} closed without finish: the table stays loading (transactional reads and"
                    + " writes refused) until the load is begun again and finished, or ./tidemark table finish-load {}",
                    tableName.getNameAsString(), commitTimestamp, tableName.getNameAsString());
        }
        table.close();
    }
}
