package io.tidemark.testing;

import io.tidemark.protocol.CommitMode;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** The commit mode of the {@link TestCluster} a parameter gets from {@link SharedTestClusters}. */
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
public @interface InMode {
    CommitMode value();
}
