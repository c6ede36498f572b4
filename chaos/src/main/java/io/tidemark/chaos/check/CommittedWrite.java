package io.tidemark.chaos.check;

import io.tidemark.chaos.history.Key;
import io.tidemark.chaos.history.Txn;

/**
 * A write of a committed transaction.
 *
 * @param value the value it left ({@code null}: deleted)
 * @param readBound the writer saw exactly the commits below this bound when it wrote (first committer wins)
 */
public record CommittedWrite(Key key, String value, long commitTimestamp, long version, long readBound, Txn writer) {
}
