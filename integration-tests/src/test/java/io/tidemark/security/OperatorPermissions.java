package io.tidemark.security;

import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.security.access.Permission;
import org.apache.hadoop.hbase.security.access.UserPermission;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The HBase shell commands of docs/operations.md, step 4 ("HBase permissions"), read from the page itself, so that the
 * secured-cluster tests grant exactly what the documentation tells an operator to grant: the page and the tests
 * cannot drift apart. Only {@code create_namespace} and {@code grant} are understood; any other command in the step
 * fails the reading, so a new kind of step cannot be skipped silently.
 */
final class OperatorPermissions {

    static final Path OPERATIONS_DOC = Paths.get("../docs/operations.md");

    private static final Pattern STEP = Pattern.compile("\\*\\*4\\. HBase permissions\\*\\*(.*?)\\n\\*\\*5\\. ",
            Pattern.DOTALL);
    private static final Pattern COMMAND = Pattern.compile("^hbase> (\\S+) (.*?)\\s*(#.*)?$");
    private static final Pattern NAMESPACE = Pattern.compile("'([^']+)'");
    private static final Pattern GRANT = Pattern.compile("'([^']+)', '([RWXCA]+)', '([^']+)'");

    /** One {@code grant} of the step: {@code user} gets {@code actions} on a table, or a namespace ({@code @ns}). */
    record Grant(String user, String actions, String target) {

        boolean isNamespace() {
            return target.startsWith("@");
        }

        Permission permission() {
            Permission.Action[] granted = new Permission.Action[actions.length()];
            for (int i = 0; i < actions.length(); i++) {
                granted[i] = action(actions.charAt(i));
            }
            return isNamespace()
                    ? Permission.newBuilder(target.substring(1)).withActions(granted).build()
                    : Permission.newBuilder(TableName.valueOf(target)).withActions(granted).build();
        }

        private static Permission.Action action(char code) {
            for (Permission.Action action : Permission.Action.values()) {
                if (action.code() == code) {
                    return action;
                }
            }
            throw new IllegalArgumentException("no HBase permission " + code);
        }

        /** The same grant to {@code other}. */
        Grant to(String other) {
            return new Grant(other, actions, target);
        }

        @Override
        public String toString() {
            return "grant '" + user + "', '" + actions + "', '" + target + "'";
        }
    }

    private final List<String> namespaces;
    private final List<Grant> grants;

    private OperatorPermissions(List<String> namespaces, List<Grant> grants) {
        this.namespaces = namespaces;
        this.grants = grants;
    }

    /** Step 4 of docs/operations.md. */
    static OperatorPermissions fromOperationsDoc() throws IOException {
        return parse(Files.readString(OPERATIONS_DOC, StandardCharsets.UTF_8));
    }

    static OperatorPermissions parse(String page) {
        Matcher step = STEP.matcher(page);
        if (!step.find()) {
            throw new IllegalStateException(OPERATIONS_DOC + " has no step \"**4. HBase permissions**\" followed by"
                    + " step 5");
        }
        List<String> namespaces = new ArrayList<>();
        List<Grant> grants = new ArrayList<>();
        for (String line : step.group(1).split("\n")) {
            Matcher command = COMMAND.matcher(line.trim());
            if (!command.matches()) {
                continue;
            }
            String arguments = command.group(2);
            switch (command.group(1)) {
                case "create_namespace" -> namespaces.add(match(NAMESPACE, arguments, line).group(1));
                case "grant" -> {
                    Matcher grant = match(GRANT, arguments, line);
                    grants.add(new Grant(grant.group(1), grant.group(2), grant.group(3)));
                }
                default -> throw new IllegalStateException("step 4 of " + OPERATIONS_DOC + " has a command the"
                        + " secured-cluster tests cannot run: " + line);
            }
        }
        if (grants.isEmpty()) {
            throw new IllegalStateException("step 4 of " + OPERATIONS_DOC + " grants nothing");
        }
        return new OperatorPermissions(List.copyOf(namespaces), List.copyOf(grants));
    }

    private static Matcher match(Pattern pattern, String arguments, String line) {
        Matcher m = pattern.matcher(arguments);
        if (!m.matches()) {
            throw new IllegalStateException("step 4 of " + OPERATIONS_DOC + " has a line the secured-cluster tests"
                    + " cannot read: " + line);
        }
        return m;
    }

    List<String> namespaces() {
        return namespaces;
    }

    List<Grant> grants() {
        return grants;
    }

    /** The step's grants to {@code user}. */
    List<Grant> grantsTo(String user) {
        return grants.stream().filter(g -> g.user().equals(user)).toList();
    }

    /** Creates the step's namespaces and grants its permissions, as the administrator {@code admin}. */
    void apply(Admin admin) throws IOException {
        for (String namespace : namespaces) {
            admin.createNamespace(NamespaceDescriptor.create(namespace).build());
        }
        for (Grant grant : grants) {
            grant(admin, grant);
        }
    }

    /**
     * Grants {@code user} what the step grants {@code role}, as far as {@code kept} accepts: a principal of that role,
     * or with fewer permissions than step 4 gives it.
     */
    void grantAs(Admin admin, String role, String user, Predicate<Grant> kept) throws IOException {
        for (Grant grant : grantsTo(role)) {
            if (kept.test(grant)) {
                grant(admin, grant.to(user));
            }
        }
    }

    static void grant(Admin admin, Grant grant) throws IOException {
        admin.grant(new UserPermission(grant.user(), grant.permission()), true);
    }
}
