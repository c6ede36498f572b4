package io.tidemark.testing.faults;

import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;

import java.util.List;
import java.util.Optional;

/**
 * Holds or delays, after it has read and before it answers, a read that a region server makes of its own region
 * while serving a request: the reads of the fast path and of server-side snapshot reads, which carry no attributes,
 * unlike every read a Tidemark client sends. Whatever other clients do meanwhile happens between the read and what
 * the server does with it next (its commit-table lookups). Controlled through {@link ServerReadStalls}.
 */
public final class ServerReadStaller implements RegionCoprocessor, RegionObserver {

    @Override
    public Optional<RegionObserver> getRegionObserver() {
        return Optional.of(this);
    }

    @Override
    public void postGetOp(ObserverContext<RegionCoprocessorEnvironment> context, Get get, List<Cell> result) {
        if (get.getAttributesMap().isEmpty()) {
            ServerReadStalls.stall(context.getEnvironment().getRegion().getTableDescriptor().getTableName(), get);
        }
    }
}
