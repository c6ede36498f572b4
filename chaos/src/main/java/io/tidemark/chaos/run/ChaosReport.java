package io.tidemark.chaos.run;

import io.tidemark.chaos.check.Anomaly;
import io.tidemark.chaos.check.CheckResult;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** Plain-text report of scenario runs: counts, anomalies per kind, and the first anomaly of each kind explained. */
public final class ChaosReport {

    private ChaosReport() {
    }

    /** The report of one run, explaining up to {@code explained} anomalies; with the phase times when asked. */
    public static String of(ScenarioResult r, int explained, boolean withPhases) {
        String report = of(r, explained);
        return withPhases ? report + "  time: " + r.phases() + System.lineSeparator() : report;
    }

    public static String of(ScenarioResult r, int explained) {
        CheckResult c = r.check();
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "scenario %s (%s, seed %d, %d s): %d transactions, %d fast-path"
                        + " operations, %d committed (%d of them single-region commits), %d reads checked (%d not checkable), %d faults, %d child JVMs"
                        + " (%d killed, %d of them mid-commit), %d undecided writers settled: %s%n",
                r.scenario(), r.mode().configName(), r.seed(), r.seconds(), c.transactions(), c.fastPathOperations(),
                c.committed(), c.singleRegionCommits(), c.readsChecked(), c.readsUnchecked(), r.faultsInjected(), r.childJvms(),
                r.childJvmsKilled(), r.killedMidCommit(), r.settledByInvalidation(),
                c.clean() ? "no anomaly" : c.anomalies().size() + " ANOMALIES"));
        if (!r.faultsByKind().isEmpty()) {
            s.append("  faults by kind:").append(System.lineSeparator());
            r.faultsByKind().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> s.append(
                    String.format(Locale.ROOT, "  %5d  %s%n", e.getValue(), e.getKey())));
        }
        if (!r.unfulfilled().isEmpty()) {
            s.append("  RUN INCOMPLETE: ").append(r.unfulfilled()).append(System.lineSeparator());
        }
        for (String notRun : r.notRun()) {
            s.append("  NOT RUN: ").append(notRun).append(System.lineSeparator());
        }
        if (!c.clean()) {
            Map<Anomaly.Kind, Integer> byKind = new EnumMap<>(Anomaly.Kind.class);
            for (Anomaly a : c.anomalies()) {
                byKind.merge(a.kind(), 1, Integer::sum);
            }
            byKind.forEach((kind, n) -> s.append(String.format(Locale.ROOT, "  %5d  %s%n", n, kind.title())));
            for (Anomaly a : examples(c.anomalies(), explained)) {
                s.append("  - ").append(a).append(System.lineSeparator());
            }
            s.append("  history, faults and logs: ").append(r.directory()).append(System.lineSeparator());
        }
        return s.toString();
    }

    /** The first anomaly of every kind, then the next ones in order, {@code limit} in all. */
    static List<Anomaly> examples(List<Anomaly> anomalies, int limit) {
        List<Anomaly> chosen = new ArrayList<>();
        Set<Anomaly.Kind> kinds = EnumSet.noneOf(Anomaly.Kind.class);
        for (Anomaly a : anomalies) {
            if (chosen.size() < limit && kinds.add(a.kind())) {
                chosen.add(a);
            }
        }
        for (Anomaly a : anomalies) {
            if (chosen.size() < limit && !chosen.contains(a)) {
                chosen.add(a);
            }
        }
        return chosen;
    }

    /** One line per run, then the total. */
    public static String summary(List<ScenarioResult> results) {
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%-20s %-12s %8s %8s %10s %9s%n",
                "scenario", "mode", "txns", "fastpath", "reads", "anomalies"));
        int anomalies = 0;
        for (ScenarioResult r : results) {
            CheckResult c = r.check();
            anomalies += c.anomalies().size();
            s.append(String.format(Locale.ROOT, "%-20s %-12s %8d %8d %10d %9d%n", r.scenario(),
                    r.mode().configName(), c.transactions(), c.fastPathOperations(), c.readsChecked(),
                    c.anomalies().size()));
        }
        s.append(anomalies == 0 ? "no anomaly in any scenario" : anomalies + " anomalies in total");
        long incomplete = results.stream().filter(r -> !r.unfulfilled().isEmpty()).count();
        if (incomplete > 0) {
            s.append(System.lineSeparator()).append(incomplete).append(" run(s) incomplete (RUN INCOMPLETE above)");
        }
        return s.append(System.lineSeparator()).toString();
    }
}
