package io.tidemark.config;

import io.tidemark.protocol.CommitMode;
import io.tidemark.writeset.ConflictLevel;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static io.tidemark.config.SettingType.bool;
import static io.tidemark.config.SettingType.byteSize;
import static io.tidemark.config.SettingType.choice;
import static io.tidemark.config.SettingType.file;
import static io.tidemark.config.SettingType.hostAndPort;
import static io.tidemark.config.SettingType.intRange;
import static io.tidemark.config.SettingType.longRange;
import static io.tidemark.config.SettingType.matching;
import static io.tidemark.config.SettingType.optionalText;
import static io.tidemark.config.SettingType.tableName;
import static io.tidemark.config.SettingType.tableNames;
import static io.tidemark.config.SettingType.text;
import static io.tidemark.config.SettingType.znodePath;

/**
 * The one home of Tidemark's configuration: every {@code tidemark.*} key is declared here, once, as a {@link Setting}
 * (its values, default, section and meaning), and read through {@link #get}, which validates it. The settings tables
 * of docs/configuration.md are generated from these declarations, in this order, and the release tarball's
 * {@code conf/tidemark-site.xml} is checked against them (tests of module {@code dist}). Values come from a Hadoop
 * {@link Configuration}, so they can live in {@code tidemark-site.xml} (loaded from the classpath by {@link #load()})
 * or in {@code hbase-site.xml}.
 */
public final class TidemarkConfig {

    /** Site file read from the classpath by {@link #load()}; its values win over {@link #HBASE_SITE_FILE}'s. */
    public static final String SITE_FILE = "tidemark-site.xml";
    /** HBase's site file: {@link #load()} reads {@code tidemark.*} keys from it too, as the docs promise. */
    public static final String HBASE_SITE_FILE = "hbase-site.xml";

    private static final Logger LOG = LoggerFactory.getLogger(TidemarkConfig.class);

    /** Every declaration, in the order docs list them; filled as the constants below are initialised. */
    private static final List<Setting<?>> ALL = new ArrayList<>();

    // --- TSO server ---

    public static final Setting<String> TSO_HOST = declare(
            Setting.of("tidemark.tso.host", text("a host name or address"), "0.0.0.0")
            .in(Setting.Section.TSO)
            .description("Address the TSO listens on."));

    public static final Setting<Integer> TSO_PORT = declare(Setting.of("tidemark.tso.port", intRange(0, 65535), 54758)
            .in(Setting.Section.TSO)
            .description("TCP port the TSO listens on; 0 picks a free port (tests, embedded use)."));

    public static final Setting<CommitMode> TSO_COMMIT_MODE = declare(Setting.of("tidemark.tso.commit-mode",
                    choice(CommitMode.values(), CommitMode::configName), CommitMode.LOW_LATENCY)
            .in(Setting.Section.TSO).defaultShownAs("unset: the cluster's, else `low-latency`")
            .description("`low-latency`: the TSO replies to COMMIT right after conflict detection and each client"
                    + " writes its own commit record. `batched`: the TSO writes commit records in batches and replies"
                    + " once they are durable; BEGIN waits for earlier commits to be durable. See"
                    + " [architecture](architecture.md#commit-modes). A **cluster-wide** setting: the first TSO stores"
                    + " it with the timestamp table; a TSO that sets another value refuses to start unless it is told"
                    + " to reconfigure the cluster"
                    + " ([operations](operations.md#cluster-settings-commit-mode-and-conflict-level))."));

    public static final Setting<ConflictLevel> TSO_CONFLICT_LEVEL = declare(Setting.of("tidemark.tso.conflict-level",
                    choice(ConflictLevel.values(), ConflictLevel::configName), ConflictLevel.CELL)
            .in(Setting.Section.TSO).defaultShownAs("unset: the cluster's, else `cell`")
            .description("`cell`: two transactions conflict when they write the same column of the same row. `row`:"
                    + " when they write the same row (fewer ids to send, coarser detection). Cluster-wide like the"
                    + " commit mode; the TSO announces it to clients in HELLO."));

    /** From one bucket of the conflict map ({@code ConflictMap.WAYS}) to its {@code MAX_ENTRIES}. */
    public static final Setting<Integer> TSO_CONFLICT_MAP_ENTRIES = declare(Setting.of(
                    "tidemark.tso.conflict-map.entries", intRange(8, 1 << 30), 4 * 1024 * 1024)
            .in(Setting.Section.TSO)
            .description("Capacity of the conflict map (cell or row ids remembered with their last commit timestamp,"
                    + " and each committed start timestamp); rounded up to a power of two of 8-entry buckets. 17"
                    + " bytes per entry (16, and an 8-byte watermark per bucket). A larger map remembers commits"
                    + " longer, so long transactions are less likely to abort with `BELOW_LOW_WATERMARK`"
                    + " ([architecture](architecture.md#conflict-detection))."));

    /** At most 2^40: keeps block arithmetic far from overflow. */
    public static final Setting<Long> TSO_TIMESTAMP_BLOCK = declare(Setting.of("tidemark.tso.timestamp-block",
                    longRange(1, 1L << 40), 1_000_000L)
            .in(Setting.Section.TSO)
            .description("How many timestamps the TSO claims in the timestamp table at a time. The next block is"
                    + " claimed in the background when half is used. After a restart the TSO continues above the last"
                    + " claimed block, so a larger block means fewer HBase writes and larger jumps after restarts."));

    /** At most 2^24: a COMMIT of that many ids already stalls the event loop for seconds. */
    public static final Setting<Integer> TSO_MAX_WRITE_SET = declare(Setting.of("tidemark.tso.max-write-set",
                    intRange(1, 1 << 24), 10_000)
            .in(Setting.Section.TSO)
            .description("Most write-set ids (written cells, or rows at conflict level `row`), and most table ids,"
                    + " one COMMIT may carry. Announced to clients in HELLO; a client refuses a larger transaction"
                    + " before COMMIT with `WriteSetTooLargeException` (rolled back, nothing visible), the TSO answers"
                    + " a larger COMMIT with `ERROR WRITE_SET_TOO_LARGE` before conflict detection. Conflict detection"
                    + " runs on the TSO's one event loop: a COMMIT of n ids delays every other client by about"
                    + " n × 0.3 µs (2 million ids stalled it 0.6 s), so split bulk loads into transactions of a few"
                    + " thousand rows instead of raising this."));

