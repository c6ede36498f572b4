package io.tidemark.ycsb;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import site.ycsb.WorkloadException;
import site.ycsb.measurements.Measurements;

import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TransactionalWorkloadSettingsTest {

    @BeforeAll
    static void measurementsAreConfigured() {
        // YCSB's Client does this before it creates the workload, whose constructor looks the measurements up.
        Measurements.setProperties(new Properties());
    }

    @Test
    void thePapersDefaultsAreAccepted() {
        assertDoesNotThrow(() -> new TransactionalWorkload().init(props()));
    }

    @Test
    void uniformKeysAndAFixedSizeAreAccepted() {
        Properties p = props();
        p.setProperty("requestdistribution", "uniform");
        p.setProperty("tidemark.txsize", "10");
        p.setProperty("tidemark.readproportion", "1");
        assertDoesNotThrow(() -> new TransactionalWorkload().init(p));
    }

    @Test
    void aReadProportionOutsideZeroToOneIsRefused() {
        assertRefused("tidemark.readproportion", "1.5", "tidemark.readproportion is '1.5'; use a fraction from 0 to 1");
        assertRefused("tidemark.readproportion", "half", "tidemark.readproportion is 'half', which is not a number");
    }

    @Test
    void aKeyThetaOfOneOrBelowZeroIsRefused() {
        assertRefused("tidemark.keytheta", "1", "tidemark.keytheta is '1'");
        assertRefused("tidemark.keytheta", "-0.5", "tidemark.keytheta is '-0.5'");
    }

    @Test
    void anUnsupportedKeyDistributionIsRefusedWithTheSupportedOnes() {
        assertRefused("requestdistribution", "latest", "supports zipfian");
    }

    @Test
    void aBadTransactionSizeIsRefused() {
        assertRefused("tidemark.txsize", "none", "tidemark.txsize is 'none'");
    }

    @Test
    void dataIntegrityCheckingIsRefused() {
        assertRefused("dataintegrity", "true", "dataintegrity=true is not supported");
    }

    @Test
    void withoutTheTidemarkBindingTheWorkloadRefusesToRun() throws WorkloadException {
        TransactionalWorkload workload = new TransactionalWorkload();
        workload.init(props());
        WorkloadException e = assertThrows(WorkloadException.class, () -> workload.initThread(props(), 0, 1));
        assertTrue(e.getMessage().contains("-db io.tidemark.ycsb.TidemarkClient"), e.getMessage());
    }

    private static void assertRefused(String key, String value, String expected) {
        Properties p = props();
        p.setProperty(key, value);
        WorkloadException e = assertThrows(WorkloadException.class, () -> new TransactionalWorkload().init(p));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    private static Properties props() {
        Properties p = new Properties();
        p.setProperty("recordcount", "1000");
        p.setProperty("operationcount", "1000");
        return p;
    }
}
