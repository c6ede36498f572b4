package io.tidemark.cli;

import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.BindException;

import static org.junit.jupiter.api.Assertions.assertEquals;

class FailureHandlerTest {

    /** What HBase's client throws for a master-side failure: the master's stack trace is in the message. */
    private static final String REMOTE_MESSAGE = "org.apache.hadoop.hbase.TableExistsException: accounts\n"
            + "\tat org.apache.hadoop.hbase.master.procedure.CreateTableProcedure.prepareCreate(CreateTableProcedure"
            + ".java:277)\n"
            + "\tat org.apache.hadoop.hbase.procedure2.Procedure.doExecute(Procedure.java:944)\n";

    @Test
    void aServerStackTraceInTheMessageIsCutToItsFirstLine() {
        assertEquals("org.apache.hadoop.hbase.TableExistsException: accounts",
                FailureHandler.describe(new DoNotRetryIOException(REMOTE_MESSAGE)));
    }

    @Test
    void theInnermostCauseIsAddedInOneLineWhenItSaysMore() {
        IOException e = new IOException("cannot start the TSO", new BindException("Address already in use\nat x"));
        assertEquals("cannot start the TSO (Address already in use)", FailureHandler.describe(e));
    }
}
