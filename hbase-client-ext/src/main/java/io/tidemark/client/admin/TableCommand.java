package io.tidemark.client.admin;

import io.tidemark.table.TableFeature;
import io.tidemark.client.TransactionManager;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.table.TableLoad;
import io.tidemark.table.TransactionalTableLayout;
import io.tidemark.visibility.Conversion;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;

import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.Set;

/**
 * The {@code ./tidemark table create|enable|check|finish-load} command without its command-line framework: the CLI
 * parses the connection options and hands the remaining words here.
 *
 * <pre>
 *   table create &lt;table&gt; &lt;family&gt;...   create a transactional table
 *   table enable &lt;table&gt;               convert an existing table (cells it holds count as committed)
 *   table check  &lt;table&gt;               list every problem; exit code 1 when there is one
 *   table finish-load &lt;table&gt;          end the bulk load a crashed loader left (docs/api.md, "Bulk loads")
 * </pre>
 */
public final class TableCommand {

    public static final String USAGE = "usage: table create <table> <family>... | table enable <table>"
            + " | table check <table> | table finish-load <table>";

    private final Connection connection;
    private final TidemarkConfig config;
    private final TidemarkAdmin admin;
    private final Set<TableFeature> createFeatures;

    /** @param createFeatures what {@code table create} attaches ({@link TableFeature#DEFAULT} plus options) */
    public TableCommand(Connection connection, TidemarkConfig config, Set<TableFeature> createFeatures) {
        this.connection = connection;
        this.config = config;
        this.admin = new TidemarkAdmin(connection, config);
        this.createFeatures = createFeatures;
    }

    /** Runs {@code args} (without the word "table"); returns the process exit code (0 ok, 1 problems, 2 usage). */
    public int run(List<String> args, PrintStream out) throws IOException {
        if (args.size() < 2) {
            out.println(USAGE);
            return 2;
        }
        TableName table = TableName.valueOf(args.get(1));
        switch (args.get(0)) {
            case "create":
                if (args.size() < 3) {
                    out.println("table create needs at least one column family after the table name; " + USAGE);
                    return 2;
                }
                admin.create(table, createFeatures, args.subList(2, args.size()).toArray(new String[0]));
                out.println("created transactional table " + table.getNameAsString() + " with families "
                        + String.join(", ", args.subList(2, args.size())));
                return 0;
            case "enable":
                Conversion conversion;
                // The conversion timestamp is a fence, raised through the TSO.
                try (TransactionManager transactions = TransactionManager.builder(connection).config(config)
                        .build()) {
                    conversion = admin.enable(table, transactions);
                }
                out.println("table " + table.getNameAsString() + " is transactional now"
                        + (conversion.convertedAt() == 0 ? "" : "; cells it stored before count as committed"
                        + " (converted at " + conversion.convertedAt() + ", recorded as "
                        + TransactionalTableLayout.CONVERTED_AT_KEY + ")"));
                return report(table, out);
            case "check":
                return report(table, out);
            case "finish-load":
                TableLoad ended = admin.finishLoad(table);
                out.println(ended.isLoading() ? "bulk load of " + table.getNameAsString() + " finished (" + ended
                        + "): transactions read and write the table again" : "table " + table.getNameAsString()
                        + " was not being bulk loaded; nothing changed");
                return 0;
            default:
                out.println("unknown table command '" + args.get(0) + "'; " + USAGE);
                return 2;
        }
    }

    private int report(TableName table, PrintStream out) throws IOException {
        List<TableProblem> problems = admin.check(table);
        if (problems.isEmpty()) {
            out.println("table " + table.getNameAsString() + " is fully transactional");
            return 0;
        }
        out.println("table " + table.getNameAsString() + " has " + problems.size() + " problem(s):");
        for (TableProblem p : problems) {
            out.println("  " + (p.isBlocking() ? "[blocking] " : "[advisory] ") + p.description());
        }
        return 1;
    }
}
