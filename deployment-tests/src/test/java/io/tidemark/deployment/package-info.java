/**
 * The operator's deployment test (issue 11): stock HBase, the release tarball, the client example, every step a
 * process of its own. Parameters and return values are non-null unless documented.
 */
package io.tidemark.deployment;
