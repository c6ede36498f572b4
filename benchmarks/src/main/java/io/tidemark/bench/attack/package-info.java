/**
 * Hostile and broken clients against a real TSO on loopback (issue 11): idle connections beyond the limit, slowloris
 * connections, partial huge frames, a client that never reads its replies, while a normal client keeps committing.
 * Every attack is bounded in connections, bytes and time, and only ever talks to the address it is given (127.0.0.1 in
 * the benchmark and the tests). Parameters and return values are non-null unless documented.
 */
package io.tidemark.bench.attack;
