package io.tidemark.tso.cluster;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import io.tidemark.writeset.ConflictLevel;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * How a TSO's configuration and the stored cluster settings become the settings it serves with: a value the TSO's
 * configuration leaves unset follows the cluster; a value it sets must match the cluster's, unless the TSO was told
 * to change the cluster's settings deliberately ({@code ./tidemark tso --reconfigure}). The first TSO of a cluster
 * stores its configured values (or the defaults).
 */
public final class ClusterSettingsAgreement {

    /** The reconfiguration switch, named in error messages. */
    public static final String RECONFIGURE_FLAG = "--reconfigure";

    private final @Nullable CommitMode configuredMode;
    private final @Nullable ConflictLevel configuredLevel;
    private final boolean reconfigure;
    private final String where;

    /**
     * @param configuredMode the TSO's {@code tidemark.tso.commit-mode}, or null when unset
     * @param configuredLevel the TSO's {@code tidemark.tso.conflict-level}, or null when unset
     * @param reconfigure whether configured values replace differing stored ones
     * @param where where the settings are stored, for messages (e.g. the timestamp table's name)
     */
    public ClusterSettingsAgreement(@Nullable CommitMode configuredMode, @Nullable ConflictLevel configuredLevel,
                                    boolean reconfigure, String where) {
        this.configuredMode = configuredMode;
        this.configuredLevel = configuredLevel;
        this.reconfigure = reconfigure;
        this.where = where;
    }

    /**
     * Checks the configuration against the stored settings without changing anything (a standby at start-up, to
     * fail at once rather than at take-over).
     *
     * @throws ClusterSettingsMismatchException when a configured value differs and reconfiguring was not asked for
     */
    public void check(ClusterSettingsStore store) throws IOException {
        ClusterSettings stored = store.read();
        if (stored != null && !reconfigure) {
            refuseMismatch(stored);
        }
    }

    /**
     * The settings to serve with, storing them first when the cluster has none or (reconfiguring) they differ.
     * Called by the lease holder only.
     *
     * @throws ClusterSettingsMismatchException when a configured value differs and reconfiguring was not asked for
     */
    public ClusterSettings agree(ClusterSettingsStore store) throws IOException {
        ClusterSettings stored = store.read();
        if (stored == null) {
            stored = store.initialize(new ClusterSettings(
                    configuredMode != null ? configuredMode
                            : TidemarkConfig.TSO_COMMIT_MODE.requiredDefault(),
                    configuredLevel != null ? configuredLevel
                            : TidemarkConfig.TSO_CONFLICT_LEVEL.requiredDefault()));
        }
        if (!reconfigure) {
            refuseMismatch(stored);
            return stored;
        }
        ClusterSettings wanted = new ClusterSettings(configuredMode != null ? configuredMode : stored.commitMode(),
                configuredLevel != null ? configuredLevel : stored.conflictLevel());
        if (!wanted.equals(stored)) {
            store.overwrite(wanted);
        }
        return wanted;
    }

    private void refuseMismatch(ClusterSettings stored) {
        List<String> differences = new ArrayList<>();
        if (configuredMode != null && configuredMode != stored.commitMode()) {
            differences.add(TidemarkConfig.TSO_COMMIT_MODE + "=" + configuredMode.configName()
                    + " but the cluster's commit mode is " + stored.commitMode().configName());
        }
        if (configuredLevel != null && configuredLevel != stored.conflictLevel()) {
            differences.add(TidemarkConfig.TSO_CONFLICT_LEVEL + "=" + configuredLevel.configName()
                    + " but the cluster's conflict level is " + stored.conflictLevel().configName());
        }
        if (!differences.isEmpty()) {
            throw new ClusterSettingsMismatchException("this TSO is configured with " + String.join(" and ",
                    differences) + " (stored in " + where + "). Remove the setting to follow the cluster, or change"
                    + " the cluster's settings deliberately by starting this TSO with " + RECONFIGURE_FLAG
                    + " (docs/operations.md#changing-cluster-settings)");
        }
    }
}
