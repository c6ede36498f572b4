package io.tidemark.testing.faults;

import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableBuilder;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicLong;
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
 * other call is passed through once.
 */
public final class DuplicateDelivery {

    private final Predicate<Object> duplicated;
    private final AtomicLong deliveries = new AtomicLong();

    /** @param duplicated which operations (the first argument of a {@link Table} method) are sent twice */
    public DuplicateDelivery(Predicate<Object> duplicated) {
        this.duplicated = duplicated;
    }

    /** {@code connection} with duplicating tables; closing the wrapper leaves {@code connection} open. */
    public Connection wrap(Connection connection) {
        return proxy(Connection.class, (self, method, args) -> {
            if (method.getName().equals("close")) {
                return null;
            }
            Object result = invoke(connection, method, args);
            if (result instanceof Table) {
                return duplicating((Table) result);
            }
            if (result instanceof TableBuilder) {
                return duplicating((TableBuilder) result);
            }
            return result;
        });
    }

    /** Tables built with their own timeouts (as commit-record writes are) duplicate too. */
    private TableBuilder duplicating(TableBuilder builder) {
        return proxy(TableBuilder.class, (self, method, args) -> {
            Object result = invoke(builder, method, args);
            if (result instanceof Table) {
                return duplicating((Table) result);
            }
            return result == builder ? self : result;
        });
    }

    /** How many operations were sent a second time so far. */
    public long duplicates() {
        return deliveries.get();
    }

    private Table duplicating(Table table) {
        return proxy(Table.class, (self, method, args) -> {
            if (args != null && args.length > 0 && duplicated.test(args[0])) {
                invoke(table, method, args);
                deliveries.incrementAndGet();
            }
            return invoke(table, method, args);
        });
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static <T> T proxy(Class<T> type, InvocationHandler handler) {
        return type.cast(Proxy.newProxyInstance(DuplicateDelivery.class.getClassLoader(), new Class<?>[] {type},
                handler));
    }
}
