package io.tidemark.chaos.fault;

import io.tidemark.client.sweeper.CommitTableSweeper;
import io.tidemark.client.sweeper.SweeperSettings;
import io.tidemark.testing.faults.LostReplies;
import io.tidemark.testing.faults.ServerReadStalls;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.List;
import java.util.Random;

/** The faults a scenario can inject. Each returns a short description of what it did, for the run's fault log. */
public enum Fault implements FaultKind {

    /** {@code kill -9} of a child JVM the moment one of its clients asks to commit; a new child replaces it. */
    KILL_CLIENT("kill -9 a client JVM") {
        @Override
        public String inject(FaultTarget t, Random random) throws Exception {
            return t.children().killOne(random);
        }
    },

    /**
     * The serving TSO stops (in-flight BEGINs and COMMITs lose their answers) and a new incarnation serves: on the same
     * port (in-process TSO), or the standby takes over (TSO processes).
     */
    RESTART_TSO("restart the TSO") {
        @Override
        public String inject(FaultTarget t, Random random) throws Exception {
            return t.tso().restart(random);
        }
    },

    /** {@code kill -9} of the active TSO process; the standby takes over and a new standby starts. */
    FAIL_OVER_TSO("kill -9 the active TSO") {
        @Override
        public String inject(FaultTarget t, Random random) throws Exception {
            return t.tso().failover();
        }
    },

    /** A region server holding regions of the checked table crashes; a new one replaces it. */
    ABORT_REGION_SERVER("abort a region server") {
        @Override
        public String inject(FaultTarget t, Random random) throws Exception {
            List<ServerName> live = t.cluster().liveServers();
            if (live.size() < 2) {
                return "not enough region servers to abort one";
            }
            return t.cluster().crashRegionServer(live.get(random.nextInt(live.size())));
        }
    },

    /** A region of the checked table (or of the commit table) moves to another region server. */
    MOVE_REGION("move a region") {
        @Override
        public String inject(FaultTarget t, Random random) throws Exception {
            TableName table = random.nextInt(4) == 0 ? t.commitTable() : t.dataTable();
            try (Admin admin = t.cluster().connection().getAdmin()) {
                List<RegionInfo> regions = admin.getRegions(table);
                RegionInfo region = regions.get(random.nextInt(regions.size()));
                List<ServerName> live = t.cluster().liveServers();
                ServerName target = live.get(random.nextInt(live.size()));
                admin.move(region.getEncodedNameAsBytes(), target);
                return "moved region " + region.getRegionNameAsString() + " to " + target;
            }
        }
    },

    /** A region of the checked table splits at a row inside it. */
    SPLIT_REGION("split a region") {
        @Override
        public String inject(FaultTarget t, Random random) throws Exception {
            try (Admin admin = t.cluster().connection().getAdmin()) {
                List<RegionInfo> regions = admin.getRegions(t.dataTable());
                if (regions.size() >= MAX_REGIONS) {
                    return "not splitting: already " + regions.size() + " regions";
                }
                RegionInfo region = regions.get(random.nextInt(regions.size()));
                List<String> rows = t.keySpace().rows();
                byte[] point = Bytes.toBytes(rows.get(random.nextInt(rows.size())));
                if (!region.containsRow(point) || Bytes.equals(point, region.getStartKey())) {
                    return "not splitting: row " + Bytes.toString(point) + " is not inside a region's range";
                }
                admin.split(t.dataTable(), point);
                return "split region " + region.getRegionNameAsString() + " at " + Bytes.toString(point);
            }
        }
    },

    /** Flushes the checked table and the commit table, then compacts the checked table (major or minor). */
    FLUSH_AND_COMPACT("flush and compact") {
        @Override
        public String inject(FaultTarget t, Random random) throws Exception {
            try (Admin admin = t.cluster().connection().getAdmin()) {
                admin.flush(t.dataTable());
                admin.flush(t.commitTable());
                boolean major = random.nextBoolean();
                if (major) {
                    admin.majorCompact(t.dataTable());
                } else {
                    admin.compact(t.dataTable());
                }
                return "flushed, then started a " + (major ? "major" : "minor") + " compaction";
            }
        }
    },

