/**
 * Settings every TSO and client of a cluster must share (commit mode, conflict level), where they are stored and how
 * a TSO's configuration is reconciled with them. Parameters and return values are non-null unless documented.
 */
package io.tidemark.tso.cluster;