    /** At least the 64 bytes a frame before HELLO may have. */
    public static final Setting<Integer> TSO_MAX_FRAME_BYTES = declare(Setting.of("tidemark.tso.max-frame-bytes",
                    byteSize(64, Integer.MAX_VALUE), 256 * 1024)
            .in(Setting.Section.TSO)
            .description("Largest request frame the TSO accepts after HELLO (before HELLO: 64 bytes, a constant); a"
                    + " larger one is answered with `FRAME_TOO_LARGE` and the connection is closed. Must hold a COMMIT"
                    + " of `tidemark.tso.max-write-set` write-set and table ids (`33 + 16 × max-write-set` bytes); a"
                    + " smaller value is refused at start-up."));

    public static final Setting<Integer> TSO_MAX_CONNECTIONS = declare(Setting.of("tidemark.tso.max-connections",
                    intRange(1, 1_000_000), 4096)
            .in(Setting.Section.TSO)
            .description("Client connections the TSO keeps open at once, counted the moment they are accepted (so"
                    + " the open descriptors stay within it however fast clients connect and close). One beyond takes"
                    + " the slot of an idle one (`tidemark.tso.reclaim-idle-ms`) or is refused as it is accepted"
                    + " (`ERROR OVERLOADED` to a plaintext client, at most 16 such answers at once, the rest closed"
                    + " unanswered) and logged once per burst. When the process's open-file limit (`ulimit -n`) minus"
                    + " 256 is lower, the TSO uses that instead and warns at start-up: sockets that used up the file"
                    + " descriptors would lock out every client. Out of descriptors all the same, the TSO closes"
                    + " connections as it accepts them instead of pausing."));

    public static final Setting<Integer> TSO_HANDSHAKE_TIMEOUT_MS = declare(Setting.of(
                    "tidemark.tso.handshake-timeout-ms", intRange(10, 600_000), 10_000)
            .in(Setting.Section.TSO)
            .description("How long, in ms, a new connection may take to complete TLS (when enabled) and HELLO; then"
                    + " it is closed. Bounds connections that send nothing or trickle bytes."));

    public static final Setting<Integer> TSO_IDLE_TIMEOUT_MS = declare(Setting.of("tidemark.tso.idle-timeout-ms",
                    intRange(100, 86_400_000), 300_000)
            .in(Setting.Section.TSO)
            .description("A connection that sent no complete request and waited for no reply this long, in ms, is"
                    + " closed. Announced in HELLO: clients close their idle connections at half of it and reconnect"
                    + " on their next request. When the TSO is full, idle connections give up their slots sooner"
                    + " (`tidemark.tso.reclaim-idle-ms`)."));

    public static final Setting<Integer> TSO_MAX_PENDING_REPLY_BYTES = declare(Setting.of(
                    "tidemark.tso.max-pending-reply-bytes", byteSize(1024, 1 << 30), 64 * 1024)
            .in(Setting.Section.TSO)
            .description("Unsent reply bytes of one connection above which the TSO stops reading its requests"
                    + " (resumes below half). Bounds the memory a client that does not read its replies can cost; it"
                    + " enters the TSO's memory bound once per connection ([operations](operations.md#memory)), which"
                    + " is why it is small: a client that reads its replies never has more than a few waiting (before"
                    + " issue 33: 1 MiB, so 4,096 connections could hold 4 GiB)."));

    public static final Setting<Integer> TSO_REPLY_STALL_TIMEOUT_MS = declare(Setting.of(
                    "tidemark.tso.reply-stall-timeout-ms", intRange(10, 3_600_000), 30_000)
            .in(Setting.Section.TSO)
            .description("A connection whose unsent replies stay above `tidemark.tso.max-pending-reply-bytes` this"
                    + " long, in ms, is closed."));

    public static final Setting<Integer> TSO_MAX_REQUESTS_IN_FLIGHT = declare(Setting.of(
                    "tidemark.tso.max-requests-in-flight", intRange(1, 10_000_000), 10_000)
            .in(Setting.Section.TSO)
            .description("Requests of one connection the TSO works on at once; beyond it, it stops reading that"
                    + " connection until replies go out. Nothing is refused."));

    public static final Setting<Integer> TSO_MAX_CONNECTIONS_PER_ADDRESS = declare(Setting.of(
                    "tidemark.tso.max-connections-per-address", intRange(1, 1_000_000), 128)
            .in(Setting.Section.TSO)
            .description("Client connections from one IP address the TSO keeps open at once; one beyond is refused as"
                    + " it is accepted (`ERROR OVERLOADED` naming the address), so one client cannot hold every slot"
                    + " of `tidemark.tso.max-connections`. Raise it for a host that runs more than 128 client"
                    + " connections (a `TransactionManager` opens `tidemark.client.tso.connections`, 1 by default)."));

    public static final Setting<Integer> TSO_CONNECT_RATE_PER_ADDRESS = declare(Setting.of(
                    "tidemark.tso.connect-rate-per-address", intRange(1, 1_000_000), 100)
            .in(Setting.Section.TSO)
            .description("New connections per second the TSO accepts from one IP address (a bucket of one second's"
                    + " worth, refilled continuously); beyond it they are refused as they are accepted. Bounds what"
                    + " one address can make the TSO spend on handshakes (a TLS handshake costs the TSO about a"
                    + " millisecond of CPU)."));

    public static final Setting<Integer> TSO_RECLAIM_IDLE_MS = declare(Setting.of("tidemark.tso.reclaim-idle-ms",
                    intRange(10, 86_400_000), 10_000)
            .in(Setting.Section.TSO)
            .description("When the TSO has `tidemark.tso.max-connections` connections, a new one takes the slot of"
                    + " the connection idle longest (after HELLO, nothing in flight), if that one has been idle at"
                    + " least this long, in ms; it is closed, and its client reconnects on its next request. Otherwise"
                    + " the new one is refused."));

