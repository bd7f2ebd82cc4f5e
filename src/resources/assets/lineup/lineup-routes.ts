import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { callerOf } from '../../../http/request-types.ts'
import { Problem, SignedErrors } from '../../../http/schemas.ts'
import { SignedOnly } from '../../kit/crud-routes.ts'
import { ASSET_ID_DOC } from '../assets-schemas.ts'
import { MAX_LINEUP, type LineupService } from './lineup-service.ts'

const EXAMPLE = ['Zk3jQ9x-Lm2Pq8Rt5Vw1Yb4Nc7Hd0Gf6', 'Qm8Lx2Vb5Nc1Hd7Gf4Zk9jR3Pq6Tw0Ya']
const EmbedCode = Type.String({ maxLength: 64, description: 'An asset\'s embed code', examples: [EXAMPLE[0]] })
const Lineup = Type.Array(Type.String(), { title: 'Lineup', description: 'The embed codes of the assets the channel plays, in order', examples: [EXAMPLE] })
const LineupBody = Type.Array(EmbedCode, { maxItems: MAX_LINEUP, description: `Embed codes, in the order the channel plays them: each once, none a channel, at most ${MAX_LINEUP}`, examples: [EXAMPLE] })
const ChannelParams = Type.Object({ asset_id: Type.String({ description: `The channel: ${ASSET_ID_DOC.description}`, examples: [ASSET_ID_DOC.example] }) })
const MemberParams = Type.Object({ ...ChannelParams.properties, embed_code: Type.String({ description: 'The embed code of an asset of the account', examples: [EXAMPLE[0]] }) })
const NoBody = Type.Object({}, { additionalProperties: false, description: 'No fields: an empty body or {}', examples: [{}] })
const errors = { ...SignedErrors, 409: Problem }
const ANSWER = 'Answers the whole line-up, an array of embed codes.'

/**
 * A channel asset's line-up (`/v2/assets/:asset_id/lineup`, docs/resources.md, "Channel line-ups"): read
 * it, replace it with an array, append one asset, take one out. The cached variant never stores it: a
 * deleted asset leaves every line-up it was in without the channel's own answers being purged.
 */
export const lineupRoutes: FastifyPluginAsyncTypebox<{ lineups: LineupService }> = async (app, { lineups }) => {
  const tags = ['assets']
  const read = { permission: ['assets', 'read'] as const, cdnCache: false }
  const write = { permission: ['assets', 'write'] as const }
  const path = '/v2/assets/:asset_id/lineup'
  app.get(path, {
    config: read,
    schema: {
      operationId: 'getChannelLineup',
      summary: 'Read a channel\'s line-up',
      description: `The assets a channel asset plays, in order. 409 for an asset that is not a channel. ${ANSWER}`,
      tags, params: ChannelParams, querystring: SignedOnly, response: { 200: Lineup, ...errors }
    }
  }, async (req) => await lineups.get(callerOf(req), req.params.asset_id))
  app.put(path, {
    config: write,
    schema: {
      operationId: 'replaceChannelLineup',
      summary: 'Replace a channel\'s line-up',
      description: `The array of embed codes becomes the whole line-up (an empty array empties it). Each asset at most once; none may be a channel; an embed code the account lacks is a 404 naming it. ${ANSWER}`,
      tags, params: ChannelParams, querystring: SignedOnly, body: LineupBody, response: { 200: Lineup, ...errors }
    }
  }, async (req) => await lineups.replace(callerOf(req), req.params.asset_id, req.body))
  app.put(`${path}/:embed_code`, {
    config: write,
    schema: {
      operationId: 'appendToChannelLineup',
      summary: 'Append an asset to a channel\'s line-up',
      description: `Adds the asset at the end of the line-up; one already there stays where it is. The body is empty or \`{}\`. ${ANSWER}`,
      tags, params: MemberParams, querystring: SignedOnly, body: NoBody, response: { 200: Lineup, ...errors }
    }
  }, async (req) => await lineups.append(callerOf(req), req.params.asset_id, req.params.embed_code))
  app.delete(`${path}/:embed_code`, {
    config: write,
    schema: {
      operationId: 'removeFromChannelLineup',
      summary: 'Remove an asset from a channel\'s line-up',
      description: `Takes the asset out of the line-up (nothing happens if it is not in it; it must exist). ${ANSWER}`,
      tags, params: MemberParams, querystring: SignedOnly, response: { 200: Lineup, ...errors }
    }
  }, async (req) => await lineups.remove(callerOf(req), req.params.asset_id, req.params.embed_code))
}
