package io.tidemark.coprocessor.fastpath;

import io.tidemark.coprocessor.binding.TableBinding;
import io.tidemark.config.InvalidConfigurationException;
import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fast-path observer's settings and the relation between the client's timeout and the records' TTL. */
class FastPathSettingsTest {

    @Test
    void defaultsAreSafe() throws Exception {
        FastPathSettings settings = new FastPathSettings(new Configuration(false));
        assertEquals(GenericWriteCheck.Rule.ROW, settings.writeCheck());
        assertEquals(TidemarkConfig.FASTPATH_OPERATION_RECORD_TTL_MS.defaultValue(), settings.recordTtlMillis());
        settings.checkOperationTimeout(TidemarkConfig.CLIENT_FASTPATH_OPERATION_TIMEOUT_MS.defaultValue());
    }

    @Test
    void aClientTimeoutMustFitTwiceWithTheClockSkewIntoTheTtl() throws Exception {
        Configuration conf = new Configuration(false);
        conf.set(TidemarkConfig.FASTPATH_OPERATION_RECORD_TTL_MS.key(), "100000");
        conf.set(TableBinding.HBASE_MAX_CLOCK_SKEW, "20000");
        FastPathSettings settings = new FastPathSettings(conf);
        settings.checkOperationTimeout(40_000);
        DoNotRetryIOException e = assertThrows(DoNotRetryIOException.class,
                () -> settings.checkOperationTimeout(40_001));
        assertTrue(e.getMessage().contains(TidemarkConfig.CLIENT_FASTPATH_OPERATION_TIMEOUT_MS.key())
                && e.getMessage().contains("40000 ms"), e.getMessage());
    }

    @Test
    void aBadValueNamesItsKey() {
        Configuration conf = new Configuration(false);
        conf.set(TidemarkConfig.FASTPATH_OPERATION_RECORD_TTL_MS.key(), "0");
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> new FastPathSettings(conf));
        assertTrue(e.getMessage().contains(TidemarkConfig.FASTPATH_OPERATION_RECORD_TTL_MS.key()), e.getMessage());
    }
}