    public static final Setting<Integer> TSO_FRAME_TIMEOUT_MS = declare(Setting.of("tidemark.tso.frame-timeout-ms",
                    intRange(10, 600_000), 10_000)
            .in(Setting.Section.TSO)
            .description("A request frame must arrive in full within this long, in ms, of its first byte, not"
                    + " counting time the TSO did not read the connection; else `ERROR MALFORMED` and the connection"
                    + " is closed. A COMMIT of `tidemark.tso.max-write-set` ids takes milliseconds on any network a"
                    + " TSO serves."));

    public static final Setting<Integer> TSO_MAX_BUFFERED_FRAME_BYTES = declare(Setting.of(
                    "tidemark.tso.max-buffered-frame-bytes", byteSize(1024, Integer.MAX_VALUE), 64 * 1024 * 1024)
            .in(Setting.Section.TSO)
            .description("Memory, at least `tidemark.tso.max-frame-bytes`, that frames received in part may hold"
                    + " over all connections together. Beyond it, the connections whose partial frames are oldest are"
                    + " sent `ERROR OVERLOADED` and closed until it fits. A frame of n bytes holds up to 2n while it"
                    + " arrives (buffers grow by doubling)."));

    public static final Setting<Integer> TSO_MAX_IDS_PER_SECOND = declare(Setting.of("tidemark.tso.max-ids-per-second",
                    intRange(1000, Integer.MAX_VALUE), 500_000)
            .in(Setting.Section.TSO)
            .description("Work one connection may cost the TSO's one event loop per second, counted in ids: 1 per"
                    + " BEGIN, 1 plus its write-set and table ids per COMMIT (its conflict check costs about that many"
                    + " map lookups). A connection beyond it is not read until its budget refilled (a bucket of a"
                    + " tenth of a second's worth); nothing is refused, and one COMMIT of any allowed size always goes"
                    + " through. One connection committing transactions of 20,000 ids back to back, with no limit,"
                    + " made 1.6 million ids a second (client included), so the default leaves a connection a third"
                    + " of the event loop at most: enough for 125,000 small transactions a second, several times what"
                    + " one connection sends in `bench tso`, while one that commits transactions of 20,000 ids gets 25"
                    + " a second."));

    public static final Setting<String> TSO_FENCE_ALLOWED_CLIENTS = declare(Setting.of(
                    "tidemark.tso.fence.allowed-clients",
                    text("client certificate subjects separated by ;, anonymous among them, or none"), "anonymous")
            .in(Setting.Section.TSO)
            .description("Who may raise fences ([security](security.md#who-may-fence-a-table)): client certificate"
                    + " subjects (mutual TLS) separated by `;`, and `anonymous` for every client without a"
                    + " certificate; `none` for nobody. The default lets every client of a TSO without mutual TLS"
                    + " fence (it cannot tell clients apart), and no client of a TSO with mutual TLS (every client"
                    + " there has a subject, and none is named). A refused fence gets `ERROR NOT_AUTHORIZED` and"
                    + " nothing is done. Subjects without `tidemark.tso.tls.client-auth` `require` are refused at"
                    + " start-up."));

    /** At most what a count of nanoseconds can hold. */
    public static final Setting<Long> TSO_TRANSACTION_TIMEOUT_MS = declare(Setting.of(
                    "tidemark.tso.transaction-timeout-ms", longRange(0, Long.MAX_VALUE / 1_000_000L), 0L)
            .in(Setting.Section.TSO).defaultShownAs("`0` (no limit)")
            .description("How long, in ms, a transaction may run; 0 for no limit. The TSO refuses the COMMIT of a"
                    + " transaction that began longer ago (`TransactionAbortedException` reason `TIMED_OUT`; refused"
                    + " between one timeout and 17/16 of it after BEGIN) and raises the low watermark past it, so"
                    + " compaction and the sweeper need not wait for it; a read-only transaction older than the timeout"
                    + " may then find its versions collected and gets `SNAPSHOT_TOO_OLD`, never a wrong read."
                    + " Cluster-wide in effect: give every TSO the same value."));

    public static final Setting<Integer> TSO_BATCH_MAX_SIZE = declare(Setting.of("tidemark.tso.batch.max-size",
                    intRange(1, 1_000_000), 1000)
            .in(Setting.Section.TSO)
            .description("Batched mode: most commits written to the commit table in one round trip."));

    public static final Setting<Integer> TSO_BATCH_FLUSH_TIMEOUT_MS = declare(Setting.of(
                    "tidemark.tso.batch.flush-timeout-ms", intRange(0, 60_000), 2)
            .in(Setting.Section.TSO)
            .description("Batched mode: how long, in ms, a batch waits for more commits before it is written when the"
                    + " writer is idle. While a batch is being written the next one keeps filling."));

    public static final Setting<Integer> TSO_LOW_WATERMARK_PERSIST_MS = declare(Setting.of(
                    "tidemark.tso.low-watermark.persist-interval-ms", intRange(1, 3_600_000), 1000)
            .in(Setting.Section.TSO)
            .description("How often, in ms, the TSO stores its low watermark in the commit table when it changed."));

    public static final Setting<String> TSO_ADVERTISED_HOST = declare(Setting.of("tidemark.tso.advertised-host",
                    optionalText("a host name"), "")
            .in(Setting.Section.TSO)
            .description("Host name clients reach this TSO at, published in its lease with the bound port. Empty:"
                    + " `tidemark.tso.host`, or the machine's canonical host name when that is a wildcard address."));

    public static final Setting<Integer> TSO_LEASE_PERIOD_MS = declare(Setting.of("tidemark.tso.lease.period-ms",
                    intRange(100, 600_000), 2000)
            .in(Setting.Section.TSO)
            .description("How long, in ms, a lease renewal keeps the TSO active: a standby takes over once the lease"
                    + " went unrenewed for this plus the margin. Shorter means faster failover but less tolerance for"
                    + " ZooKeeper hiccups and long GC pauses ([operations](operations.md#leases)). Must exceed renew"
                    + " interval plus margin. The embedded TSO of `./tidemark quickstart` and `server`, the test"
                    + " clusters and the in-process TSO of `./tidemark chaos` use 10,000: they share a JVM with HBase"
                    + " and ZooKeeper, which can stall for seconds on a loaded machine, and have no standby."));

