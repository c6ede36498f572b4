package io.tidemark.testing;

import io.tidemark.protocol.CommitMode;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.platform.commons.support.AnnotationSupport;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * JUnit 5 extension that hands test classes the test JVM's shared {@link TestCluster} of a commit mode: a parameter
 * of type {@code TestCluster} (of a test, a constructor or a {@code @BeforeAll}/{@code @BeforeEach} method) gets the
 * cluster of the mode its {@link InMode} names, low-latency (the product's default) without one. Each mode's cluster
 * is started by its first user and closed after the JVM's last test class, so a test class pays neither a TSO start
 * nor the creation of commit and timestamp tables.
 *
 * <p>Test classes share the TSO, its tables and its manager: they keep to tables of their own
 * ({@link TestCluster#createTable}), never close the cluster, its TSO or its manager, and assert nothing about what
 * other classes leave behind (the TSO's counters, the commit table's records, the low watermark). A test that needs
 * other settings, or stops, restarts or breaks its TSO, uses an {@link OwnTestCluster} or starts its own.
 */
public final class SharedTestClusters implements ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(SharedTestClusters.class);

    /** The shared cluster of {@code mode}, started now if this is its first use in this test JVM. */
    public static TestCluster get(ExtensionContext context, CommitMode mode) {
        return context.getRoot().getStore(NAMESPACE)
                .getOrComputeIfAbsent(mode, SharedTestClusters::start, Started.class).cluster;
    }

    private static Started start(CommitMode mode) {
        try {
            return new Started(TestCluster.start("shared_" + mode.configName().replace('-', '_'), mode));
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the shared " + mode.configName() + " test cluster", e);
        }
    }

    /** Not a parameterized test's own parameter: its source supplies that one (see {@link EachCommitMode}). */
    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == TestCluster.class && (parameter.isAnnotated(InMode.class)
                || !AnnotationSupport.isAnnotated(parameter.getDeclaringExecutable(), ParameterizedTest.class));
    }

    @Override
    public TestCluster resolveParameter(ParameterContext parameter, ExtensionContext context) {
        CommitMode mode = parameter.findAnnotation(InMode.class).map(InMode::value).orElse(CommitMode.LOW_LATENCY);
        return get(context, mode);
    }

    /** Closed by JUnit when the root context closes, after the last test of the JVM. */
    private static final class Started implements ExtensionContext.Store.CloseableResource {
        final TestCluster cluster;

        Started(TestCluster cluster) {
            this.cluster = cluster;
        }

        @Override
        public void close() {
            cluster.close();
        }
    }
}
