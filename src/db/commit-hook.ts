import { AsyncLocalStorage } from 'node:async_hooks'
import type { Transaction } from 'kysely'
import type { DB } from './tables/index.ts'

/**
 * Work that must commit with a request's write, whatever the write is: `withAccountLock` runs the
 * current hook inside its transaction, after the write's own work and before the commit, with the
 * value that work returned. The request pipeline sets one per request where it needs it (the
 * `Idempotency-Key` answer, docs/api.md), so no service has to know about it.
 */
export type CommitHook = (trx: Transaction<DB>, result: unknown) => Promise<void>

const current = new AsyncLocalStorage<CommitHook>()

/** Runs `fn` with `hook` called by every `withAccountLock` transaction `fn` opens. */
export function withCommitHook<T> (hook: CommitHook, fn: () => T): T {
  return current.run(hook, fn)
}

/** The hook of the code now running, if any. */
export function commitHook (): CommitHook | undefined {
  return current.getStore()
}

/**
 * Runs `fn` without the current hook: for a preparatory transaction whose result is not the
 * request's answer (an upload opened before the write that answers), so the answer is stored once,
 * by the transaction that makes it.
 */
export function withoutCommitHook<T> (fn: () => T): T {
  return current.exit(fn)
}
