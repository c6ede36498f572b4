package io.tidemark.chaos.history;

/**
 * When a generic transaction asked the TSO and heard back, in microseconds of the machine's wall clock (every client
 * process of a run shares it); 0 where unknown (an older history, a commit never answered).
 *
 * @param beginAsked just before BEGIN was sent
 * @param beginAnswered just after the start timestamp came back
 * @param commitAsked just before the commit was asked for
 * @param commitAnswered just after the client was told the outcome
 */
public record Timing(long beginAsked, long beginAnswered, long commitAsked, long commitAnswered) {

    public static final Timing UNKNOWN = new Timing(0, 0, 0, 0);

    /** Now, in microseconds since 1970, as history lines record it. */
    public static long nowMicros() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
    }
}
