package io.tidemark.tso.cluster;

/** A TSO's configuration disagrees with the settings stored for its cluster; it refuses to start or serve. */
public final class ClusterSettingsMismatchException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public ClusterSettingsMismatchException(String message) {
        super(message);
    }
}
