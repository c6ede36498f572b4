package io.tidemark.config;

/** A host name (or address) and a TCP port. */
public final class HostAndPort {

    private final String host;
    private final int port;

    public HostAndPort(String host, int port) {
        if (host == null || host.isEmpty()) {
            throw new IllegalArgumentException("host must not be empty");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port must be from 1 to 65535, was " + port);
        }
        this.host = host;
        this.port = port;
    }

    /** Parses {@code host:port}; an IPv6 address goes in brackets: {@code [::1]:54758}. */
    public static HostAndPort parse(String text) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException("expected host:port, got '" + text + "'");
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        try {
            return new HostAndPort(host, Integer.parseInt(text.substring(colon + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected a numeric port in '" + text + "'");
        }
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    @Override
    public String toString() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}
