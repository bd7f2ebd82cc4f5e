/** Assets, their sub-resources and search document; what feeds and analytics read of them. */
export { assetsRoutes } from './assets-routes.ts'
export { assetPartsRoutes } from './parts/parts-routes.ts'
export { createAssetsService } from './assets-service.ts'
export { createPartsService } from './parts/parts-service.ts'
export { createAssetsRepository, type AssetRow } from './assets-repository.ts'
export { ASSET_TYPES } from './assets-kinds.ts'
export { NEWEST_FIRST } from './assets-query.ts'
export { loadAssetDocument, loadAssetDocuments } from './assets-document.ts'
