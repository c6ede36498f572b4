/**
 * "bench fanout": transactions of n operations issued through an {@code AsyncTTable} with at most f of them in
 * flight, over a table split into several regions. Parameters and return values are non-null unless documented.
 */
package io.tidemark.bench.fanout;
