package io.tidemark.cli;

import picocli.CommandLine;

import java.util.function.Function;

/**
 * Parses an option whose value is one of a fixed set of names ({@link io.tidemark.config.Choices}): a wrong name is a
 * usage error that names the accepted ones. Subclasses only say which parser to use (picocli needs a class).
 */
public abstract class ChoiceConverter<E> implements CommandLine.ITypeConverter<E> {

    private final Function<String, E> parse;

    /** @param parse turns a name into a choice, or throws IllegalArgumentException naming the accepted names */
    protected ChoiceConverter(Function<String, E> parse) {
        this.parse = parse;
    }

    @Override
    public E convert(String value) {
        try {
            return parse.apply(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
