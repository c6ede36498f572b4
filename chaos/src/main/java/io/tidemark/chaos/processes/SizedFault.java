package io.tidemark.chaos.processes;

import io.tidemark.chaos.fault.FaultKind;
import io.tidemark.chaos.fault.FaultTarget;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A fault between processes with its length: a partition or pause {@link Length#BELOW}, {@link Length#NEAR} or
 * {@link Length#ABOVE} the timeout it is about, or a kill (no length).
 *
 * @param length null for a kill
 */
public record SizedFault(ProcessFault fault, Length length) implements FaultKind {

    public SizedFault {
        if ((length == null) != (fault.timeout() == null)) {
            throw new IllegalArgumentException(fault + (length == null ? " needs a length" : " has no length"));
        }
    }

    /** {@code fault} in every length it has: three for a partition or pause, one for a kill. */
    public static List<SizedFault> everyLengthOf(ProcessFault fault) {
        List<SizedFault> all = new ArrayList<>();
        if (fault.timeout() == null) {
            all.add(new SizedFault(fault, null));
        } else {
            for (Length l : Length.values()) {
                all.add(new SizedFault(fault, l));
            }
        }
        return all;
    }

    @Override
    public String description() {
        return length == null ? fault.description() : fault.description() + ", " + length + " "
                + fault.timeout();
    }

    /** The fault without its length: its lengths take turns, round after round. */
    @Override
    public String family() {
        return fault.description();
    }

    @Override
    public boolean partition() {
        return fault.partition();
    }

    @Override
    public String inject(FaultTarget target, Random random) throws Exception {
        long millis = length == null ? 0 : length.of(fault.timeout().millis(target.config()));
        return fault.inject(target, random, millis);
    }
}
