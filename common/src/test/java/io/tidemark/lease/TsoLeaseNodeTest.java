package io.tidemark.lease;

import io.tidemark.config.HostAndPort;
import io.tidemark.config.InvalidConfigurationException;
import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TsoLeaseNodeTest {

    @Test
    void leaseSurvivesEncodingAndIsReadableText() {
        TsoLeaseNode node = new TsoLeaseNode("123-abc", new HostAndPort("tso1.example.com", 54758));
        TsoLeaseNode decoded = TsoLeaseNode.decode(node.encode());
        assertEquals("123-abc", decoded.holder());
        assertEquals("tso1.example.com:54758", decoded.address().toString());
        assertEquals("tidemark-tso-lease 1\nholder 123-abc\naddress tso1.example.com:54758\n",
                new String(node.encode(), StandardCharsets.UTF_8));
    }

    @Test
    void httpAddressIsPublishedInFormatTwo() {
        TsoLeaseNode node = new TsoLeaseNode("123-abc", new HostAndPort("tso1.example.com", 54758),
                new HostAndPort("tso1.example.com", 54759));
        assertEquals("tidemark-tso-lease 2\nholder 123-abc\naddress tso1.example.com:54758\n"
                + "http tso1.example.com:54759\n", new String(node.encode(), StandardCharsets.UTF_8));
        TsoLeaseNode decoded = TsoLeaseNode.decode(node.encode());
        assertEquals("tso1.example.com:54759", decoded.httpAddress().toString());
        assertEquals("tso1.example.com:54758", decoded.address().toString());
    }

    @Test
    void formatOneLeasesStayReadableWithoutHttpAddress() {
        TsoLeaseNode decoded = TsoLeaseNode.decode(
                "tidemark-tso-lease 1\nholder 7-x\naddress h:1\n".getBytes(StandardCharsets.UTF_8));
        assertEquals("7-x", decoded.holder());
        assertNull(decoded.httpAddress());
    }

    @Test
    void linesOfLaterFormatsAreIgnored() {
        TsoLeaseNode decoded = TsoLeaseNode.decode(("tidemark-tso-lease 3\nholder 7-x\naddress h:1\nhttp h:2\n"
                + "zone eu-west\n").getBytes(StandardCharsets.UTF_8));
        assertEquals("h:2", decoded.httpAddress().toString());
    }

    @Test
    void leaseWithoutAddressIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> TsoLeaseNode.decode(
                "tidemark-tso-lease 2\nholder 7-x\n".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void pathIsReadFromTheConfiguration() {
        TidemarkConfig config = new TidemarkConfig(new Configuration(false));
        assertEquals("/tidemark/tso/tidemark:timestamps", TsoLeaseNode.path(config));
        config.set(TidemarkConfig.ZOOKEEPER_ROOT, "/apps/tm");
        config.set(TidemarkConfig.TIMESTAMP_TABLE, "ns:ts");
        assertEquals("/apps/tm/tso/ns:ts", TsoLeaseNode.path(config));
        config.set(TidemarkConfig.ZOOKEEPER_ROOT, "apps");
        assertTrue(assertThrows(InvalidConfigurationException.class, () -> TsoLeaseNode.path(config)).getMessage()
                .contains(TidemarkConfig.ZOOKEEPER_ROOT.key()));
    }

    /**
     * A TSO and its clients may spell the timestamp table differently ({@code default:ts}, {@code ts}); the lease
     * path is HBase's name of the table, so they still meet at one lease. Clients used to take the configured text
     * as it was, and waited for a TSO at a path no TSO wrote.
     */
    @Test
    void everySpellingOfTheTimestampTableNamesOneLease() {
        TidemarkConfig qualified = new TidemarkConfig(new Configuration(false));
        qualified.set(TidemarkConfig.TIMESTAMP_TABLE, "default:ts");
        TidemarkConfig plain = new TidemarkConfig(new Configuration(false));
        plain.set(TidemarkConfig.TIMESTAMP_TABLE, " ts ");
        assertEquals("/tidemark/tso/ts", TsoLeaseNode.path(qualified));
        assertEquals(TsoLeaseNode.path(plain), TsoLeaseNode.path(qualified));
    }

    @Test
    void pathIsDerivedFromTheRootAndTheTimestampTable() {
        assertEquals("/tidemark/tso/tidemark:timestamps", TsoLeaseNode.path("/tidemark", "tidemark:timestamps"));
        assertEquals("/a/b/tso/t", TsoLeaseNode.path("/a/b/", "t"));
        assertThrows(IllegalArgumentException.class, () -> TsoLeaseNode.path("tidemark", "t"));
    }

    @Test
    void foreignDataIsRefusedWithWhatItSaid() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TsoLeaseNode.decode("something else".getBytes(StandardCharsets.UTF_8)));
        assertTrue(e.getMessage().contains("something else"), e.getMessage());
    }
}
