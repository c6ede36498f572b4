package io.tidemark.chaos.run;

import io.tidemark.chaos.check.CheckResult;
import io.tidemark.protocol.CommitMode;

import java.nio.file.Path;

/**
 * What one scenario run did and what the checker found.
 *
 * @param seed the run's own seed (derived from the command's seed, the scenario and the mode)
 * @param faultsInjected faults the fault thread injected
 * @param childJvms child JVMs started (replacements of killed ones included)
 * @param childJvmsKilled child JVMs killed with SIGKILL
 * @param killedMidCommit kills that caught a client between asking to commit and learning the outcome
 * @param settledByInvalidation writers left undecided after the run, settled by invalidating them
 * @param phases where the run's time went, for the report
 * @param directory where the run's history files, fault log and report are
 */
public record ScenarioResult(String scenario, CommitMode mode, long seed, long seconds, CheckResult check,
                             int faultsInjected, int childJvms, int childJvmsKilled, int killedMidCommit,
                             int settledByInvalidation,
                             String phases, Path directory) {
}
