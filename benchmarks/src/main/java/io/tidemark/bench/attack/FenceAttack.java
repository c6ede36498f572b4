package io.tidemark.bench.attack;

import io.tidemark.protocol.BeginReply;
import io.tidemark.protocol.BeginRequest;
import io.tidemark.protocol.CommitRequest;
import io.tidemark.protocol.CommittedReply;
import io.tidemark.protocol.ErrorReply;
import io.tidemark.protocol.HelloReply;
import io.tidemark.protocol.Message;
import io.tidemark.writeset.WriteSetIds;

import java.io.IOException;
import java.time.Duration;

/**
 * A client the TSO lets in (a trusted certificate) raises fences on the normal client's table again and again (issue
 * 33, finding 5): every fence aborted every transaction on the table that began before it. The TSO refuses a fence from
 * a client that {@code tidemark.tso.fence.allowed-clients} does not name, and closes its connection; the attack
 * connects again.
 */
public final class FenceAttack implements Attack {

    private static final String SOURCE = "127.0.0.9";

    private long attempts;
    private long raised;
    private long refused;
    private String failure;

    @Override
    public String name() {
        return "fences on the normal client's table by an authenticated client";
    }

    @Override
    public void run(Target target, Duration duration) throws InterruptedException {
        if (target.authenticated() == null) {
            failure = "needs a TSO with mutual TLS";
            return;
        }
        long deadline = System.nanoTime() + duration.toNanos();
        while (System.nanoTime() < deadline) {
            attempts++;
            try (RawConnection connection = new RawConnection(target.tso(), SOURCE, target.authenticated(), 5000)) {
                connection.write(RawConnection.hello());
                if (!(connection.readMessage() instanceof HelloReply)) {
                    refused++;
                    continue;
                }
                while (System.nanoTime() < deadline) {
                    connection.write(RawConnection.frame(new BeginRequest(1)));
                    BeginReply begun = (BeginReply) connection.readMessage();
                    connection.write(RawConnection.frame(new CommitRequest(2, begun.startTimestamp(),
                            begun.commitToken(), new long[] {WriteSetIds.fence(NormalClient.TABLE)},
                            new long[] {NormalClient.TABLE})));
                    Message reply = connection.readMessage();
                    if (reply instanceof CommittedReply) {
                        raised++;
                    } else {
                        refused += reply instanceof ErrorReply ? 1 : 0;
                        break;
                    }
                }
            } catch (IOException | RuntimeException e) {
                refused++;
                // Refused at accept (the rate per address), or closed: connect again after a moment.
                Attacks.sleepUntil(Math.min(deadline, System.nanoTime() + 10_000_000L));
            }
        }
    }

    @Override
    public String outcome() {
        return failure != null ? failure : attempts + " connections, " + raised + " fences raised, " + refused
                + " refused";
    }
}