    public static final Setting<Integer> TSO_LEASE_RENEW_INTERVAL_MS = declare(Setting.of(
                    "tidemark.tso.lease.renew-interval-ms", intRange(10, 600_000), 250)
            .in(Setting.Section.TSO)
            .description("How often, in ms, the active TSO renews its lease."));

    public static final Setting<Integer> TSO_LEASE_MARGIN_MS = declare(Setting.of("tidemark.tso.lease.margin-ms",
                    intRange(0, 600_000), 200)
            .in(Setting.Section.TSO)
            .description("Safety margin, in ms: the holder stops this long before its lease ends, a standby waits"
                    + " this long after it. Covers clock-rate differences and a reply that passed its lease check just"
                    + " before the end."));

    public static final Setting<Integer> TSO_HTTP_PORT = declare(Setting.of("tidemark.tso.http.port",
                    intRange(-1, 65535), 54759)
            .in(Setting.Section.TSO)
            .description("TCP port of the TSO's HTTP endpoint (`/metrics`, `/health`, `/health/active`;"
                    + " [monitoring](monitoring.md)): 0 picks a free port, -1 turns the endpoint off. Every TSO,"
                    + " standby or active, serves it; its address is published in the lease. A busy port fails the"
                    + " start."));

    public static final Setting<String> TSO_HTTP_HOST = declare(Setting.of("tidemark.tso.http.host",
                    optionalText("a host name or address"), "")
            .in(Setting.Section.TSO)
            .description("Address the HTTP endpoint listens on. Empty: the same as `tidemark.tso.host`. The lease"
                    + " publishes the endpoint under this address when it is a specific one other than"
                    + " `tidemark.tso.host`, else under the TSO's advertised host. Plain HTTP without authentication:"
                    + " bind it to a management network when the client port is exposed more widely."));

    public static final Setting<Integer> TSO_HTTP_REQUEST_TIMEOUT_MS = declare(Setting.of(
                    "tidemark.tso.http.request-timeout-ms", intRange(10, 600_000), 5000)
            .in(Setting.Section.TSO)
            .description("A request to the HTTP endpoint must arrive in full within this long, in ms, of its"
                    + " connection's start or of the previous answer on it; else the connection is closed, so"
                    + " half-sent requests cannot hold the endpoint"
                    + " ([monitoring](monitoring.md#the-tsos-http-endpoint))."));

    // --- TLS on the TSO port (server side) ---

    public static final Setting<Boolean> TSO_TLS_ENABLED = declare(Setting.of("tidemark.tso.tls.enabled", bool(),
                    false)
            .in(Setting.Section.TLS)
            .description("`true`: the TSO speaks only TLS (1.3 or 1.2) on its port; plaintext clients are refused"
                    + " with `ERROR TLS_REQUIRED`. Needs the TSO's key and certificate."));

    public static final Setting<String> TSO_TLS_CERT = declare(Setting.of("tidemark.tso.tls.cert", file(), null)
            .in(Setting.Section.TLS)
            .description("PEM file with the TSO's certificate chain, its own certificate first. With"
                    + " `tidemark.tso.tls.key`."));

    public static final Setting<String> TSO_TLS_KEY = declare(Setting.of("tidemark.tso.tls.key", file(), null)
            .in(Setting.Section.TLS)
            .description("PEM file with the TSO's unencrypted PKCS#8 private key (`BEGIN PRIVATE KEY`)."));

    public static final Setting<String> TSO_TLS_KEYSTORE = declare(Setting.of("tidemark.tso.tls.keystore", file(),
                    null)
            .in(Setting.Section.TLS)
            .description("Instead of cert and key: a PKCS#12 or JKS key store with the TSO's key and chain. Setting"
                    + " both is refused."));

    public static final Setting<String> TSO_TLS_KEYSTORE_PASSWORD = declare(Setting.of(
                    "tidemark.tso.tls.keystore-password", optionalText("a password"), "")
            .in(Setting.Section.TLS)
            .description("Password of the key store (and of its key)."));

    public static final Setting<String> TSO_TLS_TRUST = declare(Setting.of("tidemark.tso.tls.trust", file(), null)
            .in(Setting.Section.TLS)
            .description("PEM file of the CA certificates that sign client certificates; needed for mutual TLS."));

    public static final Setting<String> TSO_TLS_CLIENT_AUTH = declare(Setting.of("tidemark.tso.tls.client-auth",
                    choice("none", "require"), "none")
            .in(Setting.Section.TLS)
            .description("`none`: clients need no certificate. `require`: mutual TLS, every client must present a"
                    + " certificate signed by a CA of `tidemark.tso.tls.trust`; its subject becomes the client's"
                    + " identity, so commit tokens are good only for the client they were issued to."));

    public static final Setting<String> TSO_TLS_ALLOWED_CLIENTS = declare(Setting.of(
                    "tidemark.tso.tls.allowed-clients",
                    optionalText("client certificate subjects separated by ;"), "")
            .in(Setting.Section.TLS)
            .description("With `client-auth` `require`: the client certificate subjects allowed in, distinguished"
                    + " names separated by `;` (`CN=billing,O=Example;CN=reports,O=Example`); others get"
                    + " `ERROR NOT_AUTHORIZED`. Empty: every client with a trusted certificate. Set without `require`"
                    + " (or `client-auth` without `enabled`): refused at start-up."));

    // --- Kerberos (the TSO and the sweeper log in to a secured HBase from a keytab) ---

    public static final Setting<String> SECURITY_PRINCIPAL = declare(Setting.of("tidemark.security.principal",
                    optionalText("a Kerberos principal"), null)
            .in(Setting.Section.KERBEROS)
            .description("Kerberos principal the command logs in as from its keytab before it connects to HBase, for"
                    + " example `tidemark/_HOST@EXAMPLE.COM` (`_HOST` becomes this machine's canonical host name)."
                    + " Unset: the process uses the credentials it already has (a `kinit` ticket cache). Needs"
                    + " `hadoop.security.authentication=kerberos` in the hbase-site.xml, else it is refused."));

