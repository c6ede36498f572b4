package io.tidemark.processcluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Picks the ports of the cluster's processes. */
@FunctionalInterface
public interface PortChooser {

    /**
     * Every process gets the usual port of its kind: in a network namespace of the cluster's own nothing else
     * listens.
     */
    PortChooser USUAL = (address, usual) -> usual;

    /**
     * The usual port when it is free on the process's address, else a free one: outside a namespace, other programs
     * may listen on the usual ports (on every address) already.
     */
    PortChooser FREE = (address, usual) -> {
        try {
            InetAddress host = InetAddress.getByName(address);
            try (ServerSocket socket = new ServerSocket(usual, 1, host)) {
                return socket.getLocalPort();
            } catch (IOException busy) {
                try (ServerSocket socket = new ServerSocket(0, 1, host)) {
                    return socket.getLocalPort();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on " + address + ": " + e.getMessage(), e);
        }
    };

    /** The port the process at {@code address} listens on for what usually listens on {@code usual}. */
    int choose(String address, int usual);
}
