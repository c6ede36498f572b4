package io.tidemark.devcli;

import io.tidemark.cli.PostCommitModeConverter;
import io.tidemark.client.PostCommitMode;
import picocli.CommandLine.Option;

/**
 * {@code --post-commit sync|async}: when the benchmark's clients write shadow cells and remove commit records. The
 * default is the product's ({@code tidemark.client.post-commit}'s default).
 */
final class PostCommitOption {

    @Option(names = "--post-commit", paramLabel = "<sync|async>", converter = PostCommitModeConverter.class,
            defaultValue = "${bundle:default.tidemark.client.post-commit}",
            description = "Post-commit of the Tidemark clients (shadow cells, then removing the commit record): sync "
                    + "(before commit returns) or async (on background threads). Default: ${DEFAULT-VALUE}.")
    private PostCommitMode postCommit;

    PostCommitMode mode() {
        return postCommit;
    }
}
