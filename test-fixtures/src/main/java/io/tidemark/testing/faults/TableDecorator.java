package io.tidemark.testing.faults;

import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableBuilder;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.function.UnaryOperator;

/**
 * A {@link Connection} whose {@link Table}s, from {@code getTable} or from {@code getTableBuilder(...).build()}, are
 * replaced by decorated ones: the shared part of the client-side fault injections. Closing the wrapper leaves the
 * real connection open.
 */
final class TableDecorator {

    private TableDecorator() {
    }

    static Connection wrap(Connection connection, UnaryOperator<Table> decorate) {
        return proxy(Connection.class, (self, method, args) -> {
            if (method.getName().equals("close")) {
                return null;
            }
            Object result = invoke(connection, method, args);
            if (result instanceof Table) {
                return decorate.apply((Table) result);
            }
            if (result instanceof TableBuilder) {
                return decorating((TableBuilder) result, decorate);
            }
            return result;
        });
    }

    private static TableBuilder decorating(TableBuilder builder, UnaryOperator<Table> decorate) {
        return proxy(TableBuilder.class, (self, method, args) -> {
            Object result = invoke(builder, method, args);
            if (result instanceof Table) {
                return decorate.apply((Table) result);
            }
            return result == builder ? self : result;
        });
    }

    /** Calls {@code method} on {@code target}, throwing what the method threw. */
    static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    static <T> T proxy(Class<T> type, InvocationHandler handler) {
        return type.cast(Proxy.newProxyInstance(TableDecorator.class.getClassLoader(), new Class<?>[] {type},
                handler));
    }
}
