package io.tidemark.client.admin;

import io.tidemark.client.ClientSettings;
import io.tidemark.testing.SharedTestClusters;
import io.tidemark.testing.TestCluster;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;

import static io.tidemark.testing.TestCluster.F;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link TransactionalTables#find} on a real HBase, while tables are created: it lists the master's descriptors, then
 * every table name in {@code hbase:meta}; a table created between the two is judged by its descriptor, not reported as
 * hidden by HBase authorization, and one dropped right after the listing is left out instead of failing the search.
 */
@ExtendWith(SharedTestClusters.class)
class TransactionalTablesFindTest {

    private static TestCluster cluster;

    @BeforeAll
    static void useSharedCluster(TestCluster shared) {
        cluster = shared;
    }

    @Test
    void aTableCreatedRightAfterTheListingIsJudgedByItsDescriptorNotCalledHidden() throws Exception {
        TableName ordinary = cluster.newName("created-meanwhile");
        try (Admin admin = TestCluster.connection().getAdmin()) {
            String refusal = null;
            try {
                List<TableName> found = new TransactionalTables(new ClientSettings(cluster.config))
                        .find(afterListing(admin, () -> admin.createTable(TableDescriptorBuilder.newBuilder(ordinary)
                                .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(F).setMaxVersions(1)
                                        .build()).build())));
                assertFalse(found.contains(ordinary), "an ordinary table holds no transactional cells: " + found);
            } catch (IOException refused) {
                // Tables of test classes running beside this one may be refused; this one must not be among them.
                refusal = refused.getMessage();
            }
            assertTrue(admin.tableExists(ordinary), "the table was created between the listing and the meta scan");
            assertTrue(refusal == null || !refusal.contains(ordinary.getNameAsString()),
                    "the new ordinary table is not refused, as hidden or otherwise: " + refusal);
        } finally {
            TestCluster.drop(ordinary);
        }
    }

    @Test
    void aTableDroppedRightAfterTheListingIsLeftOut() throws Exception {
        TableName dropped = cluster.createTransactionalTable("dropped-meanwhile");
        try (Admin admin = TestCluster.connection().getAdmin()) {
            String refusal = null;
            try {
                List<TableName> found = new TransactionalTables(new ClientSettings(cluster.config))
                        .find(afterListing(admin, () -> TestCluster.drop(dropped)));
                assertFalse(found.contains(dropped), "a dropped table holds no cells: " + found);
            } catch (IOException refused) {
                // Tables of test classes running beside this one may be refused; this one must not be among them.
                refusal = refused.getMessage();
            }
            assertFalse(admin.tableExists(dropped), "the table was dropped right after the listing");
            assertTrue(refusal == null || !refusal.contains(dropped.getNameAsString()),
                    "the dropped table is not refused: " + refusal);
        }
    }

    /** A change to the cluster's tables. */
    @FunctionalInterface
    private interface Change {
        void run() throws IOException;
    }

    /** {@code admin}, making {@code change} as soon as it listed the tables' descriptors. */
    private static Admin afterListing(Admin admin, Change change) {
        return (Admin) Proxy.newProxyInstance(Admin.class.getClassLoader(), new Class<?>[] {Admin.class},
                (proxy, method, args) -> {
                    Object answer;
                    try {
                        answer = method.invoke(admin, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    if (method.getName().equals("listTableDescriptors") && method.getParameterCount() == 0) {
                        change.run();
                    }
                    return answer;
                });
    }
}
