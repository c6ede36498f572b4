package io.tidemark.processcluster.cli;

import io.tidemark.processcluster.ClusterFiles;
import io.tidemark.processcluster.ClusterState;
import io.tidemark.processcluster.Member;
import io.tidemark.processcluster.MemberProcess;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/** Stops every process of the cluster and removes its files. */
@Command(name = "down", mixinStandardHelpOptions = true,
        description = "Kills every process of the cluster (kill -9) and deletes its folder, data and logs included.")
final class ClusterDownCommand implements Callable<Integer> {

    @CommandLine.Mixin
    private ClusterDirectoryOption dir;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        ClusterFiles files = dir.files();
        ClusterState state = dir.state(spec);
        int killed = 0;
        List<String> gone = new ArrayList<>();
        // In the reverse order of the start: a TSO whose ZooKeeper went first would stop by itself meanwhile.
        List<Member> members = new ArrayList<>(state.members().keySet());
        java.util.Collections.reverse(members);
        for (Member m : members) {
            Optional<MemberProcess> p = state.process(m, files);
            if (p.isPresent()) {
                p.get().kill();
                killed++;
            } else {
                gone.add(m.name());
            }
        }
        ClusterUpCommand.deleteRecursively(files);
        System.out.println("Killed " + killed + " processes" + (gone.isEmpty() ? "" : " (" + String.join(", ", gone)
                + (gone.size() == 1 ? " had" : " had all") + " exited already)") + " and removed "
                + files.directory() + ".");
        return 0;
    }
}
