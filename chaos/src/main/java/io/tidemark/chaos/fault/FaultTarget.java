package io.tidemark.chaos.fault;

import io.tidemark.chaos.child.ChildClients;
import io.tidemark.chaos.cluster.ChaosHBase;
import io.tidemark.chaos.cluster.RunTso;
import io.tidemark.chaos.history.KeySpace;
import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.hbase.TableName;

/**
 * What faults act on in one run.
 *
 * @param keySpace the rows and columns of the checked table
 * @param dataTable the checked table
 * @param commitTable the run's commit table
 * @param config the run's Tidemark settings (sweeper ages included)
 * @param duplicates the double delivery of this JVM's fast-path writes
 */
public record FaultTarget(ChaosHBase cluster, RunTso tso, ChildClients children, KeySpace keySpace,
                          TableName dataTable, TableName commitTable, TidemarkConfig config,
                          FastPathDuplicates duplicates) {
}
