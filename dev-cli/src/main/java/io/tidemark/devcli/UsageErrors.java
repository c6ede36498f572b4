package io.tidemark.devcli;

import picocli.CommandLine;

import java.util.function.Supplier;

/**
 * The benchmarks' options classes check their values and throw {@link IllegalArgumentException} naming a bad one;
 * on the command line that is a usage error (one line, exit code 2), not a failure of the run.
 */
final class UsageErrors {

    private UsageErrors() {
    }

    /** What {@code build} makes from the values of {@code commandLine}; its refusal of a value is a usage error. */
    static <O> O options(CommandLine commandLine, Supplier<O> build) {
        try {
            return build.get();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(commandLine, e.getMessage());
        }
    }
}
