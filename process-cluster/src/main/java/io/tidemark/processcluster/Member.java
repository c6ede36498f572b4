package io.tidemark.processcluster;

import java.util.Map;

/**
 * One process of the cluster as it is laid out: its name, role, loopback address and ports. Restarting it starts the
 * same member again, on the same address, ports and data.
 *
 * @param ports the ports it listens on, by what they are for ({@code client}, {@code rpc}, {@code http}, ...)
 */
public record Member(String name, Role role, String address, Map<String, Integer> ports) {

    public Member {
        ports = Map.copyOf(ports);
    }

    /** The port called {@code what}. */
    public int port(String what) {
        Integer port = ports.get(what);
        if (port == null) {
            throw new IllegalArgumentException(name + " has no " + what + " port (it has " + ports.keySet() + ")");
        }
        return port;
    }

    /** {@code address:port} of the port called {@code what}. */
    public String endpoint(String what) {
        return address + ":" + port(what);
    }
}
