import type { AppContext } from '../app/context.ts'
import { ownAssetsOnly } from '../auth/roles.ts'
import type { Auth } from '../http/request-types.ts'
import { createAssetLinksRepository, type AssetLinksRepository } from './asset-links-repository.ts'
import { createAssetPartsRepository, type AssetPartsRepository } from './asset-parts-repository.ts'
import { createAssetsRepository, type AssetsRepository } from './assets-repository.ts'

/** What the assets services need: the database, the clock, page tokens and the asset repositories. */
export type AssetsContext = Pick<AppContext, 'db' | 'database' | 'clock' | 'pageTokens' | 'search'> & {
  assets: AssetsRepository
  parts: AssetPartsRepository
  links: AssetLinksRepository
}

export function createAssetsContext (ctx: AppContext): AssetsContext {
  return {
    db: ctx.db,
    database: ctx.database,
    clock: ctx.clock,
    pageTokens: ctx.pageTokens,
    search: ctx.search,
    assets: createAssetsRepository(ctx.db),
    parts: createAssetPartsRepository(ctx.db),
    links: createAssetLinksRepository(ctx.db)
  }
}

/** The owner an asset query is narrowed to: the caller itself for `upload_only`, nobody otherwise. */
export function ownerOf (auth: Auth): string | undefined {
  return ownAssetsOnly(auth.role) ? auth.userId : undefined
}
