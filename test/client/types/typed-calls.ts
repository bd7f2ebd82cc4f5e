// Calls a user of the client writes, checked by the compiler (test/client/types.test.ts). Each
// `@ts-expect-error` line must stay an error: if the types ever accept it, tsc fails on the directive.
// The package test compiles this same file against the published declarations.
import { RateLimitError, where, type Asset, type AssetStatus, type Label, type Metric, type Reelhouse, type UserRole } from 'reelhouse/client'

export async function typedCalls (client: Reelhouse): Promise<void> {
  const asset: Asset = await client.assets.get('embed-code', { include: ['metadata', 'labels'] })
  const status: AssetStatus = asset.status
  const milliseconds: number = asset.duration
  const firstLabel: Label | undefined = asset.labels?.[0]
  for await (const label of client.labels.list({ isRoot: true })) console.log(label.full_name, status, milliseconds, firstLabel)
  const page = await client.assets.list({ where: where('status', '=', 'live').and('labels', 'INCLUDES', 'Sports'), orderby: 'name descending', limit: 50 }).firstPage()
  if (page.hasNextPage()) await page.getNextPage()
  const role: UserRole = (await client.users.me()).role
  const metric: Metric = 'video_starts'
  const report = await client.analytics.report({ startDate: '2026-11-01', dimensions: ['country'], metrics: [metric], timeSegment: 'day' })
  console.log(role, report.total_count)
  try {
    await client.players.create({ name: 'Main', playback: { autoplay: true }, watermark: { position: 'top-left' } })
  } catch (error) {
    if (error instanceof RateLimitError) console.log(error.retryAfter, error.requestId, error.code)
  }

  // @ts-expect-error asset_type is required when creating an asset
  await client.assets.create({ name: 'No type' })
  // @ts-expect-error 'podcast' is not an asset type
  await client.assets.create({ asset_type: 'podcast', name: 'Wrong type' })
  // @ts-expect-error a status is one of the asset statuses
  const unknownStatus: AssetStatus = 'archived'
  // @ts-expect-error a label has no embed_code
  console.log((await client.labels.get('id')).embed_code, unknownStatus)
  // @ts-expect-error unknown fields are refused, as the server refuses them
  await client.players.update('id', { colour: 'red' })
  // @ts-expect-error a watermark position is one of four corners
  await client.players.update('id', { watermark: { position: 'center' } })
  // @ts-expect-error a role is one of the five
  await client.users.create({ name: 'Owner', role: 'owner' })
  // @ts-expect-error orderby takes the asset sort fields
  client.assets.list({ orderby: 'rating descending' })
  // @ts-expect-error include takes metadata, labels and player
  client.assets.list({ include: ['thumbnails'] })
  // @ts-expect-error labels takes INCLUDES only
  where('labels', '=', 'Sports')
  // @ts-expect-error IN takes a list
  where('status', 'IN', 'live')
  // @ts-expect-error not a field of the where language
  where('colour', '=', 'red')
  // @ts-expect-error metrics are the report's metrics
  await client.analytics.report({ startDate: '2026-11-01', metrics: ['views'] })
  // @ts-expect-error at most the report's dimensions
  await client.analytics.report({ startDate: '2026-11-01', dimensions: ['city'] })
  // @ts-expect-error the secret cannot be read back from a client
  console.log(client.secret)
  // @ts-expect-error list answers are pages of their own resource
  const wrongPage: Asset[] = (await client.labels.list().firstPage()).items
  console.log(wrongPage)
}
