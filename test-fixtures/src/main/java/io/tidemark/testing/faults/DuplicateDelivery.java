package io.tidemark.testing.faults;

import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Table;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Client-side duplicate delivery: a {@link Connection} whose {@link Table}s send each chosen operation twice and
 * return the second answer, as HBase's client does when the first attempt's reply is lost and it re-sends. Needed for
 * operations no server-side post-hook sees, such as fast-path Gets (the fast-path observer answers them and bypasses
 * the rest of the chain); for mutations prefer {@link LostReplyInjector}, which loses real replies.
 *
 * <pre>{@code
 * DuplicateDelivery duplicates = new DuplicateDelivery(operation -> operation instanceof Get);
 * Connection twice = duplicates.wrap(connection);   // use like the real one; closing it closes nothing
 * }</pre>
 *
 * Every {@link Table} method whose first argument matches the predicate is invoked twice on the real table; every
 * other call is passed through once. Tables from {@code getTableBuilder(...).build()} duplicate too.
 */
public final class DuplicateDelivery {

    private final Predicate<Object> duplicated;
    private final Consumer<Object> betweenDeliveries;
    private final AtomicLong deliveries = new AtomicLong();

    /** @param duplicated which operations (the first argument of a {@link Table} method) are sent twice */
    public DuplicateDelivery(Predicate<Object> duplicated) {
        this(duplicated, operation -> { });
    }

    /**
     * @param duplicated which operations (the first argument of a {@link Table} method) are sent twice
     * @param betweenDeliveries runs with the operation after its first delivery and before the second, on the
     *     calling thread: what happens meanwhile, e.g. another client's write landing before the re-send
     */
    public DuplicateDelivery(Predicate<Object> duplicated, Consumer<Object> betweenDeliveries) {
        this.duplicated = duplicated;
        this.betweenDeliveries = betweenDeliveries;
    }

    /** {@code connection} with duplicating tables; closing the wrapper leaves {@code connection} open. */
    public Connection wrap(Connection connection) {
        return TableDecorator.wrap(connection, this::duplicating);
    }

    /** How many operations were sent a second time so far. */
    public long duplicates() {
        return deliveries.get();
    }

    private Table duplicating(Table table) {
        return TableDecorator.proxy(Table.class, (self, method, args) -> {
            if (args != null && args.length > 0 && duplicated.test(args[0])) {
                TableDecorator.invoke(table, method, args);
                betweenDeliveries.accept(args[0]);
                deliveries.incrementAndGet();
            }
            return TableDecorator.invoke(table, method, args);
        });
    }
}
