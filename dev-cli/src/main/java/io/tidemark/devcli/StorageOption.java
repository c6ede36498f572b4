package io.tidemark.devcli;

import io.tidemark.cli.ChoiceConverter;
import io.tidemark.embedded.EmbeddedStorage;
import picocli.CommandLine.Option;

/** {@code --storage local|hdfs}: where the embedded HBase keeps its root directory and WAL. */
final class StorageOption {

    @Option(names = "--storage", paramLabel = "<storage>", converter = Converter.class,
            description = "Where the embedded HBase keeps its root directory and WAL: local (the local file system; "
                    + "the WAL's hflush is no sync, so nothing is durable) or hdfs (HBase's mini-DFS in this "
                    + "process; hflush/hsync wait for the DataNode pipeline, as on a real cluster). Default: local.")
    private EmbeddedStorage storage;

    /** The chosen storage, {@link EmbeddedStorage#DEFAULT} when none was given. */
    EmbeddedStorage storage() {
        return storage != null ? storage : EmbeddedStorage.DEFAULT;
    }

    /** Whether --storage was on the command line. */
    boolean given() {
        return storage != null;
    }

    /** Parses a storage name; a wrong one is a usage error naming the accepted ones. */
    static final class Converter extends ChoiceConverter<EmbeddedStorage> {
        Converter() {
            super(EmbeddedStorage::fromLabel);
        }
    }
}
