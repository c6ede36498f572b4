package io.tidemark.chaos.scenario;

import io.tidemark.chaos.cluster.TsoSetup;
import io.tidemark.chaos.fault.Fault;
import io.tidemark.chaos.workload.OperationMix;

import java.util.List;
import java.util.Map;

/**
 * One named chaos configuration.
 *
 * @param description what it does and what it is after, for {@code --help} and reports
 * @param tso how the run's TSO runs
 * @param faults the faults its fault thread picks from (none: a run without faults)
 * @param faultIntervalMillis mean time between two faults
 * @param threads client threads in the parent JVM
 * @param childJvms client JVMs started at the beginning (and replaced when killed)
 * @param threadsPerChild client threads in each child JVM
 * @param mix how the clients' work divides into fast-path operations, long readers, slow writers and short
 *        transactions
 * @param settings {@code tidemark.*} settings for the TSO, the clients and the sweeper, on top of the run's defaults
 */
public record Scenario(String name, String description, TsoSetup tso, List<Fault> faults, long faultIntervalMillis, int threads,
                       int childJvms, int threadsPerChild, OperationMix mix, Map<String, String> settings) {

    public Scenario {
        faults = List.copyOf(faults);
        settings = Map.copyOf(settings);
        if (faults.contains(Fault.FAIL_OVER_TSO) && tso != TsoSetup.PROCESSES_WITH_STANDBY) {
            throw new IllegalArgumentException("scenario " + name + ": a TSO failover needs TSO processes with a"
                    + " standby");
        }
        if (!name.matches("[a-z][a-z0-9-]*")) {
            throw new IllegalArgumentException("scenario names are lower case words joined by '-': " + name);
        }
    }
}
