package io.tidemark.cli;

import io.tidemark.client.PostCommitMode;
import io.tidemark.config.Choices;

/**
 * Parses {@code sync} or {@code async}, as in tidemark.client.post-commit; anything else is a usage error naming both.
 */
public final class PostCommitModeConverter extends ChoiceConverter<PostCommitMode> {

    public PostCommitModeConverter() {
        super(name -> Choices.parse(PostCommitMode.values(), PostCommitMode::configName, name, "post-commit mode"));
    }
}
