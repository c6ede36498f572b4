/**
 * What an operator sees of a TSO: its status ({@link io.tidemark.tso.monitoring.TsoStatus}, also the body of
 * {@code /health}), the HTTP endpoint serving {@code /metrics} and {@code /health}, the JMX export of its metrics, and
 * the cheap latency reservoir the event loop records into. Parameters and return values are non-null unless
 * documented.
 */
package io.tidemark.tso.monitoring;
