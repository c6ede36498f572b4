package io.tidemark.testing.faults;

import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Table;

import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Client-side interception: a {@link Connection} whose {@link Table}s run an action just before a chosen operation is
 * sent, on the calling thread. Stages what happens while a request is on its way, e.g. a region reopening between a
 * client's decision to retry and the retry's arrival (as when HBase's client re-sends a request to a region's new
 * location).
 *
 * <pre>{@code
 * BeforeDelivery hold = new BeforeDelivery(op -> op instanceof Get && isTheRetry((Get) op), op -> reopenRegion());
 * Connection held = hold.wrap(connection);   // closing it closes nothing
 * }</pre>
 */
public final class BeforeDelivery {

    private final Predicate<Object> chosen;
    private final Consumer<Object> action;

    /**
     * @param chosen which operations (the first argument of a {@link Table} method) wait for the action
     * @param action runs with the chosen operation before it is sent
     */
    public BeforeDelivery(Predicate<Object> chosen, Consumer<Object> action) {
        this.chosen = chosen;
        this.action = action;
    }

    /** {@code connection} with intercepting tables; closing the wrapper leaves {@code connection} open. */
    public Connection wrap(Connection connection) {
        return TableDecorator.wrap(connection, this::intercepting);
    }

    private Table intercepting(Table table) {
        return TableDecorator.proxy(Table.class, (self, method, args) -> {
            if (args != null && args.length > 0 && chosen.test(args[0])) {
                action.accept(args[0]);
            }
            return TableDecorator.invoke(table, method, args);
        });
    }
}
