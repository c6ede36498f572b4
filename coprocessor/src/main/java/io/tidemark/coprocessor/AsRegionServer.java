package io.tidemark.coprocessor;

import org.apache.hadoop.hbase.ipc.RpcCall;
import org.apache.hadoop.hbase.ipc.RpcServer;

import java.io.IOException;
import java.util.Optional;

/**
 * Runs what a coprocessor writes in other tables on behalf of a request (an invalidation in the commit table) as the
 * region server itself, not as the request's caller. A call through the region server's own connection to another
 * server goes out with the server's credentials; one to a region of the same server is served in place, and for a
 * single mutation HBase (2.6) leaves the request being served in place too, so that its access control takes the
 * request's caller for the mutation's. With HBase authorization on, a reader's read that met a pending writer then
 * failed with {@code AccessDeniedException} whenever the commit table's region was on the same server, and worked
 * when it was not (docs/security.md, "Tested on a secure HBase"). So the request is set aside meanwhile, as HBase
 * itself does for the reads and batches of that connection.
 */
public final class AsRegionServer {

    /** An action on other tables. */
    public interface Action<T> {
        T run() throws IOException;
    }

    /** An action on other tables that answers nothing. */
    public interface VoidAction {
        void run() throws IOException;
    }

    private AsRegionServer() {
    }

    /** {@link #call} for an action that answers nothing. */
    public static void run(VoidAction action) throws IOException {
        call(() -> {
            action.run();
            return action;
        });
    }

    /** Runs {@code action} outside the request being served; its exceptions pass unchanged. */
    public static <T> T call(Action<T> action) throws IOException {
        Optional<RpcCall> served = RpcServer.unsetCurrentCall();
        try {
            return action.run();
        } finally {
            served.ifPresent(RpcServer::setCurrentCall);
        }
    }
}
