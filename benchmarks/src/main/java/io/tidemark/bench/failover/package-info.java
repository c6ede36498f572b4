/**
 * The TSO failover benchmark: kill -9 of the active TSO process under a bank workload, with a standby process taking
 * over. Parameters and return values are non-null unless documented.
 */
package io.tidemark.bench.failover;