    /**
     * For a few seconds, a share of the replies of mutations applied to the commit table and to the checked table
     * are lost (HBase's client re-sends them), and a share of this JVM's fast-path writes are delivered twice.
     */
    LOSE_REPLIES("lose replies") {
        @Override
        public String inject(FaultTarget t, Random random) throws Exception {
            long commitsBefore = LostReplies.lost(t.commitTable());
            long dataBefore = LostReplies.lost(t.dataTable());
            long duplicatesBefore = t.duplicates().duplicated();
            LostReplies.arm(t.commitTable(), LOST_REPLY_SHARE, random.nextLong());
            LostReplies.arm(t.dataTable(), LOST_REPLY_SHARE, random.nextLong());
            t.duplicates().arm(LOST_REPLY_SHARE, random.nextLong());
            try {
                Thread.sleep(2000 + random.nextInt(4000));
            } finally {
                LostReplies.disarm(t.commitTable());
                LostReplies.disarm(t.dataTable());
                t.duplicates().disarm();
            }
            return "lost " + (LostReplies.lost(t.commitTable()) - commitsBefore) + " commit-table replies and "
                    + (LostReplies.lost(t.dataTable()) - dataBefore) + " checked-table replies; delivered "
                    + (t.duplicates().duplicated() - duplicatesBefore) + " fast-path writes twice";
        }

        @Override
        public void prepare(FaultTarget t) throws IOException {
            LostReplies.attachTo(t.cluster().connection(), t.commitTable());
            LostReplies.attachTo(t.cluster().connection(), t.dataTable());
        }
    },

    /**
     * For a few seconds, a share of the reads a region server makes of the checked table while serving a request (the
     * fast path's, server-side snapshot reads') are delayed after they read and before the server resolves the
     * writers they found, so writers commit in between (issue 31).
     */
    STALL_SERVER_READS("stall server-side reads") {
        @Override
        public String inject(FaultTarget t, Random random) throws Exception {
            long before = ServerReadStalls.stalled(t.dataTable());
            ServerReadStalls.delay(t.dataTable(), STALLED_READ_SHARE, MAX_STALL_MILLIS, random.nextLong());
            try {
                Thread.sleep(2000 + random.nextInt(4000));
            } finally {
                ServerReadStalls.disarm(t.dataTable());
            }
            return "delayed " + (ServerReadStalls.stalled(t.dataTable()) - before) + " server-side reads of the"
                    + " checked table by up to " + MAX_STALL_MILLIS + " ms";
        }

        @Override
        public void prepare(FaultTarget t) throws IOException {
            ServerReadStalls.attachTo(t.cluster().connection(), t.dataTable());
        }
    },

    /** One pass of the commit-table sweeper, with the run's (small) ages. */
    SWEEP("sweep the commit table") {
        /** Fails the run at once when the scenario's sweeper settings are invalid, instead of at every pass. */
        @Override
        public void prepare(FaultTarget t) {
            new SweeperSettings(t.config());
        }

        @Override
        public String inject(FaultTarget t, Random random) throws Exception {
            return new CommitTableSweeper(t.cluster().connection(), t.config()).sweepOnce().toString();
        }
    };

    /** Splits stop here, so that long runs keep a handful of regions. */
    static final int MAX_REGIONS = 12;
    /** Share of applied mutations whose reply is lost while {@link #LOSE_REPLIES} is armed. */
    static final double LOST_REPLY_SHARE = 0.05;
    /** Share of server-side reads delayed while {@link #STALL_SERVER_READS} is armed, and the longest delay. */
    static final double STALLED_READ_SHARE = 0.5;
    static final long MAX_STALL_MILLIS = 300;

    private final String description;

    Fault(String description) {
        this.description = description;
    }

    @Override
    public String description() {
        return description;
    }
}
