/**
 * The fast-path client (docs/fast-path.md): {@link io.tidemark.client.fastpath.FastPathTable} runs single-row
 * transactions inside the region server, each write with an idempotency key from its table's stream.
 *
 * <p>Parameters and return values are non-null unless documented.
 */
package io.tidemark.client.fastpath;
