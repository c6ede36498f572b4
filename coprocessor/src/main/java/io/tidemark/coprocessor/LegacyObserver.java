package io.tidemark.coprocessor;

import io.tidemark.coprocessor.binding.TableBinding;
import io.tidemark.table.TransactionalTableLayout;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;

import java.util.List;

/**
 * An observer of the layout of earlier versions ({@link TransactionalTableLayout#LEGACY_OBSERVERS}: one observer per
 * feature), kept loadable so that tables made then keep working until {@code ./tidemark table enable} upgrades them
 * (docs/coprocessors.md). Of those attached to a table, the first in {@code LEGACY_OBSERVERS} order leads: it runs the
 * whole pipeline of the features they provide together, with one region state ({@link TableBinding#ofLegacyLayout});
 * the others stand by and do nothing, as does every one of them on a table that also has the transactional observer.
 * So their old priorities no longer matter, nor whether they came from one jar.
 */
public abstract class LegacyObserver extends PipelineObserver {

    @Override
    protected final RegionPipeline pipelineFor(RegionCoprocessorEnvironment env) {
        TableDescriptor table = env.getRegion().getTableDescriptor();
        List<String> attached = TransactionalTableLayout.legacyObservers(table);
        boolean leads = !table.hasCoprocessor(TransactionalTableLayout.TRANSACTIONAL_OBSERVER)
                && !attached.isEmpty() && attached.get(0).equals(getClass().getName());
        return leads ? RegionPipeline.of(env, TableBinding.ofLegacyLayout(table, env.getConfiguration()))
                : RegionPipeline.NONE;
    }
}
