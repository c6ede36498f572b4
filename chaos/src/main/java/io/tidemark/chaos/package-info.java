/**
 * Tidemark's randomized history checker with fault injection (docs/chaos.md): clients in this JVM and in child JVMs
 * run random transactions and fast-path operations against a mini-cluster while a seeded fault thread breaks things;
 * every operation and what each client was told is recorded, the store is read back after the run, and pure checks
 * prove (or refute) that the history is snapshot-isolated and that nothing committed was lost.
 *
 * <p>Parameters and return values are non-null unless documented.
 */
package io.tidemark.chaos;
