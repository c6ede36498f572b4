package io.tidemark.processcluster.network;

import io.tidemark.processcluster.Member;

import java.util.ArrayList;
import java.util.List;

/**
 * The machine's own network: every process listens on its own loopback address, but connects from the usual one,
 * so no two processes can be partitioned. Processes run in sessions of their own ({@code setsid}): a cluster started
 * by {@code ./tidemark cluster up} outlives the command and ignores the terminal's Ctrl-C.
 */
public final class HostNetwork implements ProcessNetwork {

    private final String whyNoPartitions;

    /** @param whyNoPartitions why this run has no network namespace, for reports */
    public HostNetwork(String whyNoPartitions) {
        this.whyNoPartitions = whyNoPartitions;
    }

    @Override
    public List<String> launch(Member member, List<String> command) {
        List<String> launched = new ArrayList<>();
        if (Commands.available("setsid")) {
            launched.add("setsid");
        }
        launched.addAll(command);
        return launched;
    }

    @Override
    public String partitionsUnavailable() {
        return whyNoPartitions;
    }

    @Override
    public void cut(Member a, Member b) {
        throw new UnsupportedOperationException("no partitions: " + whyNoPartitions);
    }

    @Override
    public void heal(Member a, Member b) {
        // Nothing was ever cut.
    }

    @Override
    public void healAll() {
        // Nothing was ever cut.
    }

    @Override
    public void close() {
        // Nothing was set up.
    }
}
