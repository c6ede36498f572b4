package io.tidemark.coprocessor;

import org.apache.hadoop.hbase.CoprocessorEnvironment;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;

/** The start of every Tidemark observer: they work on one region of a table, so that is where they must be attached. */
public final class RegionEnvironments {

    private RegionEnvironments() {
    }

    /**
     * {@code env} as the region environment it must be.
     *
     * @throws DoNotRetryIOException naming {@code coprocessor} when it was attached to the master or to a region
     *                               server as a whole
     */
    public static RegionCoprocessorEnvironment of(CoprocessorEnvironment env, Class<?> coprocessor)
            throws DoNotRetryIOException {
        if (!(env instanceof RegionCoprocessorEnvironment)) {
            throw new DoNotRetryIOException(coprocessor.getName() + " is a region coprocessor: attach it to a table,"
                    + " not to the master or a region server as a whole");
        }
        return (RegionCoprocessorEnvironment) env;
    }
}
