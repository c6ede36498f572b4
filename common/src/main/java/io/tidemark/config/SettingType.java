package io.tidemark.config;

import org.apache.hadoop.hbase.TableName;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * What values a {@link Setting} accepts and how its text becomes a value: a whole number in a range, one of a few
 * names, a table name. One type says, in one sentence ({@link #accepted()}), what it accepts; that sentence is the
 * error of a bad value, the "Values" column of docs/configuration.md and a line of the conf template alike.
 *
 * @param <T> the value's Java type
 */
public abstract class SettingType<T> {

    private final String accepted;
    private final boolean blankIsUnset;

    private SettingType(String accepted, boolean blankIsUnset) {
        this.accepted = accepted;
        this.blankIsUnset = blankIsUnset;
    }

    /** What the type accepts, as the end of "expected ..." ({@code a whole number from 0 to 65535}). */
    public final String accepted() {
        return accepted;
    }

    /**
     * Whether a blank value means the setting is unset (its default applies) rather than a bad value: so for types
     * whose values may be empty (a list, optional text) and for switches.
     */
    final boolean blankIsUnset() {
        return blankIsUnset;
    }

    /**
     * The value {@code text} (trimmed, never null) stands for.
     *
     * @throws IllegalArgumentException when the type does not accept it
     */
    abstract T parse(String text);

    /** {@code value} as it would be written in a site file. */
    String format(T value) {
        return String.valueOf(value);
    }

    /** What docs add to {@code value} to make it readable ({@code 256 KiB}); empty when nothing. */
    String note(T value) {
        return "";
    }

    /** A whole number from {@code min} to {@code max}; underscores may group digits ({@code 4_194_304}). */
    public static SettingType<Long> longRange(long min, long max) {
        return new WholeNumber<>(min, max, Function.identity());
    }

    /** A whole number from {@code min} to {@code max}, as an {@code int}. */
    public static SettingType<Integer> intRange(int min, int max) {
        return new WholeNumber<>(min, max, Math::toIntExact);
    }

    /** A number of bytes from {@code min} to {@code max}; its default is shown with its size in KiB or MiB. */
    public static SettingType<Integer> byteSize(int min, int max) {
        return new WholeNumber<Integer>(min, max, Math::toIntExact) {
            @Override
            String note(Integer value) {
                return sizeNote(value);
            }
        };
    }

    /** One of {@code choices} by its name (any case). */
    public static <E> SettingType<E> choice(E[] choices, Function<? super E, String> nameOf) {
        return new Choice<>(choices.clone(), nameOf);
    }

    /** One of {@code names} (any case), returned in lower case. */
    public static SettingType<String> choice(String... names) {
        return choice(names, Function.identity());
    }

    /** {@code true} or {@code false}, any case; blank is unset. */
    public static SettingType<Boolean> bool() {
        return new SettingType<Boolean>("true or false", true) {
            @Override
            Boolean parse(String text) {
                return Boolean.valueOf(Choices.parse(new String[] {"true", "false"}, Function.identity(), text,
                        "switch"));
            }
        };
    }

    /** Any text but an empty one. */
    public static SettingType<String> text() {
        return text("a non-empty string");
    }

    /** Non-empty text of a form {@code accepted} describes, which its reader checks. */
    public static SettingType<String> text(String accepted) {
        return new SettingType<String>(accepted, false) {
            @Override
            String parse(String text) {
                if (text.isEmpty()) {
                    throw new IllegalArgumentException("empty");
                }
                return text;
            }
        };
    }

    /** Text of a form {@code accepted} describes, which its reader checks, or nothing (blank is unset). */
    public static SettingType<String> optionalText(String accepted) {
        return new SettingType<String>(accepted, true) {
            @Override
            String parse(String text) {
                return text;
            }
        };
    }

    /** Non-empty text that matches {@code pattern} entirely, which {@code accepted} describes. */
    public static SettingType<String> matching(String pattern, String accepted) {
        Pattern compiled = Pattern.compile(pattern);
        return new SettingType<String>(accepted, false) {
            @Override
            String parse(String text) {
                if (!compiled.matcher(text).matches()) {
                    throw new IllegalArgumentException("no match");
                }
                return text;
            }
        };
    }

    /** The path of a file; that it can be read is checked by whoever reads it. */
    public static SettingType<String> file() {
        return new SettingType<String>("the path of a file", true) {
            @Override
            String parse(String text) {
                return text;
            }
        };
    }

    /** An HBase table name, {@code namespace:table} or {@code table}. */
    public static SettingType<TableName> tableName() {
        return new SettingType<TableName>("an HBase table name, optionally namespace:table", false) {
            @Override
            TableName parse(String text) {
                return TableName.valueOf(text);
            }

            @Override
            String format(TableName value) {
                return value.getNameWithNamespaceInclAsString();
            }
        };
    }

    /** Comma-separated HBase table names, each {@code namespace:table} or {@code table}; blank is none. */
    public static SettingType<List<TableName>> tableNames() {
        return new SettingType<List<TableName>>(
                "a comma-separated list of HBase table names, each optionally namespace:table", true) {
            @Override
            List<TableName> parse(String text) {
                List<TableName> tables = new ArrayList<>();
                for (String name : text.split(",")) {
                    if (!name.trim().isEmpty()) {
                        tables.add(TableName.valueOf(name.trim()));
                    }
                }
                return Collections.unmodifiableList(tables);
            }

            @Override
            String format(List<TableName> value) {
                return String.join(",", value.stream().map(TableName::getNameAsString).toArray(String[]::new));
            }
        };
    }

    /** {@code host:port}; an IPv6 address in brackets. */
    public static SettingType<HostAndPort> hostAndPort() {
        return new SettingType<HostAndPort>("host:port with a port from 1 to 65535", false) {
            @Override
            HostAndPort parse(String text) {
                return HostAndPort.parse(text);
            }
        };
    }

    /** A ZooKeeper path: starts with {@code /}. */
    public static SettingType<String> znodePath() {
        return new SettingType<String>("a znode path starting with /", false) {
            @Override
            String parse(String text) {
                if (!text.startsWith("/")) {
                    throw new IllegalArgumentException("relative");
                }
                return text;
            }
        };
    }

    /**
     * {@code n} the way docs and errors show a bound: powers of two from 2^16 as {@code 2^k}, one below a power of two
     * from 2^31 - 1 as {@code 2^k-1}, other numbers of six digits or more with thousands separators.
     */
    static String readable(long n) {
        if (n >= 1 << 16 && Long.bitCount(n) == 1) {
            return "2^" + Long.numberOfTrailingZeros(n);
        }
        if (n >= Integer.MAX_VALUE && Long.bitCount(n + 1) == 1) {
            return "2^" + (64 - Long.numberOfLeadingZeros(n)) + "-1";
        }
        return n >= 100_000 ? String.format(Locale.ROOT, "%,d", n) : Long.toString(n);
    }

    private static String sizeNote(long bytes) {
        if (bytes >= 1 << 20 && bytes % (1 << 20) == 0) {
            return (bytes >> 20) + " MiB";
        }
        if (bytes >= 1 << 10 && bytes % (1 << 10) == 0) {
            return (bytes >> 10) + " KiB";
        }
        return "";
    }

    /** A whole number in a range, as a long or an int. */
    private static class WholeNumber<T> extends SettingType<T> {

        private final long min;
        private final long max;
        private final Function<Long, T> convert;

        WholeNumber(long min, long max, Function<Long, T> convert) {
            super("a whole number from " + readable(min) + " to " + readable(max), false);
            this.min = min;
            this.max = max;
            this.convert = convert;
        }

        @Override
        T parse(String text) {
            long value = Long.parseLong(text.replace("_", ""));
            if (value < min || value > max) {
                throw new IllegalArgumentException("out of range");
            }
            return convert.apply(value);
        }
    }

    /** One of a few names. */
    private static final class Choice<E> extends SettingType<E> {

        private final E[] choices;
        private final Function<? super E, String> nameOf;

        Choice(E[] choices, Function<? super E, String> nameOf) {
            super("one of " + String.join(", ", Arrays.stream(choices).map(nameOf).toArray(String[]::new)), false);
            this.choices = choices;
            this.nameOf = nameOf;
        }

        @Override
        E parse(String text) {
            return Choices.parse(choices, nameOf, text, "choice");
        }

        @Override
        String format(E value) {
            return nameOf.apply(value);
        }
    }
}
