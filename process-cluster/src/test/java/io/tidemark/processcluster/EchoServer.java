package io.tidemark.processcluster;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** A process of the partition test: answers every line with the same line, on {@code address port}. */
public final class EchoServer {

    private EchoServer() {
    }

    public static void main(String[] args) throws Exception {
        try (ServerSocket server = new ServerSocket(Integer.parseInt(args[1]), 50, InetAddress.getByName(args[0]))) {
            while (true) {
                Socket socket = server.accept();
                Thread echo = new Thread(() -> {
                    try (socket;
                         BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                                 StandardCharsets.UTF_8));
                         PrintWriter out = new PrintWriter(socket.getOutputStream(), true, StandardCharsets.UTF_8)) {
                        String line;
                        while ((line = in.readLine()) != null) {
                            out.println(line);
                        }
                    } catch (Exception e) {
                        // The peer went away.
                    }
                });
                echo.setDaemon(true);
                echo.start();
            }
        }
    }
}
