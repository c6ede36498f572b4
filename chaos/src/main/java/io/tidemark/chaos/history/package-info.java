/**
 * The recorded history: keys, operations, what clients were told, and the line format in which workers (threads and
 * child JVMs alike) write it to files that the checker merges.
 *
 * <p>Parameters and return values are non-null unless documented; a {@code null} value means "absent".
 */
package io.tidemark.chaos.history;
