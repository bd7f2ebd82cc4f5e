import type { RequestOptions } from '../core/transport.ts'
import type { RemainingCredits } from '../generated/credits.ts'
import type { Endpoint } from './endpoint.ts'

/** The account's credits in the current one-minute window. */
export class Credits {
  readonly #api: Endpoint

  constructor (api: Endpoint) {
    this.#api = api
  }

  /** The balance; costs no credit, and always asks the main service (a cached balance would be stale). */
  async remaining (options?: RequestOptions): Promise<RemainingCredits> {
    return await this.#api.get('/v2/remaining_credits_and_reset_time', { ...options, cache: false })
  }
}