    public static final Setting<String> SECURITY_KEYTAB = declare(Setting.of("tidemark.security.keytab", file(),
                    null)
            .in(Setting.Section.KERBEROS)
            .description("Keytab file holding the principal's keys; required with the principal, must be"
                    + " readable."));

    public static final Setting<Integer> SECURITY_RELOGIN_INTERVAL_MS = declare(Setting.of(
                    "tidemark.security.relogin-interval-ms", intRange(1000, 86_400_000), 60_000)
            .in(Setting.Section.KERBEROS)
            .description("How often, in ms, the process checks its ticket and logs in again from the keytab when the"
                    + " ticket nears its end, so a TSO outlives any ticket lifetime."));

    // --- tables (shared by TSO, clients and coprocessors) ---

    public static final Setting<TableName> COMMIT_TABLE = declare(Setting.of("tidemark.commit-table.name",
                    tableName(), TableName.valueOf("tidemark:commits"))
            .in(Setting.Section.TABLES)
            .description("HBase table of commit records (and the persisted low watermark). The namespace is created"
                    + " when missing. Region servers take it from the table's binding, which `TidemarkAdmin` writes"
                    + " from this key when it attaches the observer."));

    /** At most 255, the commit table layout's {@code MAX_BUCKETS}: salts stay below its own rows' first byte. */
    public static final Setting<Integer> COMMIT_TABLE_REGIONS = declare(Setting.of("tidemark.commit-table.regions",
                    intRange(1, 255), 4)
            .in(Setting.Section.TABLES)
            .description("Salt buckets of the commit table; the table is pre-split into one region per bucket when"
                    + " created, and records the number in its table attribute `tidemark.commit-table.buckets` and its"
                    + " layout row ([architecture](architecture.md#commit-table)). Every client, TSO and region server"
                    + " must use the table's number, because it is part of the row key: a process configured"
                    + " otherwise refuses to write any decision, and a TSO to start (`CommitTableMismatchException`,"
                    + " naming this key). Fewer regions put more records into each region's share of a group-commit"
                    + " batch, and each share costs a WAL sync: at the default, one region per group-commit lane, the"
                    + " commit-record scenario of `bench tso` made 1.3x (local) to 2x (hdfs) the pairs per second of"
                    + " 16 regions ([benchmarks](benchmarks-history.md#one-commit-table-region-per-lane-2026-11-24))."
                    + " Raise it to spread the commit table over more region servers than 4."));

    public static final Setting<Integer> COMMIT_TABLE_WRITE_PARALLELISM = declare(Setting.of(
                    "tidemark.commit-table.write-parallelism", intRange(1, 256), 4)
            .in(Setting.Section.TABLES)
            .description("Commit-record writes one process keeps in flight to HBase at once: the client's group"
                    + " commit in low-latency mode and the TSO's batch writer in batched mode. A region server runs"
                    + " the check-and-mutates of one request one after another, so several concurrent requests let"
                    + " several handlers work and share WAL syncs; with the commit-record guard a batch costs one WAL"
                    + " sync per region it touches, and fewer, larger batches win (measured here: 2 to 4 writers beat"
                    + " 8). In the client's group commit this is also the number of lanes, each serving the salt"
                    + " buckets congruent to its index with at most one batch in flight, and the limit shared with"
                    + " commits that write their own record when nothing is queued"
                    + " ([architecture](architecture.md#commit-modes), low-latency mode)."));

    public static final Setting<Boolean> COMMIT_TABLE_GUARD = declare(Setting.of("tidemark.commit-table.guard", bool(),
                    true)
            .in(Setting.Section.TABLES)
            .description("`true` attaches the commit-record guard coprocessor when the commit table is created, so"
                    + " only decisions the TSO sealed get into the commit table"
                    + " ([security](security.md#only-the-tsos-decisions-reach-the-commit-table)) and batches of"
                    + " commit records cost one WAL sync ([architecture](architecture.md#commit-table)). It needs the"
                    + " coprocessor bundle on the classpath of every region server that may host the commit table"
                    + " ([coprocessors](coprocessors.md#installing-the-coprocessor-jar-on-an-existing-cluster)), as"
                    + " transactional tables do. `false` leaves the commit table open to whatever its writers put"
                    + " there, as Apache Omid's is: any application could then commit a transaction the TSO never"
                    + " decided. Clients and the TSO detect the guard from the table descriptor, so only the process"
                    + " that creates the table (the TSO) reads this key."));

    public static final Setting<TableName> TIMESTAMP_TABLE = declare(Setting.of("tidemark.timestamp-table.name",
                    tableName(), TableName.valueOf("tidemark:timestamps"))
            .in(Setting.Section.TABLES)
            .description("HBase table holding the TSO's timestamp bound, the cluster settings and the TSOs' decision"
                    + " keys. It also names the TSO lease: TSOs of the same timestamp table compete for one lease."
                    + " Region servers take it from the observer's properties, which `TidemarkAdmin` writes from"
                    + " this key."));

    public static final Setting<String> ZOOKEEPER_ROOT = declare(Setting.of("tidemark.zookeeper.root", znodePath(),
                    "/tidemark")
            .in(Setting.Section.TABLES)
            .description("Znode under which the TSO leases live, in the HBase cluster's ZooKeeper:"
                    + " `<root>/tso/<timestamp table>`. TSOs and clients must agree."));

    // --- client ---

    public static final Setting<HostAndPort> CLIENT_TSO_ADDRESS = declare(Setting.of("tidemark.client.tso.address",
                    hostAndPort(), null)
            .in(Setting.Section.CLIENT)
            .description("Unset: the client finds the active TSO through its lease in the ZooKeeper of its HBase"
                    + " connection (`hbase.zookeeper.quorum`), so TSO failover needs no client change. Set: a fixed"
                    + " `host:port` of the TSO; an IPv6 address goes in brackets (`[::1]:54758`)."));

