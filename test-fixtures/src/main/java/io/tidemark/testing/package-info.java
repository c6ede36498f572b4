/**
 * What tests of several modules share; main code of the test-fixtures module, only ever a test-scoped dependency.
 *
 * <ul>
 *   <li>{@link io.tidemark.testing.SharedMiniCluster}: one HBase mini-cluster per test JVM.</li>
 *   <li>{@link io.tidemark.testing.TestCluster}: a TSO with its own tables, a TransactionManager over a real socket,
 *       and transactional tables built by {@code TidemarkAdmin.descriptorFor}.</li>
 *   <li>{@link io.tidemark.testing.TestCommitTable}: a commit table of a test's own.</li>
 *   <li>{@link io.tidemark.testing.StagedFailures}: client crashes staged through the client's documented
 *       fault-injection seams.</li>
 *   <li>{@link io.tidemark.testing.HeldCommitRecords}: low-latency commits held between the TSO and their commit
 *       record until the test releases them.</li>
 *   <li>{@link io.tidemark.testing.CommitTableContract}: the behaviour every {@code CommitTable} must have.</li>
 *   <li>{@link io.tidemark.testing.faults}: lost replies and duplicate delivery.</li>
 * </ul>
 *
 * Parameters and return values are non-null unless documented.
 */
package io.tidemark.testing;
