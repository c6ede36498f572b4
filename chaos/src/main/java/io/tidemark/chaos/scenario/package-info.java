/**
 * The named scenarios: each one configuration of clients, fast-path share, long-running readers, Tidemark settings
 * and faults, aimed at one way Tidemark can break.
 *
 * <p>Parameters and return values are non-null unless documented.
 */
package io.tidemark.chaos.scenario;