    public static final Setting<Integer> CLIENT_TSO_CONNECTIONS = declare(Setting.of(
                    "tidemark.client.tso.connections", intRange(1, 64), 1)
            .in(Setting.Section.CLIENT)
            .description("TCP connections to the TSO per `TransactionManager`; requests are pipelined over them."));

    public static final Setting<Integer> CLIENT_TSO_TIMEOUT_MS = declare(Setting.of(
                    "tidemark.client.tso.request-timeout-ms", intRange(1, Integer.MAX_VALUE), 5000)
            .in(Setting.Section.CLIENT)
            .description("How long, in ms, a BEGIN or COMMIT waits for its reply, reconnecting meanwhile if needed"
                    + " (during a TSO failover requests wait for the new active TSO). A COMMIT that times out has an"
                    + " unknown outcome, which the client settles through the commit table."));

    public static final Setting<Integer> CLIENT_TSO_RETRY_BACKOFF_MS = declare(Setting.of(
                    "tidemark.client.tso.retry-backoff-ms", intRange(0, Integer.MAX_VALUE), 100)
            .in(Setting.Section.CLIENT)
            .description("Pause, in ms, between connection attempts; attempts go on while a request waits within its"
                    + " timeout."));

    public static final Setting<Boolean> CLIENT_TSO_TLS_ENABLED = declare(Setting.of("tidemark.client.tso.tls.enabled",
                    bool(), false)
            .in(Setting.Section.CLIENT)
            .description("`true`: the client speaks TLS to the TSO (it must when the TSO sets"
                    + " `tidemark.tso.tls.enabled`). A mismatch in either direction fails at once with a message"
                    + " naming this key."));

    public static final Setting<String> CLIENT_TSO_TLS_TRUST = declare(Setting.of("tidemark.client.tso.tls.trust",
                    file(), null)
            .in(Setting.Section.CLIENT)
            .description("PEM file of the CA certificates the client trusts for the TSO's certificate; unset: the"
                    + " JDK's default trust store."));

    public static final Setting<Boolean> CLIENT_TSO_TLS_VERIFY_HOSTNAME = declare(Setting.of(
                    "tidemark.client.tso.tls.verify-hostname", bool(), true)
            .in(Setting.Section.CLIENT)
            .description("Whether the TSO's certificate must name the host the client connects to (the lease's"
                    + " advertised host, or the host of `tidemark.client.tso.address`). Switch off only for tests."));

    public static final Setting<String> CLIENT_TSO_TLS_CERT = declare(Setting.of("tidemark.client.tso.tls.cert",
                    file(), null)
            .in(Setting.Section.CLIENT)
            .description("Mutual TLS: PEM file with the client's certificate chain. With"
                    + " `tidemark.client.tso.tls.key`."));

    public static final Setting<String> CLIENT_TSO_TLS_KEY = declare(Setting.of("tidemark.client.tso.tls.key", file(),
                    null)
            .in(Setting.Section.CLIENT)
            .description("Mutual TLS: PEM file with the client's unencrypted PKCS#8 private key."));

    public static final Setting<String> CLIENT_TSO_TLS_KEYSTORE = declare(Setting.of(
                    "tidemark.client.tso.tls.keystore", file(), null)
            .in(Setting.Section.CLIENT)
            .description("Mutual TLS, instead of cert and key: a PKCS#12 or JKS key store with the client's key and"
                    + " chain."));

    public static final Setting<String> CLIENT_TSO_TLS_KEYSTORE_PASSWORD = declare(Setting.of(
                    "tidemark.client.tso.tls.keystore-password", optionalText("a password"), "")
            .in(Setting.Section.CLIENT)
            .description("Password of the client's key store."));

    public static final Setting<ConflictLevel> CLIENT_CONFLICT_LEVEL = declare(Setting.of(
                    "tidemark.client.conflict-level", choice(ConflictLevel.values(), ConflictLevel::configName), null)
            .in(Setting.Section.CLIENT)
            .description("Unset: the client follows the cluster's conflict level, announced by the TSO. Set: the"
                    + " level this client insists on; `begin()` refuses a cluster with another one."));

    public static final Setting<String> CLIENT_POST_COMMIT = declare(Setting.of("tidemark.client.post-commit",
                    choice("sync", "async"), "async")
            .in(Setting.Section.CLIENT)
            .description("`async` (the default since issue 14's measurements and chaos runs; see docs/benchmarks.md"
                    + " \"Where the time goes\"): `commit()` returns once the transaction is committed and one of two"
                    + " background threads does that work; at most 1,024 post-commits wait for them"
                    + " (`AsyncPostCommits.MAX_WAITING`), beyond that (and after `close()`) `commit()` does its own,"
                    + " so a backlog never grows without bound. `close()` waits up to 30 s for the waiting ones (and"
                    + " for the non-blocking API's, which run on HBase's threads); a"
                    + " post-commit that never ran leaves its commit record to readers and the sweeper. `sync`:"
                    + " `commit()` returns after writing the shadow cells and deleting the commit record: slower"
                    + " commits, but later readers find shadow cells and never look in the commit table."));

    public static final Setting<Integer> CLIENT_MIN_VERSIONS = declare(Setting.of("tidemark.client.min-family-versions",
                    intRange(1, Integer.MAX_VALUE), Integer.MAX_VALUE)
            .in(Setting.Section.CLIENT)
            .description("Smallest `VERSIONS` a column family of a transactional table may have; tables with fewer"
                    + " are refused with `TableNotTransactionalException`. Table administration creates families with"
                    + " at least as many."));

    /** At most an hour. */
    public static final Setting<Long> CLIENT_COMMIT_RECORD_TIMEOUT_MS = declare(Setting.of(
                    "tidemark.client.commit-record-timeout-ms", longRange(1, 3_600_000L), 30_000L)
            .in(Setting.Section.CLIENT)
            .description("The commit-record deadline, in ms: no attempt to write a transaction's commit record runs"
                    + " later than this after the client sent COMMIT (in batched mode: after the TSO decided the"
                    + " batch's first commit), and HBase's operation and RPC timeouts of that write end there too."
                    + " Past it the outcome is settled by invalidating the transaction (it aborts with"
                    + " `COMMIT_TABLE_UNAVAILABLE`; a batched TSO invalidates the batch itself and answers"
                    + " `ABORTED INVALIDATED`). The commit-table sweeper relies on this bound to remove invalidation"
                    + " markers ([coprocessors](coprocessors.md#commit-table-sweeper)), so every client, the TSO and"
                    + " the sweeper must use the same value (or the sweeper a larger one). Keep it far above the"
                    + " commit-table write latency, including region moves; too low a value turns slow commits into"
                    + " aborts."));

