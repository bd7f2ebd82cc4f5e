import type { AppContext } from '../app/context.ts'
import { createAssetsRepository, type AssetsRepository } from '../assets/index.ts'
import { createSyndicationsRepository, type SyndicationsRepository } from './syndications-repository.ts'

/** What the syndication services and the feed need. */
export type SyndicationsContext = Pick<AppContext, 'db' | 'clock' | 'pageTokens' | 'accounts'> & {
  syndications: SyndicationsRepository
  /** The feed reads the assets a syndication includes. */
  assets: AssetsRepository
}

export function createSyndicationsContext (ctx: AppContext): SyndicationsContext {
  return {
    db: ctx.db,
    clock: ctx.clock,
    pageTokens: ctx.pageTokens,
    accounts: ctx.accounts,
    syndications: createSyndicationsRepository(ctx.db),
    assets: createAssetsRepository(ctx.db)
  }
}
