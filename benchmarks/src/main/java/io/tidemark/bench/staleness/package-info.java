/**
 * "bench staleness": read-only transactions that begin at the TSO against read-only transactions at bounded staleness
 * ({@code TransactionManager.beginReadOnly}), under a concurrent write load. Parameters and return values are non-null
 * unless documented.
 */
package io.tidemark.bench.staleness;
