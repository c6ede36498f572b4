package io.tidemark.coprocessor;

import io.tidemark.coprocessor.binding.TableBinding;
import io.tidemark.table.TransactionalTableLayout;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;

/**
 * The one region observer of a transactional table ({@value TransactionalTableLayout#TRANSACTIONAL_OBSERVER},
 * docs/coprocessors.md): each region's instance owns the region's Tidemark state and runs the steps of the features
 * its property {@value TransactionalTableLayout#FEATURES_PROPERTY} lists, in one fixed order ({@link RegionPipeline}).
 * It reads its configuration from the table descriptor and its own coprocessor properties only
 * ({@link TableBinding#of}); what a request claims is checked against that, never taken from it.
 */
public final class TransactionalRegionObserver extends PipelineObserver {

    @Override
    protected RegionPipeline pipelineFor(RegionCoprocessorEnvironment env) {
        return RegionPipeline.of(env, TableBinding.of(env.getRegion().getTableDescriptor(), env.getConfiguration()));
    }
}
