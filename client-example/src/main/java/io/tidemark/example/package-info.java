/**
 * A client application as a user writes it: the README's {@code Deposit} and a write-write conflict. Parameters and
 * return values are non-null unless documented.
 */
package io.tidemark.example;
