import { DocumentLoaders } from '../indexer/index.ts'
import { loadAssetDocument, loadAssetDocuments } from '../resources/assets/index.ts'
import { loadLabelDocument } from '../resources/labels/index.ts'
import { loadPlayerDocument } from '../resources/players/index.ts'
import { loadSyndicationDocument } from '../resources/syndications/index.ts'

/** The search document of each indexed resource type, as each resource module defines it. */
export function documentLoaders (): DocumentLoaders {
  return new DocumentLoaders({
    asset: loadAssetDocument,
    label: loadLabelDocument,
    player: loadPlayerDocument,
    syndication: loadSyndicationDocument
  }, { asset: loadAssetDocuments })
}
