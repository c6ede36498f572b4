/**
 * {@code ./tidemark cluster up|down|status}.
 *
 * <p>Parameters and return values are non-null unless documented.
 */
package io.tidemark.processcluster.cli;
