package io.tidemark.chaos.fault;

import io.tidemark.fastpath.FastPathRequest;
import io.tidemark.testing.faults.DuplicateDelivery;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;

import java.util.Random;

/**
 * Lost replies of fast-path writes, for the clients of this JVM: while armed, a share of their fast-path writes
 * (puts, deletes, conditional writes, check-and-mutates, increments; each travels as one Get) is delivered twice, the
 * client getting the second answer, exactly as when HBase re-sends a request whose reply was lost. A region-side
 * post-hook cannot lose these replies: the fast-path observer answers the Get itself.
 */
public final class FastPathDuplicates {

    private final DuplicateDelivery delivery = new DuplicateDelivery(this::duplicate);
    private volatile double probability;
    private volatile Random random = new Random(0);

    /** {@code connection} whose tables deliver armed fast-path writes twice. */
    public Connection wrap(Connection connection) {
        return delivery.wrap(connection);
    }

    void arm(double share, long seed) {
        random = new Random(seed);
        probability = share;
    }

    void disarm() {
        probability = 0;
    }

    long duplicated() {
        return delivery.duplicates();
    }

    private boolean duplicate(Object operation) {
        double p = probability;
        if (p <= 0 || !(operation instanceof Get get)) {
            return false;
        }
        if (!FastPathRequest.isFastPathWrite(get)) {
            return false;
        }
        synchronized (this) {
            return random.nextDouble() < p;
        }
    }
}
