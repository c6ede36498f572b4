/**
 * {@code ./tidemark chaos}: the picocli command that runs scenarios for a while and reports what the checker found.
 *
 * <p>Parameters and return values are non-null unless documented.
 */
package io.tidemark.chaos.cli;
