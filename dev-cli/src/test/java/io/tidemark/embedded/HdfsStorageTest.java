package io.tidemark.embedded;

import io.tidemark.bench.ScratchTables;
import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionManager;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 14: {@code --storage hdfs} really puts the embedded HBase's root directory and write-ahead log on HDFS (so
 * that hflush/hsync are DataNode pipeline syncs, not a no-op on the local file system), and Tidemark works on it.
 * Its own cluster, closed at the end: the only HDFS cluster of this test JVM.
 */
class HdfsStorageTest {

    private static final byte[] FAMILY = Bytes.toBytes("f");
    private static final byte[] QUALIFIER = Bytes.toBytes("q");

    @Test
    void hdfsStorageKeepsRootDirectoryAndWalOnHdfsAndATransactionCommitsAndReadsBack() throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.builder().storage(EmbeddedStorage.HDFS).start()) {
            EmbeddedHBase hbase = cluster.embeddedHBase();
            assertEquals(EmbeddedStorage.HDFS, hbase.storage());
            assertEquals("hdfs", hbase.rootDirectory().getScheme(), hbase.rootDirectory().toString());
            assertEquals("hdfs", hbase.walDirectory().getScheme(), hbase.walDirectory().toString());
            // HBase's production WAL settings: the WAL refuses a stream that cannot hflush/hsync.
            assertTrue(hbase.configuration().getBoolean("hbase.unsafe.stream.capability.enforce", true));
            assertEquals("asyncfs", hbase.configuration().get("hbase.wal.provider", "asyncfs"));

            TableName table = TableName.valueOf("hdfs_storage");
            ScratchTables.recreate(cluster.connection(), table, Bytes.toString(FAMILY), cluster.clientConfig());
            try (TransactionManager tm = TransactionManager.builder(cluster.connection())
                    .config(cluster.clientConfig()).build();
                 TTable tt = new TTable(cluster.connection(), table)) {
                Transaction writer = tm.begin();
                tt.put(writer, new Put(Bytes.toBytes("row")).addColumn(FAMILY, QUALIFIER, Bytes.toBytes("on hdfs")));
                tm.commit(writer);

                Transaction reader = tm.begin();
                Result read = tt.get(reader, new Get(Bytes.toBytes("row")).addColumn(FAMILY, QUALIFIER));
                tm.commit(reader);
                assertArrayEquals(Bytes.toBytes("on hdfs"), read.getValue(FAMILY, QUALIFIER));
            }

            // The region server's WAL files are there, on a DistributedFileSystem.
            Path wals = new Path(new Path(hbase.walDirectory()), HConstants.HREGION_LOGDIR_NAME);
            FileSystem fs = wals.getFileSystem(hbase.configuration());
            assertInstanceOf(DistributedFileSystem.class, fs);
            assertTrue(countFiles(fs, wals) > 0, "no WAL file under " + wals);
        }
    }

    private static int countFiles(FileSystem fs, Path directory) throws IOException {
        int files = 0;
        RemoteIterator<LocatedFileStatus> it = fs.listFiles(directory, true);
        while (it.hasNext()) {
            it.next();
            files++;
        }
        return files;
    }
}
