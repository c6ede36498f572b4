/**
 * What {@code ./tidemark} runs besides the production commands: the quick start, the embedded server, the benchmarks
 * (and, through the script, YCSB's own client). These commands start an embedded HBase, so they live apart from the
 * production commands of {@code io.tidemark.cli}, whose classpath holds no mini-cluster.
 *
 * <p>Parameters and return values are non-null unless documented.
 */
package io.tidemark.devcli;
