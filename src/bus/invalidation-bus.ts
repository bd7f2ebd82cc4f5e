import { randomBytes } from 'node:crypto'
import type { Transaction } from 'kysely'
import type { DB, Invalidation } from '../db/index.ts'

/** `up`: every change reaches this process; `down`: some may not, so its caches must not serve. */
export type BusState = 'up' | 'down'

/**
 * How the processes of one deployment tell each other what a write changed (docs/credits-and-cache.md,
 * "Freshness"). One implementation per deployment: in-process (embedded), PostgreSQL `NOTIFY` (sent in
 * the writing transaction, delivered on commit), or Redis pub/sub (published after the commit, before
 * the answer). A process hears its own changes from the write path directly, never from the bus.
 */
export interface InvalidationBus {
  readonly kind: 'embedded' | 'postgres' | 'redis'
  readonly state: BusState
  /** Called inside the writing transaction, before its commit. */
  inTransaction: (trx: Transaction<DB>, change: Invalidation) => Promise<void>
  /** Called after the commit, before the write's answer is sent. */
  publish: (change: Invalidation) => Promise<void>
  /** Changes other processes made. */
  subscribe: (listener: (change: Invalidation) => void) => void
  /** Up and down transitions (a process starts up once connected). */
  onState: (listener: (state: BusState) => void) => void
  close: () => Promise<void>
}

interface Message { o: string, a: string, t: Record<string, string[]>, e?: 1 }

export function encodeChange (change: Invalidation, origin: string): string {
  const message: Message = { o: origin, a: change.accountId, t: change.tables }
  if (change.everything === true) message.e = 1
  return JSON.stringify(message)
}

/** The change a message carries, with its origin; undefined for anything else on the channel. */
export function decodeChange (text: string): { origin: string, change: Invalidation } | undefined {
  let message: Message
  try {
    message = JSON.parse(text) as Message
  } catch {
    return undefined
  }
  if (typeof message?.o !== 'string' || typeof message.a !== 'string' || typeof message.t !== 'object' || message.t === null) return undefined
  const change: Invalidation = { accountId: message.a, tables: message.t }
  if (message.e === 1) change.everything = true
  return { origin: message.o, change }
}

/** Listeners and state shared by the implementations. */
export class BusListeners {
  /** This process on the bus (one per context: tests run several in one process); its own messages come back and are skipped. */
  readonly origin = randomBytes(8).toString('hex')
  readonly #changes: Array<(change: Invalidation) => void> = []
  readonly #states: Array<(state: BusState) => void> = []
  state: BusState = 'down'

  subscribe (listener: (change: Invalidation) => void): void { this.#changes.push(listener) }
  onState (listener: (state: BusState) => void): void { this.#states.push(listener) }

  /** A message from the channel: another process's change is handed on; ours and foreign text are not. */
  received (text: string): void {
    const decoded = decodeChange(text)
    if (decoded === undefined || decoded.origin === this.origin) return
    for (const listener of this.#changes) listener(decoded.change)
  }

  encode (change: Invalidation): string {
    return encodeChange(change, this.origin)
  }

  /** Hands on a change that did not come as a message (the embedded bus noticing another writer). */
  changed (change: Invalidation): void {
    for (const listener of this.#changes) listener(change)
  }

  setState (state: BusState): void {
    if (state === this.state) return
    this.state = state
    for (const listener of this.#states) listener(state)
  }
}
