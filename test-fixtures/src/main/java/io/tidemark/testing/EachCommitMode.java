package io.tidemark.testing;

import org.junit.jupiter.params.provider.ArgumentsSource;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A {@code @ParameterizedTest}'s source: the test runs once per commit mode, its {@link TestCluster} parameter the
 * shared cluster of that mode ({@link SharedTestClusters}), named after the mode in the report.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ArgumentsSource(EachCommitModeArguments.class)
public @interface EachCommitMode {
}