    public static final Setting<Long> CLIENT_WRITE_BUFFER_BYTES = declare(Setting.of(
                    "tidemark.client.write-buffer-bytes", longRange(0, Integer.MAX_VALUE), 2L * 1024 * 1024)
            .in(Setting.Section.CLIENT)
            .description("How many bytes of a transaction's writes (cells plus 48 bytes each) the client keeps before"
                    + " sending them to HBase. Writes are kept until commit, until a read of the transaction could"
                    + " see them, or until they pass this size; then they are sent together, sorted by row"
                    + " ([architecture](architecture.md#transaction-life-cycle)). 0 sends every write at once and"
                    + " turns single-region commits off."));

    public static final Setting<Boolean> CLIENT_SINGLE_REGION_COMMIT = declare(Setting.of(
                    "tidemark.client.single-region-commit", bool(), true)
            .in(Setting.Section.CLIENT)
            .description("Whether a transaction whose kept writes all fall in one region of a table with the fast"
                    + " path commits with one request to that region instead of through the TSO"
                    + " ([architecture](architecture.md#single-region-commit)); it uses"
                    + " `tidemark.client.fastpath.operation-timeout-ms` as its operation timeout. Setting it to"
                    + " `true` while `tidemark.client.write-buffer-bytes` is 0 is refused."));

    public static final Setting<Boolean> CLIENT_LAZY_BEGIN = declare(Setting.of("tidemark.client.lazy-begin", bool(),
                    false)
            .in(Setting.Section.CLIENT)
            .description("Whether `begin()` returns at once and a transaction asks the TSO for its start timestamp only"
                    + " when it first needs it (its first read, delete, checkpoint, early send of its writes, or a"
                    + " commit through the TSO); a transaction that only put rows of one region commits there without"
                    + " any TSO round trip ([architecture](architecture.md#write-only-single-region-commit)), and one"
                    + " whose first read, of a table with the fast path, is of a row it then writes with rows of its"
                    + " region does too ([architecture](architecture.md#read-modify-write-without-a-begin)). With it,"
                    + " `begin()` no longer fails when no TSO answers: the first operation that needs one does. Needs"
                    + " `tidemark.client.single-region-commit`; setting it to `true` while that is off is refused."));

    public static final Setting<String> CLIENT_METRICS_NAME = declare(Setting.of("tidemark.client.metrics.name",
                    matching("[A-Za-z0-9._-]+", "letters, digits, '.', '_' and '-' (it becomes part of a JMX name)"),
                    "default")
            .in(Setting.Section.CLIENT)
            .description("Name of a `TransactionManager`'s metrics in JMX,"
                    + " `tidemark.client:manager=<name>,name=<metric>` ([monitoring](monitoring.md#client-metrics))."
                    + " A name another open manager of the JVM already uses gets a suffix (`-2`, `-3`, ...)."));

    public static final Setting<Integer> CLIENT_FASTPATH_OPERATION_TIMEOUT_MS = declare(Setting.of(
                    "tidemark.client.fastpath.operation-timeout-ms", intRange(1, Integer.MAX_VALUE), 60_000)
            .in(Setting.Section.CLIENT)
            .description("How long, in ms, one `FastPathTable` operation may take, all attempts (HBase's re-sends,"
                    + " the retry with a fresh TSO timestamp) included; after it the operation fails with its outcome"
                    + " unknown. A table also draws a new stream id once its id is this old. Region servers refuse"
                    + " writes from a client whose timeout does not fit their operation records:"
                    + " `2 x timeout + hbase.master.maxclockskew <= tidemark.fastpath.operation-record-ttl-ms`"
                    + " ([fast-path.md](fast-path.md#retries))."));

    // --- table administration and the commit-table sweeper ---

    public static final Setting<String> ADMIN_COPROCESSOR_JAR = declare(Setting.of("tidemark.admin.coprocessor-jar",
                    optionalText("a jar's path or URL"), "")
            .in(Setting.Section.ADMINISTRATION)
            .description("Where region servers load the Tidemark coprocessors from when `TidemarkAdmin` /"
                    + " `./tidemark table` attaches them (for example"
                    + " `hdfs:///hbase/lib/tidemark-coprocessor-bundle-0.1.0-hbase-2.6.jar`, the coprocessor bundle);"
                    + " empty means the region servers' own classpath ([coprocessors.md](coprocessors.md))."));

    public static final Setting<List<TableName>> ADMIN_NON_TRANSACTIONAL_TABLES = declare(Setting.of(
                    "tidemark.admin.non-transactional-tables", tableNames(), Collections.emptyList())
            .in(Setting.Section.ADMINISTRATION)
            .description("Tables that look transactional (a family keeping `tidemark.client.min-family-versions`"
                    + " versions, or a Tidemark coprocessor) but never hold transactional data. The sweeper and"
                    + " `TransactionManager.outcome` refuse to run while a table that may hold transactional cells has"
                    + " an unmarked family; they leave the tables listed here alone instead."));

    public static final Setting<Long> SWEEPER_COMMITTED_AGE_MS = declare(Setting.of("tidemark.sweeper.committed-age-ms",
                    longRange(0, Long.MAX_VALUE), 60_000L)
            .in(Setting.Section.ADMINISTRATION)
            .description("A commit record older than this, in ms, belongs to a client that died before its"
                    + " post-commit: `./tidemark sweep` writes its shadow cells, then deletes it."));

