package io.tidemark.visibility;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.wal.WALFactory;

import java.io.IOException;
import java.nio.file.Files;

/**
 * A {@link VersionStore} over a real {@link HRegion} on the local file system, opened without a region server or
 * mini-cluster (no write-ahead log, no memstore chunk pool): HBase's own reads, version limits, time ranges and
 * flushes, in a unit test.
 */
final class LocalRegionStore implements VersionStore, AutoCloseable {

    private final HRegion region;
    private final WALFactory wals;

    LocalRegionStore(byte[] family) throws IOException {
        Configuration conf = HBaseConfiguration.create();
        conf.setBoolean("hbase.hregion.memstore.mslab.enabled", false);
        conf.setBoolean(WALFactory.WAL_ENABLED, false);
        Path root = new Path(Files.createTempDirectory("visibility-region").toUri());
        conf.set("hbase.rootdir", root.toString());
        TableDescriptor table = TableDescriptorBuilder.newBuilder(TableName.valueOf("visibility"))
                .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(family).setMaxVersions(Integer.MAX_VALUE)
                        .build())
                .build();
        RegionInfo info = RegionInfoBuilder.newBuilder(table.getTableName()).build();
        wals = new WALFactory(conf, "visibility-test");
        region = HRegion.createHRegion(info, root, conf, table, wals.getWAL(info));
    }

    @Override
    public Result get(Get get) throws IOException {
        return region.get(get);
    }

    @Override
    public void put(Put put) throws IOException {
        region.put(put);
    }

    @Override
    public Conversion conversion() {
        return Conversion.NONE;
    }

    /** Writes the memstore to a store file, so later reads merge files and memstore as a region server does. */
    void flush() throws IOException {
        region.flush(true);
    }

    /** Removes one stored version of one qualifier (a rolled-back writer tidying up). */
    void deleteVersion(byte[] row, byte[] family, byte[] qualifier, long version) throws IOException {
        region.delete(new Delete(row).addColumn(family, qualifier, version));
    }

    @Override
    public void close() throws IOException {
        region.close();
        wals.close();
    }
}
