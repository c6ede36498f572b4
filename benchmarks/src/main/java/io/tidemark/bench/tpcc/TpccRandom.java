package io.tidemark.bench.tpcc;

import java.util.SplittableRandom;

/**
 * TPC-C's random functions (clause 2.1.6 and 4.3.2): uniform integers, the non-uniform NURand(A, x, y) that makes
 * some customers and items hot, customer last names built from syllables, and alphanumeric strings. One per thread.
 */
public final class TpccRandom {

    /** NURand's A for customer ids. */
    static final int A_CUSTOMER_ID = 1023;
    /** NURand's A for item ids. */
    static final int A_ITEM_ID = 8191;
    /** NURand's A for the number behind a customer's last name. */
    static final int A_LAST_NAME = 255;

    private static final String[] SYLLABLES = {"BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY",
        "ATION", "EING"};
    private static final String ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

    private final SplittableRandom random;
    private final int cCustomerId;
    private final int cItemId;
    private final int cLastName;

    /**
     * @param constants the run's NURand constants C: the same for every thread of a run, as TPC-C requires
     */
    public TpccRandom(SplittableRandom random, Constants constants) {
        this.random = random;
        this.cCustomerId = constants.customerId();
        this.cItemId = constants.itemId();
        this.cLastName = constants.lastName();
    }

    /** A uniform integer in [low, high]. */
    public int uniform(int low, int high) {
        if (low > high) {
            throw new IllegalArgumentException("empty range [" + low + ", " + high + "]");
        }
        return low + random.nextInt(high - low + 1);
    }

    /** Whether an event of probability {@code percent}/100 happens. */
    public boolean percent(int percent) {
        return random.nextInt(100) < percent;
    }

    public double nextDouble() {
        return random.nextDouble();
    }

    /** NURand(A, x, y) = (((random(0, A) | random(x, y)) + C) % (y - x + 1)) + x. */
    static int nuRand(SplittableRandom random, int a, int c, int x, int y) {
        int r = (random.nextInt(a + 1) | (x + random.nextInt(y - x + 1)));
        return ((r + c) % (y - x + 1)) + x;
    }

    /** A customer id in [1, customers], non-uniform as TPC-C's terminals choose them. */
    public int customerId(int customers) {
        return nuRand(random, A_CUSTOMER_ID, cCustomerId, 1, customers);
    }

    /** An item id in [1, items], non-uniform as TPC-C's terminals choose them. */
    public int itemId(int items) {
        return nuRand(random, A_ITEM_ID, cItemId, 1, items);
    }

    /** A last name for the loader: customer {@code customerId}'s (sequential for the first 1,000) or NURand's. */
    public String loadLastName(int customerId) {
        return lastName(customerId <= 1000 ? customerId - 1 : nuRand(random, A_LAST_NAME, cLastName, 0, 999));
    }

    /** The last name of number {@code n} in [0, 999]: three syllables chosen by its decimal digits. */
    static String lastName(int n) {
        if (n < 0 || n > 999) {
            throw new IllegalArgumentException("last-name numbers are 0 to 999, got " + n);
        }
        return SYLLABLES[n / 100] + SYLLABLES[(n / 10) % 10] + SYLLABLES[n % 10];
    }

    /** A random alphanumeric string of length in [min, max]. */
    public String alphanumeric(int min, int max) {
        char[] chars = new char[uniform(min, max)];
        for (int i = 0; i < chars.length; i++) {
            chars[i] = ALPHANUMERIC.charAt(random.nextInt(ALPHANUMERIC.length()));
        }
        return new String(chars);
    }

    /** The constants C of NURand for one run, drawn once (clause 2.1.6). */
    public record Constants(int customerId, int itemId, int lastName) {

        public static Constants draw(SplittableRandom random) {
            return new Constants(random.nextInt(A_CUSTOMER_ID + 1), random.nextInt(A_ITEM_ID + 1),
                    random.nextInt(A_LAST_NAME + 1));
        }
    }
}
