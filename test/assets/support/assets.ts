import assert from 'node:assert/strict'
import type { Caller, TestApp } from '../../support/app.ts'

export interface ApiAssetJson {
  embed_code: string
  asset_type: string
  name: string
  status: string
  external_id: string | null
  [field: string]: unknown
}

/** Creates an asset through the API and returns it; fails the test on anything but 200. */
export async function createAsset (t: TestApp, body: Record<string, unknown>, as?: Caller): Promise<ApiAssetJson> {
  const res = await t.signed('POST', '/v2/assets', { body, as })
  assert.equal(res.statusCode, 200, res.body)
  return res.json()
}

/** A remote asset: live at creation, no upload. */
export async function remoteAsset (t: TestApp, fields: Record<string, unknown> = {}, as?: Caller): Promise<ApiAssetJson> {
  return await createAsset(t, { asset_type: 'remote_asset', name: 'Remote', stream_urls: { source_file: 'https://cdn.example.com/a.mp4' }, ...fields }, as)
}

/** A video: created `uploading`. */
export async function videoAsset (t: TestApp, fields: Record<string, unknown> = {}, as?: Caller): Promise<ApiAssetJson> {
  return await createAsset(t, { asset_type: 'video', name: 'Video', file_name: 'v.mp4', file_size: 1000, ...fields }, as)
}

/** Creates a resource of another module through its own API (labels, players, publishing rules). */
export async function createVia (t: TestApp, path: string, body: Record<string, unknown>, as?: Caller): Promise<{ id: string, [field: string]: unknown }> {
  const res = await t.signed('POST', path, { body, as })
  assert.equal(res.statusCode, 200, `${path}: ${res.body}`)
  return res.json()
}

export { snapshotTables } from '../../support/snapshot.ts'

export const ASSET_TABLES = ['assets', 'asset_metadata', 'asset_labels', 'deleted_assets']
export const SYNDICATION_TABLES = ['syndications', 'syndication_labels', 'syndication_access_keys']

/** Follows `next_page` from `path` and returns every item. */
export async function allPages<T> (t: TestApp, path: string, as?: Caller): Promise<{ items: T[], pages: string[] }> {
  const items: T[] = []
  const pages: string[] = []
  let next: string | undefined = path
  for (let guard = 0; next !== undefined && guard < 1000; guard++) {
    const res = await t.signed('GET', next, { as })
    assert.equal(res.statusCode, 200, `${next}: ${res.body}`)
    const page = res.json() as { items: T[], next_page?: string }
    items.push(...page.items)
    pages.push(next)
    next = page.next_page
  }
  return { items, pages }
}
