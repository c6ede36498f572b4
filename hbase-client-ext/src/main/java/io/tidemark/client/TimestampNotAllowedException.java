package io.tidemark.client;

/**
 * A Put, Delete, Get or Scan given to a {@link TTable} carried its own timestamp or time range. Inside a transaction
 * the versions belong to Tidemark: writes are stamped with the start timestamp and reads see the snapshot.
 */
public class TimestampNotAllowedException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public TimestampNotAllowedException(String operation) {
        super(operation + " carries a user-supplied timestamp or time range; transactional operations choose versions"
                + " themselves (writes use the start timestamp, reads see the snapshot): remove the timestamp");
    }
}
