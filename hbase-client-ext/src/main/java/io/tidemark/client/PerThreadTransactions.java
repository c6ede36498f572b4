package io.tidemark.client;

/**
 * One transaction per thread, begun and ended explicitly: {@code begin()}, any number of operations on
 * {@link TransactionalTable}s sharing this context, then {@code commit()} or {@code rollback()}. Thread-safe; each
 * thread sees only its own transaction.
 *
 * <pre>{@code
 * PerThreadTransactions transactions = new PerThreadTransactions(tm);
 * Table accounts = TransactionalTable.of(connection, TableName.valueOf("accounts"), transactions);
 * transactions.begin();
 * ... ordinary Table code ...
 * transactions.commit();   // TransactionAbortedException when it conflicted: begin again and retry
 * }</pre>
 */
public final class PerThreadTransactions implements TransactionContext {

    private final TransactionManager manager;
    @SuppressWarnings("ThreadLocalUsage") // per manager on purpose: each manager has its own running transactions
    private final ThreadLocal<Transaction> running = new ThreadLocal<>();

    public PerThreadTransactions(TransactionManager manager) {
        if (manager == null) {
            throw new NullPointerException("manager");
        }
        this.manager = manager;
    }

    /**
     * Begins this thread's transaction.
     *
     * @throws IllegalStateException when this thread's previous transaction was neither committed nor rolled back
     */
    public Transaction begin() throws TransactionException {
        Transaction previous = running.get();
        if (previous != null) {
            throw new IllegalStateException("this thread's transaction " + previous.startTimestamp() + " is still"
                    + " running: commit or roll it back before beginning another");
        }
        Transaction tx = manager.begin();
        running.set(tx);
        return tx;
    }

    /** Commits this thread's transaction; afterwards the thread has none, whether the commit succeeded or not. */
    public void commit() throws TransactionException {
        Transaction tx = current();
        running.remove();
        manager.commit(tx);
    }

    /** Rolls this thread's transaction back; afterwards the thread has none. Does nothing when there is none. */
    public void rollback() {
        Transaction tx = running.get();
        running.remove();
        if (tx != null) {
            manager.rollback(tx);
        }
    }

    @Override
    public Transaction current() {
        Transaction tx = running.get();
        if (tx == null) {
            throw new IllegalStateException("no transaction on thread " + Thread.currentThread().getName()
                    + ": call begin() on its PerThreadTransactions first");
        }
        return tx;
    }
}
