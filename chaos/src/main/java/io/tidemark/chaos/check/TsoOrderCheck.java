package io.tidemark.chaos.check;

import io.tidemark.chaos.history.Told;
import io.tidemark.chaos.history.Txn;
import io.tidemark.timestamp.Timestamps;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * At most one TSO answers at any moment: timestamps clients acted on only grow with real time. One TSO hands out
 * timestamps in the order it answers, and a new incarnation's are above all of an earlier one's; so when an answer
 * carrying a lower timestamp was asked for after an answer carrying a higher one had arrived, two TSOs answered at
 * once (an old one that still believed it held the lease, after a pause or a partition). Answers are a generic
 * transaction's start timestamp (it read and wrote with it) and, for one that wrote, its commit timestamp when it was
 * told committed; the times are the client's, before asking and after the answer, on the machine's wall clock.
 */
final class TsoOrderCheck {

    private final Findings findings;

    TsoOrderCheck(Findings findings) {
        this.findings = findings;
    }

    void check(List<Txn> history) {
        List<Answer> answers = new ArrayList<>();
        for (Txn txn : history) {
            if (txn.fastPath()) {
                continue;
            }
            if (txn.timing().beginAsked() > 0 && txn.timing().beginAnswered() > 0) {
                answers.add(new Answer(txn.start(), txn.timing().beginAsked(), txn.timing().beginAnswered(), txn,
                        "its start timestamp " + txn.start()));
            }
            // A read-only transaction commits without asking the TSO, and a single-region commit at the version its
            // region minted (issue 35) without either: neither timestamp is a TSO's answer.
            if (txn.told().kind() == Told.Kind.COMMITTED && txn.hasWrites()
                    && !Timestamps.isFastPathVersion(txn.told().timestamp()) && txn.timing().commitAsked() > 0
                    && txn.timing().commitAnswered() > 0) {
                answers.add(new Answer(txn.told().timestamp(), txn.timing().commitAsked(),
                        txn.timing().commitAnswered(), txn, "its commit timestamp " + txn.told().timestamp()));
            }
        }
        List<Answer> byArrival = new ArrayList<>(answers);
        byArrival.sort(Comparator.comparingLong(Answer::answered));
        answers.sort(Comparator.comparingLong(Answer::asked));
        Answer highestArrived = null;
        int arrived = 0;
        for (Answer a : answers) {
            while (arrived < byArrival.size() && byArrival.get(arrived).answered() < a.asked()) {
                Answer b = byArrival.get(arrived++);
                if (highestArrived == null || b.timestamp() > highestArrived.timestamp()) {
                    highestArrived = b;
                }
            }
            if (highestArrived != null && highestArrived.timestamp() > a.timestamp()) {
                findings.add(Anomaly.Kind.TSO_ANSWERS_OUT_OF_ORDER, a.txn().describe() + " was given " + a.what()
                        + " in an answer asked for at " + a.asked() + " µs, after " + highestArrived.txn().describe()
                        + " had been given " + highestArrived.what() + " (answered by " + highestArrived.answered()
                        + " µs): a lower timestamp handed out later, so two TSOs answered at once");
            }
        }
    }

    /** One answer of a TSO that a client acted on, and when it was asked for and arrived (µs since 1970). */
    private record Answer(long timestamp, long asked, long answered, Txn txn, String what) {
    }
}
