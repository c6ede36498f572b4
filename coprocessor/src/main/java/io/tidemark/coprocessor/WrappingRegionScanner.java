package io.tidemark.coprocessor;

import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.regionserver.RegionScanner;

import java.io.IOException;

/**
 * A region scanner that an observer puts around HBase's own: everything but reading rows (and deciding whether the
 * scan is done) is the wrapped scanner's.
 */
public abstract class WrappingRegionScanner implements RegionScanner {

    protected final RegionScanner wrapped;

    protected WrappingRegionScanner(RegionScanner wrapped) {
        this.wrapped = wrapped;
    }

    @Override
    public boolean reseek(byte[] row) throws IOException {
        return wrapped.reseek(row);
    }

    @Override
    public RegionInfo getRegionInfo() {
        return wrapped.getRegionInfo();
    }

    @Override
    public long getMaxResultSize() {
        return wrapped.getMaxResultSize();
    }

    @Override
    public long getMvccReadPoint() {
        return wrapped.getMvccReadPoint();
    }

    @Override
    public int getBatch() {
        return wrapped.getBatch();
    }

    @Override
    public String getOperationId() {
        return wrapped.getOperationId();
    }

    @Override
    public void close() throws IOException {
        wrapped.close();
    }
}
