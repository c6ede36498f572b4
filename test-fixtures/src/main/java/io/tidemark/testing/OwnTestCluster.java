package io.tidemark.testing;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

import java.util.function.Consumer;

/**
 * JUnit 5 extension for a test class whose tests need a {@link TestCluster} of their own, because its TSO runs with
 * other settings than the {@link SharedTestClusters shared ones} (a conflict level, a write-set cap, a tiny conflict
 * map): registered in a static field with {@code @RegisterExtension}, it starts the cluster before the class's first
 * test and closes it after its last, and hands it to parameters of type {@code TestCluster} and to {@link #get()}.
 */
public final class OwnTestCluster implements BeforeAllCallback, AfterAllCallback, ParameterResolver {

    private final String name;
    private final CommitMode mode;
    private final Consumer<TidemarkConfig> settings;
    private TestCluster cluster;

    private OwnTestCluster(String name, CommitMode mode, Consumer<TidemarkConfig> settings) {
        this.name = name;
        this.mode = mode;
        this.settings = settings;
    }

    /** @param settings adjusts the configuration (TSO and client) before the TSO starts */
    public static OwnTestCluster of(String name, CommitMode mode, Consumer<TidemarkConfig> settings) {
        return new OwnTestCluster(name, mode, settings);
    }

    /** The class's cluster; only between its start before the first test and its close after the last. */
    public TestCluster get() {
        if (cluster == null) {
            throw new IllegalStateException("the test cluster " + name + " runs only while its test class does");
        }
        return cluster;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        cluster = TestCluster.start(name, mode, settings);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (cluster != null) {
            cluster.close();
            cluster = null;
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == TestCluster.class;
    }

    @Override
    public TestCluster resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return get();
    }
}
