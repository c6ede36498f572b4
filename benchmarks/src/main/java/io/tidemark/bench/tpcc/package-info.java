/**
 * "bench tpcc": TPC-C's New-Order and Payment transactions over Tidemark's transaction API, with TPC-C's consistency
 * conditions 1 to 4 checked after the run (docs/tpcc.md). Parameters and return values are non-null unless
 * documented.
 */
package io.tidemark.bench.tpcc;
