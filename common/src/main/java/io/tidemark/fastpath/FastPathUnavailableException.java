package io.tidemark.fastpath;

import org.apache.hadoop.hbase.DoNotRetryIOException;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The region server cannot mint a fast-path version right now: the room between two TSO timestamps is used up for
 * this row, or the region was opened recently and does not know how far generic readers have read. Nothing was
 * written. The client falls back to the generic path once: it takes a fresh timestamp from the TSO (a BEGIN) after
 * this refusal and sends it with the retried operation ({@link FastPathProtocol#FRESH_TIMESTAMP}), together with the
 * {@link #incarnation()} of the region that refused ({@link FastPathProtocol#INCARNATION}); {@code FastPathTable}
 * does this automatically.
 *
 * <p>The incarnation travels in the message, as {@code [tm.fp.incarnation=<16 hex digits>]}: HBase re-creates a
 * remote exception on the client from its class name and message only.
 */
public class FastPathUnavailableException extends DoNotRetryIOException {

    private static final long serialVersionUID = 1L;
    private static final String TAG = "tm.fp.incarnation=";
    private static final Pattern INCARNATION = Pattern.compile(Pattern.quote("[" + TAG) + "([0-9a-f]{16})]");

    private final long incarnation;

    /** HBase re-creates remote exceptions through this constructor; the incarnation is read back from the message. */
    public FastPathUnavailableException(String message) {
        super(message);
        Matcher m = INCARNATION.matcher(message == null ? "" : message);
        this.incarnation = m.find() ? Long.parseUnsignedLong(m.group(1), 16) : 0;
    }

    /** A refusal by the region incarnation {@code incarnation} (never 0). */
    public static FastPathUnavailableException refusal(String reason, long incarnation) {
        if (incarnation == 0) {
            throw new IllegalArgumentException("a region incarnation is never 0");
        }
        return new FastPathUnavailableException(reason + " [" + TAG
                + String.format(Locale.ROOT, "%016x", incarnation) + "]");
    }

    /** The refusing region's incarnation, to send with the fresh timestamp; 0 when the message names none. */
    public long incarnation() {
        return incarnation;
    }
}
