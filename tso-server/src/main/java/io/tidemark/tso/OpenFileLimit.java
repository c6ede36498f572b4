package io.tidemark.tso;

import io.tidemark.config.TidemarkConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/**
 * Keeps the connection limit below the process's open-file limit: a TSO whose sockets use up its file descriptors
 * can no longer accept anyone, nor open files or HBase connections, whatever its connection limit says.
 */
final class OpenFileLimit {

    private static final Logger LOG = LoggerFactory.getLogger(OpenFileLimit.class);

    /** Descriptors kept for everything but client connections: jars, logs, HBase and ZooKeeper connections. */
    static final int RESERVED = 256;

    private OpenFileLimit() {
    }

    /** {@code configured}, or less when the open-file limit would be reached first (with a warning). */
    static int maxConnections(int configured) {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (!(os instanceof com.sun.management.UnixOperatingSystemMXBean)) {
            return configured;
        }
        long limit = ((com.sun.management.UnixOperatingSystemMXBean) os).getMaxFileDescriptorCount();
        long usable = limit - RESERVED;
        if (configured <= usable) {
            return configured;
        }
        int lowered = (int) Math.max(1, usable);
        LOG.warn("{} is {} but this process may open only {} files: accepting at most {} connections. Raise the"
                + " open-file limit (ulimit -n, LimitNOFILE in systemd) or lower the setting",
                TidemarkConfig.TSO_MAX_CONNECTIONS, configured, limit, lowered);
        return lowered;
    }
}
