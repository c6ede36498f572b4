package io.tidemark.chaos.run;

import io.tidemark.chaos.check.CheckResult;
import io.tidemark.protocol.CommitMode;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What one scenario run did and what the checker found.
 *
 * @param seed the run's own seed (derived from the command's seed, the scenario and the mode)
 * @param faultsInjected faults the fault thread (or lanes) injected
 * @param faultsByKind how many of each kind, by description
 * @param notRun faults of the scenario this run could not inject, with why (partitions outside a network namespace)
 * @param childJvms child JVMs started (replacements of killed ones included)
 * @param childJvmsKilled child JVMs killed with SIGKILL
 * @param killedMidCommit kills that caught a client between asking to commit and learning the outcome
 * @param seconds how long the workload ran
 * @param settledByInvalidation writers left undecided after the run, settled by invalidating them
 * @param unfulfilled what the run did not do that it is for ({@link RunLength}; empty when nothing is missing)
 * @param phases where the run's time went, for the report
 * @param directory where the run's history files, fault log and report are
 */
public record ScenarioResult(String scenario, CommitMode mode, long seed, long seconds, CheckResult check,
                             int faultsInjected, Map<String, Integer> faultsByKind, List<String> notRun,
                             int childJvms, int childJvmsKilled, int killedMidCommit, int settledByInvalidation,
                             String unfulfilled, String phases, Path directory) {

    public ScenarioResult {
        faultsByKind = Map.copyOf(faultsByKind);
        notRun = List.copyOf(notRun);
    }

    /** Whether the checker found nothing and the run did what it is for. */
    public boolean passed() {
        return check.clean() && unfulfilled.isEmpty();
    }
}
