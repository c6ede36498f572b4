package io.tidemark.client;

import io.tidemark.protocol.AbortReason;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** How the TSO's abort reasons reach the application: each one as its own client reason. */
@Timeout(10)
class AbortReasonsTest {

    @Test
    void everyTsoAbortReasonIsReportedByTheClientReasonOfItsName() {
        for (AbortReason tsoReason : AbortReason.values()) {
            assertEquals(tsoReason.name(), TransactionAbortedException.Reason.of(tsoReason).name());
        }
    }
}
