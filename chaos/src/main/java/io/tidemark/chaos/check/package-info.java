/**
 * The checks, pure code over a recorded history and an image of the store taken after the run: settling what
 * really happened to every transaction, the snapshot rule for every read, first committer wins, scans against gets,
 * conditional fast-path operations, and what each client was told against what is stored.
 *
 * <p>Parameters and return values are non-null unless documented.
 */
package io.tidemark.chaos.check;
