/**
 * "bench durability": raw HBase against Tidemark (generic and fast path) under each of HBase's WAL durability
 * settings on the data table, single writes and 250-mutation batches. Parameters and return values are non-null
 * unless documented.
 */
package io.tidemark.bench.durability;
