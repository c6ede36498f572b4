package io.tidemark.client;

import com.google.protobuf.Descriptors;
import com.google.protobuf.Message;
import com.google.protobuf.Service;
import io.tidemark.compat.ForwardingTableBase;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.coprocessor.Batch;
import org.apache.hadoop.hbase.filter.CompareFilter;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.io.TimeRange;
import org.apache.hadoop.hbase.ipc.CoprocessorRpcChannel;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * HBase's own {@link Table}, transactional: code written against {@code Table} runs unchanged inside the transaction
 * its {@link TransactionContext} names (a fixed one, or the calling thread's with {@link PerThreadTransactions}).
 * Reads see that transaction's snapshot plus its own writes; writes are tentative until it commits; conflicts are
 * detected at commit. Each call is the {@link TTable} operation of the same name.
 *
 * <p>What cannot be transactional fails with an exception that says why: user timestamps and time ranges
 * ({@link TimestampNotAllowedException}), and coprocessor service calls ({@link UnsupportedOperationException}: they
 * run on the region servers outside any snapshot). Table metadata, region locations and RPC timeouts are those of
 * the underlying table, which the TTable operations use too. docs/api.md lists every method. Like an HBase
 * {@code Table}, not meant to be shared between threads.
 */
public final class TransactionalTable extends ForwardingTableBase {

    private static final String COPROCESSOR_SERVICES_REFUSED = "coprocessor service calls run on the region servers"
            + " outside any transaction's snapshot, so Tidemark cannot make them transactional; call them on the"
            + " Connection's own Table";

    private final Table raw;
    private final TTable table;
    private final TransactionContext context;

    private TransactionalTable(Table raw, TTable table, TransactionContext context) {
        this.raw = raw;
        this.table = table;
        this.context = context;
    }

    /**
     * A transactional {@code Table} for {@code tableName}, running every operation in {@code context}'s transaction.
     */
    public static TransactionalTable of(Connection connection, TableName tableName, TransactionContext context)
            throws IOException {
        if (context == null) {
            throw new NullPointerException("context");
        }
        Table raw = connection.getTable(tableName);
        return new TransactionalTable(raw, new TTable(raw), context);
    }

    private Transaction tx() {
        return context.current();
    }

    // --- metadata and settings: the underlying table's ---

    @Override
    public TableName getName() {
        return table.getName();
    }

    @Override
    public Configuration getConfiguration() {
        return raw.getConfiguration();
    }

    @Override
    public TableDescriptor getDescriptor() throws IOException {
        return raw.getDescriptor();
    }

    @Override
    public RegionLocator getRegionLocator() throws IOException {
        return raw.getRegionLocator();
    }

    @Override
    public long getRpcTimeout(TimeUnit unit) {
        return raw.getRpcTimeout(unit);
    }

    @Override
    public long getReadRpcTimeout(TimeUnit unit) {
        return raw.getReadRpcTimeout(unit);
    }

    @Override
    public long getWriteRpcTimeout(TimeUnit unit) {
        return raw.getWriteRpcTimeout(unit);
    }

    @Override
    public long getOperationTimeout(TimeUnit unit) {
        return raw.getOperationTimeout(unit);
    }

    @Override
    @SuppressWarnings("deprecation")
    public void setRpcTimeout(int timeoutMs) {
        raw.setRpcTimeout(timeoutMs);
    }

    @Override
    @SuppressWarnings("deprecation")
    public void setReadRpcTimeout(int timeoutMs) {
        raw.setReadRpcTimeout(timeoutMs);
    }

    @Override
    @SuppressWarnings("deprecation")
    public void setWriteRpcTimeout(int timeoutMs) {
        raw.setWriteRpcTimeout(timeoutMs);
    }

    @Override
    @SuppressWarnings("deprecation")
    public void setOperationTimeout(int timeoutMs) {
        raw.setOperationTimeout(timeoutMs);
    }

    @Override
    protected Table forwardedTable() {
        return raw;
    }

    // --- reads ---

    @Override
    public Result get(Get get) throws IOException {
        return table.get(tx(), get);
    }

    @Override
    public Result[] get(List<Get> gets) throws IOException {
        return table.get(tx(), gets);
    }

    @Override
    public boolean exists(Get get) throws IOException {
        return table.exists(tx(), get);
    }

    @Override
    public boolean[] exists(List<Get> gets) throws IOException {
        return table.exists(tx(), gets);
    }

    @Override
    public ResultScanner getScanner(Scan scan) throws IOException {
        return table.getScanner(tx(), scan);
    }

    @Override
    public ResultScanner getScanner(byte[] family) throws IOException {
        return getScanner(new Scan().addFamily(family));
    }

    @Override
    public ResultScanner getScanner(byte[] family, byte[] qualifier) throws IOException {
        return getScanner(new Scan().addColumn(family, qualifier));
    }

    // --- writes ---

    @Override
    public void put(Put put) throws IOException {
        table.put(tx(), put);
    }

    @Override
    public void put(List<Put> puts) throws IOException {
        table.put(tx(), puts);
    }

    @Override
    public void delete(Delete delete) throws IOException {
        table.delete(tx(), delete);
    }

    @Override
    public void delete(List<Delete> deletes) throws IOException {
        table.delete(tx(), deletes);
    }

    @Override
    public void batch(List<? extends Row> actions, Object[] results) throws IOException {
        table.batch(tx(), actions, results);
    }

    @Override
    public <R> void batchCallback(List<? extends Row> actions, Object[] results, Batch.Callback<R> callback)
            throws IOException {
        Object[] filled = results != null ? results : new Object[actions.size()];
        batch(actions, filled);
        try (RegionLocator locator = raw.getRegionLocator()) {
            for (int i = 0; i < actions.size(); i++) {
                byte[] row = actions.get(i).getRow();
                @SuppressWarnings("unchecked")
                R result = (R) filled[i];
                callback.update(locator.getRegionLocation(row).getRegion().getRegionName(), row, result);
            }
        }
    }

    // --- read-modify-write ---

    @Override
    public Result increment(Increment increment) throws IOException {
        return table.increment(tx(), increment);
    }

    @Override
    public Result append(Append append) throws IOException {
        return table.append(tx(), append);
    }

    @Override
    public Result mutateRow(RowMutations mutations) throws IOException {
        return table.mutateRow(tx(), mutations);
    }

    @Override
    public CheckAndMutateResult checkAndMutate(CheckAndMutate checkAndMutate) throws IOException {
        return table.checkAndMutate(tx(), checkAndMutate);
    }

    @Override
    public List<CheckAndMutateResult> checkAndMutate(List<CheckAndMutate> checkAndMutates) throws IOException {
        Transaction tx = tx();
        List<CheckAndMutateResult> results = new ArrayList<>(checkAndMutates.size());
        for (CheckAndMutate check : checkAndMutates) {
            results.add(table.checkAndMutate(tx, check));
        }
        return results;
    }

    @Override
    public boolean checkAndMutate(byte[] row, byte[] family, byte[] qualifier, CompareOperator op, byte[] value,
                                  RowMutations mutations) throws IOException {
        return checkAndMutate(condition(row, family, qualifier, op, value, null).build(mutations)).isSuccess();
    }

    @Override
    @SuppressWarnings("deprecation")
    public boolean checkAndMutate(byte[] row, byte[] family, byte[] qualifier, CompareFilter.CompareOp op,
                                  byte[] value, RowMutations mutations) throws IOException {
        return checkAndMutate(row, family, qualifier, CompareOperator.valueOf(op.name()), value, mutations);
    }

    @Override
    public CheckAndMutateBuilder checkAndMutate(byte[] row, byte[] family) {
        return new ColumnCondition(row, family);
    }

    @Override
    public CheckAndMutateWithFilterBuilder checkAndMutate(byte[] row, Filter filter) {
        return new FilterCondition(row, filter);
    }

    private static CheckAndMutate.Builder condition(byte[] row, byte[] family, byte @Nullable [] qualifier,
            @Nullable CompareOperator op, byte @Nullable [] value, @Nullable TimeRange timeRange) {
        if (qualifier == null) {
            throw new NullPointerException("qualifier: name the column the condition checks");
        }
        CheckAndMutate.Builder builder = CheckAndMutate.newBuilder(row);
        if (value == null) {
            if (op != CompareOperator.EQUAL) {
                throw new IllegalArgumentException("a condition without a value can only be EQUAL (ifNotExists)");
            }
            builder.ifNotExists(family, qualifier);
        } else {
            builder.ifMatches(family, qualifier, op, value);
        }
        return timeRange != null ? builder.timeRange(timeRange) : builder;
    }

    /** {@code checkAndMutate(row, family)}: a condition on one column, built step by step. */
    private final class ColumnCondition implements CheckAndMutateBuilder {

        private final byte[] row;
        private final byte[] family;
        private byte @Nullable [] qualifier;
        private @Nullable TimeRange timeRange;
        private @Nullable CompareOperator op;
        private byte @Nullable [] value;

        ColumnCondition(byte[] row, byte[] family) {
            this.row = row;
            this.family = family;
        }

        @Override
        public CheckAndMutateBuilder qualifier(byte[] qualifier) {
            this.qualifier = qualifier;
            return this;
        }

        @Override
        public CheckAndMutateBuilder timeRange(TimeRange timeRange) {
            this.timeRange = timeRange;
            return this;
        }

        @Override
        public CheckAndMutateBuilder ifNotExists() {
            this.op = CompareOperator.EQUAL;
            this.value = null;
            return this;
        }

        @Override
        public CheckAndMutateBuilder ifMatches(CompareOperator op, byte[] value) {
            if (value == null) {
                throw new NullPointerException("value: use ifNotExists() to check that the column is absent");
            }
            this.op = op;
            this.value = value;
            return this;
        }

        @Override
        public boolean thenPut(Put put) throws IOException {
            return then(put);
        }

        @Override
        public boolean thenDelete(Delete delete) throws IOException {
            return then(delete);
        }

        @Override
        public boolean thenMutate(RowMutations mutations) throws IOException {
            return checkAndMutate(built().build(mutations)).isSuccess();
        }

        private boolean then(Mutation mutation) throws IOException {
            CheckAndMutate.Builder builder = built();
            CheckAndMutate check = mutation instanceof Put ? builder.build((Put) mutation)
                    : builder.build((Delete) mutation);
            return checkAndMutate(check).isSuccess();
        }

        private CheckAndMutate.Builder built() {
            if (op == null) {
                throw new IllegalStateException("give the condition first: ifNotExists(), ifEquals() or ifMatches()");
            }
            return condition(row, family, qualifier, op, value, timeRange);
        }
    }

    /** {@code checkAndMutate(row, filter)}: the condition holds when the filtered row is not empty. */
    private final class FilterCondition implements CheckAndMutateWithFilterBuilder {

        private final byte[] row;
        private final Filter filter;
        private @Nullable TimeRange timeRange;

        FilterCondition(byte[] row, Filter filter) {
            this.row = row;
            this.filter = filter;
        }

        @Override
        public CheckAndMutateWithFilterBuilder timeRange(TimeRange timeRange) {
            this.timeRange = timeRange;
            return this;
        }

        @Override
        public boolean thenPut(Put put) throws IOException {
            return checkAndMutate(builder().build(put)).isSuccess();
        }

        @Override
        public boolean thenDelete(Delete delete) throws IOException {
            return checkAndMutate(builder().build(delete)).isSuccess();
        }

        @Override
        public boolean thenMutate(RowMutations mutations) throws IOException {
            return checkAndMutate(builder().build(mutations)).isSuccess();
        }

        private CheckAndMutate.Builder builder() {
            CheckAndMutate.Builder builder = CheckAndMutate.newBuilder(row).ifMatches(filter);
            return timeRange != null ? builder.timeRange(timeRange) : builder;
        }
    }

    // --- not transactional ---

    @Override
    public CoprocessorRpcChannel coprocessorService(byte[] row) {
        throw new UnsupportedOperationException(COPROCESSOR_SERVICES_REFUSED);
    }

    @Override
    public <T extends Service, R> Map<byte[], R> coprocessorService(Class<T> service, byte[] startKey, byte[] endKey,
                                                                    Batch.Call<T, R> callable) {
        throw new UnsupportedOperationException(COPROCESSOR_SERVICES_REFUSED);
    }

    @Override
    public <T extends Service, R> void coprocessorService(Class<T> service, byte[] startKey, byte[] endKey,
                                                          Batch.Call<T, R> callable, Batch.Callback<R> callback) {
        throw new UnsupportedOperationException(COPROCESSOR_SERVICES_REFUSED);
    }

    @Override
    public <R extends Message> Map<byte[], R> batchCoprocessorService(Descriptors.MethodDescriptor method,
            Message request, byte[] startKey, byte[] endKey, R responsePrototype) {
        throw new UnsupportedOperationException(COPROCESSOR_SERVICES_REFUSED);
    }

    @Override
    public <R extends Message> void batchCoprocessorService(Descriptors.MethodDescriptor method, Message request,
            byte[] startKey, byte[] endKey, R responsePrototype, Batch.Callback<R> callback) {
        throw new UnsupportedOperationException(COPROCESSOR_SERVICES_REFUSED);
    }

    /** Closes this table's HBase resources; the transaction stays as it is. */
    @Override
    public void close() throws IOException {
        table.close();
    }
}
