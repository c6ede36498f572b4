package io.tidemark.client.tso;

import io.netty.util.collection.LongObjectHashMap;
import io.netty.util.collection.LongObjectMap;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/** Requests written to one connection and not answered yet, by request id. Only the connection's event loop uses it. */
final class InFlightRequests {

    private final LongObjectHashMap<TsoRequest<?>> byId = new LongObjectHashMap<>();

    void add(TsoRequest<?> request) {
        byId.put(request.requestId(), request);
    }

    /** The request with this id, removed; null when it is unknown (e.g. it timed out before the reply came). */
    TsoRequest<?> remove(long requestId) {
        return byId.remove(requestId);
    }

    /** Fails, with a fresh exception each, every request whose deadline has passed; forgets cancelled ones. */
    void expire(long nowNanos, Supplier<TsoUnavailableException> timeout) {
        List<TsoRequest<?>> overdue = null;
        for (LongObjectMap.PrimitiveEntry<TsoRequest<?>> entry : byId.entries()) {
            TsoRequest<?> request = entry.value();
            if (request.isDone() || request.isOverdue(nowNanos)) {
                if (overdue == null) {
                    overdue = new ArrayList<>();
                }
                overdue.add(request);
            }
        }
        if (overdue != null) {
            for (TsoRequest<?> request : overdue) {
                byId.remove(request.requestId());
                if (!request.isDone()) {
                    request.fail(timeout.get());
                }
            }
        }
    }

    boolean isEmpty() {
        return byId.isEmpty();
    }

    /** Removes every request and hands each to {@code action}. */
    void removeAll(Consumer<TsoRequest<?>> action) {
        List<TsoRequest<?>> all = new ArrayList<>(byId.values());
        byId.clear();
        all.forEach(action);
    }
}
