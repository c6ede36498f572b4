/**
 * Waiting for asynchronous calls. Parameters and return values are non-null unless documented.
 */
package io.tidemark.concurrent;
