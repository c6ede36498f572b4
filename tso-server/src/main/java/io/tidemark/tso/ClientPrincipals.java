package io.tidemark.tso;

import io.tidemark.config.InvalidConfigurationException;
import io.tidemark.config.Setting;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;
import javax.security.auth.x500.X500Principal;

/**
 * A set of clients as a setting names them: client certificate subjects (distinguished names, mutual TLS) separated by
 * {@code ;}, and, where allowed, the word {@value #ANONYMOUS} for every client without a certificate (the TSO cannot
 * tell those apart) or the word {@value #NOBODY} alone. No distinguished name is a single word, so they never mix up.
 */
public final class ClientPrincipals {

    /** The word that names every client without a certificate. */
    public static final String ANONYMOUS = "anonymous";
    /** The word that names no client at all. */
    public static final String NOBODY = "none";

    private final boolean anonymous;
    private final Set<X500Principal> subjects;

    private ClientPrincipals(boolean anonymous, Set<X500Principal> subjects) {
        this.anonymous = anonymous;
        this.subjects = subjects;
    }

    /**
     * Parses {@code list}, the value of {@code setting}.
     *
     * @param wordsAllowed whether {@value #ANONYMOUS} and {@value #NOBODY} may appear
     * @throws InvalidConfigurationException naming the key when an entry is none of them
     */
    static ClientPrincipals parse(Setting<String> setting, String list, boolean wordsAllowed) {
        boolean anonymous = false;
        Set<X500Principal> subjects = new LinkedHashSet<>();
        if (wordsAllowed && list.trim().equalsIgnoreCase(NOBODY)) {
            return new ClientPrincipals(false, Set.of());
        }
        for (String entry : list.split(";")) {
            String name = entry.trim();
            if (name.isEmpty()) {
                continue;
            }
            if (wordsAllowed && name.equalsIgnoreCase(ANONYMOUS)) {
                anonymous = true;
                continue;
            }
            try {
                subjects.add(new X500Principal(name));
            } catch (IllegalArgumentException e) {
                throw new InvalidConfigurationException(setting, name, "certificate subjects (distinguished names such"
                        + " as CN=app,O=Example)" + (wordsAllowed ? " or " + ANONYMOUS : "") + " separated by ;"
                        + (wordsAllowed ? ", or " + NOBODY : ""));
            }
        }
        return new ClientPrincipals(anonymous, Collections.unmodifiableSet(subjects));
    }

    /** Whether every client without a certificate belongs. */
    public boolean anonymous() {
        return anonymous;
    }

    /** The certificate subjects that belong. */
    public Set<X500Principal> subjects() {
        return subjects;
    }
}
