package io.tidemark.tso.monitoring;

import java.util.Locale;

/**
 * What a TSO process is doing; it only ever moves forward: starting, standby, active, stopped. The order of the
 * constants is {@link #code()}, documented in docs/monitoring.md: append new roles, never reorder.
 */
public enum TsoRole {
    /** Bound its port, has not yet learnt whether another TSO holds the lease, or is taking the lease over. */
    STARTING,
    /** Another TSO holds the lease; this one takes over when that lease ends. Healthy. */
    STANDBY,
    /** Holds a valid lease and serves. Healthy. */
    ACTIVE,
    /** Stopped serving for good (lease lost, closed, taking over failed); the process is about to exit. */
    STOPPED;

    /** Whether a TSO in this role is doing its job: serving, or ready to take over. */
    public boolean healthy() {
        return this == ACTIVE || this == STANDBY;
    }

    /** The role as the gauge {@code tso.role} shows it: 0 starting, 1 standby, 2 active, 3 stopped. */
    @SuppressWarnings("EnumOrdinal") // the constants' order is the documented code (see the class comment)
    public int code() {
        return ordinal();
    }

    /** The lower-case name used in /health and by {@code ./tidemark status}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The role named {@code label}, as {@link #label()} writes it. */
    public static TsoRole fromLabel(String label) {
        for (TsoRole role : values()) {
            if (role.label().equals(label)) {
                return role;
            }
        }
        throw new IllegalArgumentException("unknown TSO role '" + label + "'");
    }
}
