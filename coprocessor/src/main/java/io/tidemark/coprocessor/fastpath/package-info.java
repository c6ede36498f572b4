/**
 * The fast-path coprocessor (docs/fast-path.md): {@link io.tidemark.coprocessor.fastpath.FastPathObserver} runs
 * fast-path operations, keeps each region's read clock and incarnation, keeps the per-stream operation records that
 * make retried writes run once, and refuses generic writes below a newer fast-path write.
 *
 * <p>Parameters and return values are non-null unless documented.
 */
package io.tidemark.coprocessor.fastpath;
