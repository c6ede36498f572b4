/**
 * Snapshot-isolation transactions on HBase.
 *
 * <pre>{@code
 * try (TransactionManager tm = TransactionManager.builder(connection).build();
 *      TTable accounts = new TTable(connection, TableName.valueOf("accounts"))) {
 *     Transaction tx = tm.begin();
 *     Result r = accounts.get(tx, new Get(row).addColumn(family, balance));
 *     accounts.put(tx, new Put(row).addColumn(family, balance, newBalance));
 *     tm.commit(tx);   // TransactionAbortedException (see reason()) when it conflicted: retry
 * }
 * }</pre>
 *
 * <p>A {@link io.tidemark.client.TransactionManager} gets start and commit timestamps from the TSO and owns the
 * commit protocol; a {@link io.tidemark.client.TTable} reads a transaction's snapshot and writes its tentative cells
 * (see {@link io.tidemark.encoding.CellEncoding} for their layout). Tables must keep every version of every family
 * ({@code VERSIONS => 2147483647}).
 */
package io.tidemark.client;
