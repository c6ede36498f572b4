package io.tidemark.coprocessor;

import io.tidemark.visibility.Conversion;
import io.tidemark.visibility.VersionStore;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.regionserver.Region;

import java.io.IOException;

/**
 * The region server's {@link VersionStore}: reads and writes the coprocessor's own region directly, never through an
 * RPC. A read sees the region as stored now (memstore included), not as of any scanner's read point.
 */
public final class RegionVersionStore implements VersionStore {

    private final Region region;
    private final Conversion conversion;

    /** Takes the table's conversion from the region's descriptor (a changed descriptor reopens the region). */
    public RegionVersionStore(Region region) {
        this.region = region;
        this.conversion = Conversion.of(region.getTableDescriptor());
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
        return conversion;
    }
}
