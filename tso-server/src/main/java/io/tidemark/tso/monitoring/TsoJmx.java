package io.tidemark.tso.monitoring;

import com.codahale.metrics.JmxReporter;
import com.codahale.metrics.MetricRegistry;

import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import java.util.Hashtable;

/**
 * Exports a TSO's metrics as JMX MBeans named {@code tidemark.tso:port=<TSO port>,name=<metric name>}, e.g.
 * {@code tidemark.tso:port=54758,name=tso.begins}. The port tells apart the TSOs of one JVM (tests, embedded
 * clusters); a production TSO is alone in its JVM.
 */
public final class TsoJmx {

    public static final String DOMAIN = "tidemark.tso";

    private TsoJmx() {
    }

    /** Registers every metric of {@code registry}, present and future, until the reporter is stopped. */
    public static JmxReporter start(MetricRegistry registry, int tsoPort) {
        JmxReporter reporter = JmxReporter.forRegistry(registry).inDomain(DOMAIN)
                .createsObjectNamesWith((type, domain, name) -> objectName(domain, tsoPort, name)).build();
        reporter.start();
        return reporter;
    }

    /** The MBean name of metric {@code name} of the TSO listening on {@code tsoPort}. */
    public static ObjectName objectName(int tsoPort, String name) {
        return objectName(DOMAIN, tsoPort, name);
    }

    @SuppressWarnings("JdkObsolete") // ObjectName takes its keys as a Hashtable
    private static ObjectName objectName(String domain, int tsoPort, String name) {
        Hashtable<String, String> keys = new Hashtable<>();
        keys.put("port", Integer.toString(tsoPort));
        keys.put("name", name);
        try {
            return new ObjectName(domain, keys);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException("metric name '" + name + "' cannot be a JMX name", e);
        }
    }
}
