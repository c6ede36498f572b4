package io.tidemark.chaos.scenario;

import io.tidemark.chaos.cluster.TsoSetup;
import io.tidemark.chaos.fault.Fault;
import io.tidemark.chaos.fault.FaultLanes;
import io.tidemark.chaos.workload.OperationMix;

import java.util.List;
import java.util.Map;

/**
 * One named chaos configuration.
 *
 * @param description what it does and what it is after, for {@code --help} and reports
 * @param tso how the run's TSO runs
 * @param faults the faults its fault thread picks from at random (none: a run without faults, or one with lanes)
 * @param faultIntervalMillis mean time between two faults
 * @param lanes faults injected by lanes side by side instead ({@link FaultLanes}), each going through all of its
 *        faults every round; empty for a scenario whose fault thread picks at random
 * @param threads client threads in the parent JVM
 * @param childJvms client JVMs started at the beginning (and replaced when killed)
 * @param threadsPerChild client threads in each child JVM
 * @param mix how the clients' work divides into fast-path operations, long readers, slow writers and short
 *        transactions
 * @param settings {@code tidemark.*} settings for the TSO, the clients and the sweeper, on top of the run's defaults
 */
public record Scenario(String name, String description, TsoSetup tso, List<Fault> faults, long faultIntervalMillis,
                       List<FaultLanes.Lane> lanes, int threads, int childJvms, int threadsPerChild, OperationMix mix,
                       Map<String, String> settings) {

    /** A scenario whose fault thread picks its faults at random. */
    public Scenario(String name, String description, TsoSetup tso, List<Fault> faults, long faultIntervalMillis,
                    int threads, int childJvms, int threadsPerChild, OperationMix mix, Map<String, String> settings) {
        this(name, description, tso, faults, faultIntervalMillis, List.of(), threads, childJvms, threadsPerChild, mix,
                settings);
    }

    public Scenario {
        faults = List.copyOf(faults);
        lanes = List.copyOf(lanes);
        settings = Map.copyOf(settings);
        if (!lanes.isEmpty() && !faults.isEmpty()) {
            throw new IllegalArgumentException("scenario " + name + ": faults come either from lanes or at random");
        }
        if (faults.contains(Fault.FAIL_OVER_TSO) && tso != TsoSetup.PROCESSES_WITH_STANDBY) {
            throw new IllegalArgumentException("scenario " + name + ": a TSO failover needs TSO processes with a"
                    + " standby");
        }
        if (!name.matches("[a-z][a-z0-9-]*")) {
            throw new IllegalArgumentException("scenario names are lower case words joined by '-': " + name);
        }
    }
}
