package io.tidemark.chaos.run;

import io.tidemark.chaos.fault.FaultInjection;
import io.tidemark.chaos.history.CommitTally;
import io.tidemark.chaos.workload.OperationMix;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What a run is for, and whether it has done it: every fault it exists for injected (each kind once; a lane of a
 * fixed number of rounds through them), and after the last of them, a number of transactions of each kind the
 * scenario mixes in committed (generic ones through the TSO, single-region commits and, when the scenario has them,
 * fast-path writes), counted from every client's history: the system works again after its faults.
 */
final class RunPurpose {

    private final FaultInjection faults;
    private final CommitTally tally;
    private final Set<CommitTally.Kind> kinds;
    private final int commitsAfterFaults;
    /** The counts when the last fault had been injected; null until then. */
    private Map<CommitTally.Kind, Integer> atLastFault;
    private Map<CommitTally.Kind, Integer> latest;

    RunPurpose(FaultInjection faults, CommitTally tally, OperationMix mix, int commitsAfterFaults) {
        this.faults = faults;
        this.tally = tally;
        this.kinds = kindsOf(mix);
        this.commitsAfterFaults = commitsAfterFaults;
    }

    /** The kinds of commits a scenario with {@code mix} has. */
    static Set<CommitTally.Kind> kindsOf(OperationMix mix) {
        Set<CommitTally.Kind> kinds = EnumSet.noneOf(CommitTally.Kind.class);
        if (mix.fastPath() < 1) {
            kinds.add(CommitTally.Kind.GENERIC);
            kinds.add(CommitTally.Kind.SINGLE_REGION);
        }
        if (mix.fastPath() > 0) {
            kinds.add(CommitTally.Kind.FAST_PATH);
        }
        return kinds;
    }

    /** Looks again; true once the purpose is fulfilled. */
    synchronized boolean fulfilled() throws IOException {
        latest = tally.update();
        if (atLastFault == null && faults.notYetInjected().isEmpty() && !faults.holdsEnd()) {
            atLastFault = latest;
        }
        return atLastFault != null && shortOf().isEmpty();
    }

    /** Whether every fault was injected (as of the last look). */
    synchronized boolean faultsDone() {
        return atLastFault != null;
    }

    /**
     * Commits of {@code kind} the run waits for after its last fault: one single-region commit (few transactions
     * write one region with the manager that keeps its writes: with slow writers, one in ten seconds), the
     * number asked for of the others.
     */
    private int required(CommitTally.Kind kind) {
        return kind == CommitTally.Kind.SINGLE_REGION ? Math.min(1, commitsAfterFaults) : commitsAfterFaults;
    }

    /** What the run has not done yet, in words (empty once the purpose is fulfilled), as of the last look. */
    synchronized String missing() {
        List<String> missing = new ArrayList<>();
        List<String> faultsMissing = faults.notYetInjected();
        if (!faultsMissing.isEmpty()) {
            missing.add("faults not injected: " + String.join(", ", faultsMissing));
        }
        if (atLastFault == null) {
            missing.add("then commits of " + kinds + " after the last fault");
        } else {
            missing.addAll(shortOf());
        }
        return String.join("; ", missing);
    }

    private List<String> shortOf() {
        List<String> shortOf = new ArrayList<>();
        for (CommitTally.Kind k : kinds) {
            int after = latest.get(k) - atLastFault.get(k);
            if (after < required(k)) {
                shortOf.add(String.format(Locale.ROOT, "%d of %d %s after the last fault", after, required(k),
                        k.description()));
            }
        }
        return shortOf;
    }
}
