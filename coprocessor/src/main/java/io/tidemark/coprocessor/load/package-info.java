/**
 * The load guard: while a table is being bulk loaded, its regions refuse every transactional read and write and let
 * only the load's own writes through (docs/api.md, "Bulk loads").
 *
 * <p>Parameters and return values are non-null unless documented otherwise.
 */
package io.tidemark.coprocessor.load;