    public static final Setting<Long> SWEEPER_INVALIDATED_AGE_MS = declare(Setting.of(
                    "tidemark.sweeper.invalidated-age-ms", longRange(0, Long.MAX_VALUE), 3_600_000L)
            .in(Setting.Section.ADMINISTRATION)
            .description("An invalidation marker younger than this, in ms, is left alone. An older one is undone"
                    + " when its writer turns out to have committed (a shadow cell), and rolled back (tentative cells,"
                    + " then the marker) when its writer started at or below the low watermark; otherwise it waits"
                    + " for a later pass. Must exceed `tidemark.client.commit-record-timeout-ms`."));

    public static final Setting<Long> SWEEPER_MARKER_MARGIN_MS = declare(Setting.of("tidemark.sweeper.marker-margin-ms",
                    longRange(0, 3_600_000L), 5_000L)
            .in(Setting.Section.ADMINISTRATION)
            .description("A sweep pass removes invalidation markers only once"
                    + " `tidemark.client.commit-record-timeout-ms` plus this margin, in ms, has passed since it read"
                    + " the low watermark. The margin covers a commit-record write a region server received just"
                    + " before its writer's deadline and applies just after it; keep it above the longest pause you"
                    + " expect of a region server."));

    public static final Setting<Integer> SWEEPER_BATCH = declare(Setting.of("tidemark.sweeper.batch",
                    intRange(1, 10_000_000), 10_000)
            .in(Setting.Section.ADMINISTRATION)
            .description("Commit records handled per sweep pass (bounds the sweeper's memory)."));

    // --- fast-path coprocessor (region servers; a table's coprocessor properties override the site files) ---

    public static final Setting<String> FASTPATH_WRITE_CHECK = declare(Setting.of("tidemark.fastpath.write-check",
                    choice("row", "region"), "row")
            .in(Setting.Section.FAST_PATH)
            .description("How a generic transaction's tentative write detects a newer fast-path write. `row`: only a"
                    + " fast-path version newer than the transaction's start timestamp on the same row aborts it."
                    + " `region`: the paper's region-wide clock (any newer fast-path write in the region aborts it);"
                    + " kept for comparison, it causes avoidable aborts."));

    public static final Setting<Long> FASTPATH_READ_WAIT_MS = declare(Setting.of("tidemark.fastpath.read-wait-ms",
                    longRange(1, Long.MAX_VALUE), 30_000L)
            .in(Setting.Section.FAST_PATH)
            .description("How long, in ms, a generic read waits for fast-path writes already minted below its"
                    + " snapshot to finish before it fails with a retryable error."));

    /** At most 2^61-1, so twice a client's timeout plus the clock skew cannot overflow beside it. */
    public static final Setting<Long> FASTPATH_OPERATION_RECORD_TTL_MS = declare(Setting.of(
                    "tidemark.fastpath.operation-record-ttl-ms", longRange(1, Long.MAX_VALUE / 4), 600_000L)
            .in(Setting.Section.FAST_PATH)
            .description("How long, in ms, a region keeps a client stream's fast-path operation record, which makes a"
                    + " re-sent write answer instead of running again. Older records are removed by the next"
                    + " fast-path write of the row and by compactions. Must be at least twice the clients'"
                    + " `tidemark.client.fastpath.operation-timeout-ms` plus HBase's `hbase.master.maxclockskew`"
                    + " (default 30000, read from the region server's configuration); writes of clients beyond that"
                    + " are refused with a message naming both keys."));

    private final Configuration conf;

    public TidemarkConfig(Configuration conf) {
        this.conf = conf;
    }

    private static <T> Setting<T> declare(Setting<T> setting) {
        for (Setting<?> declared : ALL) {
            if (declared.key().equals(setting.key())) {
                throw new IllegalStateException(setting.key() + " is declared twice");
            }
        }
        ALL.add(setting);
        return setting;
    }

    /** Every setting, in the order docs/configuration.md lists them. */
    public static List<Setting<?>> all() {
        return Collections.unmodifiableList(ALL);
    }

    /**
     * The settings of the site files on the classpath: {@value #HBASE_SITE_FILE}, then {@value #SITE_FILE}, whose
     * values win; every key neither sets takes its default. Logs a warning when neither file is on the classpath,
     * since a client then looks for the TSO in the ZooKeeper its HBase connection names, often the default one.
     */
    public static TidemarkConfig load() {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        return load(loader != null ? loader : TidemarkConfig.class.getClassLoader());
    }

    static TidemarkConfig load(ClassLoader loader) {
        Configuration conf = new Configuration(false);
        conf.setClassLoader(loader);
        List<String> found = siteFilesOn(loader);
        found.forEach(conf::addResource);
        if (found.isEmpty()) {
            LOG.warn("Neither {} nor {} is on the classpath: every tidemark.* setting takes its default, and clients"
                    + " look for the TSO in the ZooKeeper their HBase connection names (docs/configuration.md)",
                    HBASE_SITE_FILE, SITE_FILE);
        }
        return new TidemarkConfig(conf);
    }

    /** The site files {@link #load()} reads from {@code loader}, in the order they apply. */
    static List<String> siteFilesOn(ClassLoader loader) {
        List<String> found = new ArrayList<>();
        for (String file : new String[] {HBASE_SITE_FILE, SITE_FILE}) {
            if (loader.getResource(file) != null) {
                found.add(file);
            }
        }
        return found;
    }

    public Configuration hadoopConfiguration() {
        return conf;
    }

    /**
     * The setting's value: its default when unset, else what its text stands for.
     *
     * @throws InvalidConfigurationException naming the key, the value and what the setting accepts
     */
    public <T> T get(Setting<T> setting) {
        return setting.valueIn(conf);
    }

    /** The setting's value when it is set, null when it is not (its reader then decides, not the default). */
    public <T> @Nullable T getIfSet(Setting<T> setting) {
        return isSet(setting) ? get(setting) : null;
    }

    /** Whether the setting has a value (a non-blank one), as opposed to falling back to its default. */
    public boolean isSet(Setting<?> setting) {
        return setting.isSetIn(conf);
    }

    /** Gives the setting a value, as a site file would write it; {@link #get} validates it. */
    public void set(Setting<?> setting, String value) {
        conf.set(setting.key(), value);
    }
}
