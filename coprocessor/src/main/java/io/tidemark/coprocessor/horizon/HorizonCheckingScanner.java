package io.tidemark.coprocessor.horizon;

import io.tidemark.coprocessor.WrappingRegionScanner;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.regionserver.ScannerContext;

import java.io.IOException;
import java.util.List;

/**
 * A region scanner of a transactional read that the client resolves itself: passes everything through, and after
 * every call runs the {@link HorizonCheck}, so a compaction that finishes in the middle of the scan is noticed before
 * rows read from its files reach the client (empty calls included: the scanner may have skipped rows whose versions
 * were collected).
 */
public final class HorizonCheckingScanner extends WrappingRegionScanner {

    private final HorizonCheck horizon;

    public HorizonCheckingScanner(RegionScanner scanner, HorizonCheck horizon) {
        super(scanner);
        this.horizon = horizon;
    }

    @Override
    public boolean next(List<Cell> result) throws IOException {
        return checked(wrapped.next(result));
    }

    @Override
    public boolean next(List<Cell> result, ScannerContext scannerContext) throws IOException {
        return checked(wrapped.next(result, scannerContext));
    }

    @Override
    public boolean nextRaw(List<Cell> result) throws IOException {
        return checked(wrapped.nextRaw(result));
    }

    @Override
    public boolean nextRaw(List<Cell> result, ScannerContext scannerContext) throws IOException {
        return checked(wrapped.nextRaw(result, scannerContext));
    }

    private boolean checked(boolean more) throws IOException {
        horizon.afterRead();
        return more;
    }

    @Override
    public boolean isFilterDone() throws IOException {
        return wrapped.isFilterDone();
    }
}
