/**
 * What the fast-path client ({@code FastPathTable}) and the fast-path coprocessor share (docs/fast-path.md): the
 * request that travels in a Get's attributes ({@link io.tidemark.fastpath.FastPathRequest}), its idempotency key, the
 * operation record a region server keeps per client stream, and the exceptions both sides understand.
 *
 * <p>Parameters and return values are non-null unless documented.
 */
package io.tidemark.fastpath;
