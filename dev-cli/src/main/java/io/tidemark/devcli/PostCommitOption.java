package io.tidemark.devcli;

import io.tidemark.cli.ChoiceConverter;
import io.tidemark.client.PostCommitMode;
import io.tidemark.config.Choices;
import io.tidemark.config.TidemarkConfig;
import picocli.CommandLine.Option;

/**
 * {@code --post-commit sync|async}: when the benchmark's clients write shadow cells and remove commit records. The
 * default is the product's ({@code tidemark.client.post-commit}'s default).
 */
final class PostCommitOption {

    @Option(names = "--post-commit", paramLabel = "<sync|async>", converter = Converter.class,
            defaultValue = TidemarkConfig.CLIENT_POST_COMMIT_DEFAULT,
            description = "Post-commit of the Tidemark clients (shadow cells, then removing the commit record): sync "
                    + "(before commit returns) or async (on background threads). Default: ${DEFAULT-VALUE}.")
    private PostCommitMode postCommit;

    PostCommitMode mode() {
        return postCommit;
    }

    /** Parses sync or async; anything else is a usage error naming both. */
    static final class Converter extends ChoiceConverter<PostCommitMode> {
        Converter() {
            super(name -> Choices.parse(PostCommitMode.values(), PostCommitMode::configName, name, "post-commit mode"));
        }
    }
}
