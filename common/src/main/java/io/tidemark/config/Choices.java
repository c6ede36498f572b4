package io.tidemark.config;

import java.util.Locale;
import java.util.function.Function;

/**
 * Turns a name a user typed (a configuration value, a command-line option's value, a YCSB property) into one of a
 * fixed set of choices, with one wording for the error everywhere: {@code 'nfs' is not a storage: use local or hdfs}.
 */
public final class Choices {

    private Choices() {
    }

    /**
     * The choice whose name (ignoring case and surrounding blanks) is {@code value}.
     *
     * @param what what the choices are, for the error ("commit mode")
     * @throws IllegalArgumentException naming the value and every accepted name when none matches ({@code value} may
     *         be null, which never matches)
     */
    public static <E> E parse(E[] choices, Function<? super E, String> nameOf, String value, String what) {
        String wanted = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        for (E choice : choices) {
            if (nameOf.apply(choice).equals(wanted)) {
                return choice;
            }
        }
        throw new IllegalArgumentException("'" + value + "' is not a " + what + ": use "
                + alternatives(choices, nameOf));
    }

    /** The names as a sentence lists them: {@code a}, {@code a or b}, {@code a, b or c}. */
    public static <E> String alternatives(E[] choices, Function<? super E, String> nameOf) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < choices.length; i++) {
            if (i > 0) {
                s.append(i == choices.length - 1 ? " or " : ", ");
            }
            s.append(nameOf.apply(choices[i]));
        }
        return s.toString();
    }
}
