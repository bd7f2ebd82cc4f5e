import { randomBytes } from 'node:crypto'
import type { Lock, Locker, RequestRelease } from '@tus/utils'
import { ERRORS } from '@tus/utils'
import type { Kysely } from 'kysely'
import type { DB } from '../../db/tables/index.ts'
import type { Clock } from '../../lib/clock.ts'
import { storedTime } from '../../lib/clock.ts'

/** How long a lock lives unless renewed: a process that died holding one frees it after this. */
const LEASE_MS = 30_000
const RENEW_MS = 10_000
const POLL_MS = 100

/**
 * tus locks in the database (table `tus_locks`), so one upload takes one PATCH at a time across every
 * api process. A request waiting for a lock that a request of this process holds asks that one to let
 * go (the tus client reconnected: the old request is dead); a holder in another process is waited for
 * until its lease runs out or the waiting request gives up.
 */
export class DatabaseLocker implements Locker {
  private readonly held = new Map<string, RequestRelease>()
  private readonly holder = randomBytes(12).toString('hex')

  constructor (private readonly db: Kysely<DB>, private readonly clock: Clock) {}

  newLock (id: string): Lock {
    return new DatabaseLock(this, id)
  }

  /** Takes the lock when it is free or its lease ran out; answers whether this call took it. */
  async tryTake (id: string, holder: string): Promise<boolean> {
    const now = this.clock.now()
    const expires = storedTime(now + LEASE_MS)
    const inserted = await this.db.insertInto('tus_locks').values({ id, holder, expires_at: expires })
      .onConflict((oc) => oc.column('id').doNothing()).executeTakeFirst()
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return true
    const taken = await this.db.updateTable('tus_locks').set({ holder, expires_at: expires })
      .where('id', '=', id).where('expires_at', '<', storedTime(now)).executeTakeFirst()
    return Number(taken.numUpdatedRows) > 0
  }

  async renew (id: string, holder: string): Promise<void> {
    await this.db.updateTable('tus_locks').set({ expires_at: storedTime(this.clock.now() + LEASE_MS) })
      .where('id', '=', id).where('holder', '=', holder).execute()
  }

  async release (id: string, holder: string): Promise<void> {
    await this.db.deleteFrom('tus_locks').where('id', '=', id).where('holder', '=', holder).execute()
  }

  nextHolder (): string {
    return `${this.holder}.${randomBytes(6).toString('hex')}`
  }

  /** The release callback of this process's holder of `id`, if one holds it. */
  localHolder (id: string): RequestRelease | undefined {
    return this.held.get(id)
  }

  remember (id: string, release: RequestRelease | undefined): void {
    if (release === undefined) this.held.delete(id)
    else this.held.set(id, release)
  }
}

class DatabaseLock implements Lock {
  private readonly holder: string
  private renewal: NodeJS.Timeout | undefined

  constructor (private readonly locker: DatabaseLocker, private readonly id: string) {
    this.holder = locker.nextHolder()
  }

  async lock (signal: AbortSignal, cancelReq: RequestRelease): Promise<void> {
    let asked = false
    while (!await this.locker.tryTake(this.id, this.holder)) {
      if (signal.aborted) throw ERRORS.ERR_LOCK_TIMEOUT
      const local = this.locker.localHolder(this.id)
      if (local !== undefined && !asked) {
        asked = true
        await local()
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    }
    this.locker.remember(this.id, cancelReq)
    this.renewal = setInterval(() => { this.locker.renew(this.id, this.holder).catch(() => {}) }, RENEW_MS)
    this.renewal.unref()
  }

  async unlock (): Promise<void> {
    clearInterval(this.renewal)
    if (this.locker.localHolder(this.id) !== undefined) this.locker.remember(this.id, undefined)
    await this.locker.release(this.id, this.holder)
  }
}
