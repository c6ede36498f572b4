/**
 * In-process HBase (HBase's own mini-cluster, on the local file system or on its mini-DFS) and TSO, for the quick start, the embedded
 * server, the benchmarks and the tests; never used by production code (the build enforces it).
 *
 * <p>Parameters and return values are non-null unless documented.
 */
package io.tidemark.embedded;
