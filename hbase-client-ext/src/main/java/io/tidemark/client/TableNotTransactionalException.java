package io.tidemark.client;

import io.tidemark.client.admin.TableProblem;
import org.apache.hadoop.hbase.TableName;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.util.List;

/**
 * A table cannot hold transactional data: for example one of its column families keeps fewer versions than
 * Tidemark needs ({@code tidemark.client.min-family-versions}), expires cells with a TTL, or is not marked
 * transactional. The message names every problem and its fix; {@code TidemarkAdmin.enable} fixes those of the
 * families at once.
 */
public class TableNotTransactionalException extends IOException {

    private static final long serialVersionUID = 1L;

    public TableNotTransactionalException(TableName table, List<TableProblem> problems) {
        super(message(table, problems));
    }

    /** A table whose descriptor Tidemark cannot read, for the reason given. */
    public TableNotTransactionalException(TableName table, @Nullable String reason) {
        super("table " + table.getNameAsString() + " cannot be used transactionally: " + reason);
    }

    private static String message(TableName table, List<TableProblem> problems) {
        StringBuilder m = new StringBuilder("table ").append(table.getNameAsString())
                .append(" cannot be used transactionally: ");
        for (int i = 0; i < problems.size(); i++) {
            m.append(i == 0 ? "" : "; ").append(problems.get(i).description());
        }
        if (problems.stream().allMatch(TableProblem::isFixedByEnable)) {
            m.append(". TidemarkAdmin.enable (./tidemark table enable ").append(table.getNameAsString())
                    .append(") fixes every problem at once");
        }
        return m.toString();
    }
}
