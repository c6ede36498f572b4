package io.tidemark.ycsb;

import site.ycsb.ByteIterator;
import site.ycsb.Client;
import site.ycsb.DB;
import site.ycsb.RandomByteIterator;
import site.ycsb.Status;
import site.ycsb.Workload;
import site.ycsb.WorkloadException;
import site.ycsb.measurements.Measurements;
import site.ycsb.workloads.CoreWorkload;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The paper's workload for YCSB: one YCSB operation is one whole Tidemark transaction of k reads and updates. k
 * follows {@value TransactionSizes#PROPERTY} (by default Zipfian, theta 0.99, 1 to 10), keys are Zipfian with theta
 * {@value #KEY_THETA} (default {@value #KEY_THETA_DEFAULT}) or uniform, and each operation is a read with probability
 * {@value #READ_PROPORTION} (default {@value #READ_PROPORTION_DEFAULT}), otherwise an update. Loading is
 * CoreWorkload's.
 *
 * <p>YCSB still measures every read and update (READ, UPDATE). On top, each transaction's latency, from begin to the
 * end of its commit, goes to {@code TX-<k>} and {@code TX-ALL} when it committed, to {@code TX-ABORTED} when it
 * aborted and to {@code TX-FAILED} on an error; {@code TX-ALL} also counts every outcome ({@code Return=OK},
 * {@code Return=ABORTED}, {@code Return=ERROR}). YCSB's throughput is then transactions per second.
 *
 * <p>In {@code tidemark.mode=fastpath}, a transaction of one operation runs as one fast-path operation (no TSO
 * round trip); longer ones are generic transactions.
 *
 * <p>Runs only with {@code -db io.tidemark.ycsb.TidemarkClient}, whose instance on the client thread opens and
 * commits the transactions.
 */
public class TransactionalWorkload extends CoreWorkload {

    public static final String KEY_THETA = "tidemark.keytheta";
    public static final String KEY_THETA_DEFAULT = "0.8";
    public static final String READ_PROPORTION = "tidemark.readproportion";
    public static final String READ_PROPORTION_DEFAULT = "0.5";

    static final String ALL = "TX-ALL";
    static final String ABORTED = "TX-ABORTED";
    static final String FAILED = "TX-FAILED";

    private TransactionSizes sizes;
    private KeyChooser keys;
    private double readProportion;
    private List<String> fields;
    private Measurements measurements;

    /** Per client thread: the binding instance that runs this thread's transactions. */
    private static final class ThreadState {
        final TidemarkClient client;

        ThreadState(TidemarkClient client) {
            this.client = client;
        }
    }

    @Override
    public void init(Properties p) throws WorkloadException {
        super.init(p);
        try {
            sizes = TransactionSizes.parse(p.getProperty(TransactionSizes.PROPERTY));
            readProportion = proportion(p, READ_PROPORTION, READ_PROPORTION_DEFAULT);
            keys = keyChooser(p);
        } catch (IllegalArgumentException e) {
            throw new WorkloadException("TransactionalWorkload: " + e.getMessage(), e);
        }
        if (Boolean.parseBoolean(p.getProperty(DATA_INTEGRITY_PROPERTY, DATA_INTEGRITY_PROPERTY_DEFAULT))) {
            throw new WorkloadException("TransactionalWorkload: " + DATA_INTEGRITY_PROPERTY + "=true is not supported:"
                    + " its updates write random values; use CoreWorkload to check data integrity");
        }
        String prefix = p.getProperty(FIELD_NAME_PREFIX, FIELD_NAME_PREFIX_DEFAULT);
        List<String> names = new ArrayList<>();
        for (long i = 0; i < fieldcount; i++) {
            names.add(prefix + i);
        }
        fields = Collections.unmodifiableList(names);
        measurements = Measurements.getMeasurements();
    }

    @Override
    public Object initThread(Properties p, int mythreadid, int threadcount) throws WorkloadException {
        TidemarkClient client = TidemarkClient.onCurrentThread();
        if (client == null) {
            throw new WorkloadException("TransactionalWorkload runs its transactions through the Tidemark binding:"
                    + " run YCSB with -db " + TidemarkClient.class.getName());
        }
        return new ThreadState(client);
    }

    @Override
    public boolean doTransaction(DB db, Object threadState) {
        TidemarkClient client = ((ThreadState) threadState).client;
        int size = sizes.next();
        long start = System.nanoTime();
        // On the fast path, one operation outside an explicit transaction is a whole transaction: no TSO round trip.
        Status status = size == 1 && client.mode().usesFastPath() ? runOperations(db, 1)
                : runTransaction(client, db, size);
        record(size, status, (int) ((System.nanoTime() - start) / 1000));
        return true;
    }

    private Status runTransaction(TidemarkClient client, DB db, int size) {
        Status status = client.beginTransaction();
        if (status.isOk()) {
            status = runOperations(db, size);
            if (status.isOk()) {
                status = client.commitTransaction();
            } else {
                client.rollbackTransaction();
            }
        }
        return status;
    }

    /** @return OK, or the status of the first operation that failed (a missing record is not a failure) */
    private Status runOperations(DB db, int size) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < size; i++) {
            String key = buildKeyName(keys.next());
            Status status = random.nextDouble() < readProportion
                    ? db.read(table, key, fieldsToRead(random), new HashMap<>())
                    : db.update(table, key, valuesToWrite(random));
            if (!status.isOk() && !status.equals(Status.NOT_FOUND)) {
                return status;
            }
        }
        return Status.OK;
    }

    private void record(int size, Status status, int latencyMicros) {
        if (status.isOk()) {
            measurements.measure("TX-" + size, latencyMicros);
            measurements.measure(ALL, latencyMicros);
        } else {
            measurements.measure(status.equals(TidemarkClient.ABORTED) ? ABORTED : FAILED, latencyMicros);
        }
        measurements.reportStatus(ALL, status);
    }

    private Set<String> fieldsToRead(ThreadLocalRandom random) {
        return readallfields ? null : Collections.singleton(fields.get(random.nextInt(fields.size())));
    }

    private Map<String, ByteIterator> valuesToWrite(ThreadLocalRandom random) {
        Map<String, ByteIterator> values = new HashMap<>();
        if (writeallfields) {
            for (String field : fields) {
                values.put(field, new RandomByteIterator(fieldlengthgenerator.nextValue().longValue()));
            }
        } else {
            values.put(fields.get(random.nextInt(fields.size())),
                    new RandomByteIterator(fieldlengthgenerator.nextValue().longValue()));
        }
        return values;
    }

    /** The records loaded by this client, as CoreWorkload computes them: insertstart and insertcount. */
    private KeyChooser keyChooser(Properties p) {
        long first = Long.parseLong(p.getProperty(Workload.INSERT_START_PROPERTY,
                Workload.INSERT_START_PROPERTY_DEFAULT));
        long count = Long.parseLong(p.getProperty(Workload.INSERT_COUNT_PROPERTY,
                String.valueOf(recordcount - first)));
        if (count < 1) {
            throw new IllegalArgumentException("there are no records to run transactions on: "
                    + Client.RECORD_COUNT_PROPERTY + "=" + recordcount + ", " + Workload.INSERT_START_PROPERTY + "="
                    + first + "; load some and set " + Client.RECORD_COUNT_PROPERTY + " to their number");
        }
        String distribution = p.getProperty(REQUEST_DISTRIBUTION_PROPERTY, "zipfian").trim().toLowerCase(Locale.ROOT);
        switch (distribution) {
            case "zipfian":
                return KeyChooser.zipfian(first, count, theta(p));
            case "uniform":
                return KeyChooser.uniform(first, count);
            default:
                throw new IllegalArgumentException(REQUEST_DISTRIBUTION_PROPERTY + " is '" + distribution + "'; this"
                        + " workload supports zipfian (theta from " + KEY_THETA + ") and uniform");
        }
    }

    private static double theta(Properties p) {
        String raw = p.getProperty(KEY_THETA, KEY_THETA_DEFAULT);
        double theta = number(KEY_THETA, raw);
        // YCSB's Zipfian generator divides by (1 - theta).
        if (!(theta > 0) || theta == 1.0 || Double.isInfinite(theta)) {
            throw new IllegalArgumentException(KEY_THETA + " is '" + raw + "'; use a Zipf parameter above 0 other"
                    + " than exactly 1 (0.8 in the paper; 0.999 or 1.001 for about 1)");
        }
        return theta;
    }

    private static double proportion(Properties p, String key, String defaultValue) {
        String raw = p.getProperty(key, defaultValue);
        double value = number(key, raw);
        if (!(value >= 0 && value <= 1)) {
            throw new IllegalArgumentException(key + " is '" + raw + "'; use a fraction from 0 to 1");
        }
        return value;
    }

    private static double number(String key, String raw) {
        try {
            return Double.parseDouble(raw.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " is '" + raw + "', which is not a number", e);
        }
    }
}
