import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { databaseBackends } from '../support/backends.ts'
import { itAnswersEachRow, type BadInputRow } from '../support/bad-input.ts'
import { createAsset, remoteAsset, type ApiAssetJson } from './support/assets.ts'

const channelOf = async (t: TestApp, name = 'Channel'): Promise<ApiAssetJson> => await createAsset(t, { asset_type: 'channel', name })

for (const backend of databaseBackends()) {
  describe(`/v2/assets/:id/lineup on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp
    before(async () => { t = await buildTestApp(backend.name) })
    after(async () => { await t.close() })

    it('replaces with an array, appends one with PUT, takes one out with DELETE, answering arrays of embed codes', async () => {
      const channel = await channelOf(t)
      const [a, b, c] = [await remoteAsset(t, { name: 'a' }), await remoteAsset(t, { name: 'b' }), await remoteAsset(t, { name: 'c' })] as ApiAssetJson[]
      const path = `/v2/assets/${channel.embed_code}/lineup`
      assert.deepEqual((await t.signed('GET', path)).json(), [])
      const put = await t.signed('PUT', path, { body: [c.embed_code, a.embed_code] })
      assert.equal(put.statusCode, 200, put.body)
      assert.deepEqual(put.json(), [c.embed_code, a.embed_code])
      assert.deepEqual((await t.signed('PUT', `${path}/${b.embed_code}`)).json(), [c.embed_code, a.embed_code, b.embed_code])
      assert.deepEqual((await t.signed('PUT', `${path}/${c.embed_code}`, { body: {} })).json(), [c.embed_code, a.embed_code, b.embed_code], 'already there: stays where it is')
      assert.deepEqual((await t.signed('DELETE', `${path}/${a.embed_code}`)).json(), [c.embed_code, b.embed_code])
      assert.deepEqual((await t.signed('DELETE', `${path}/${a.embed_code}`)).json(), [c.embed_code, b.embed_code], 'not there: nothing happens')
      assert.deepEqual((await t.signed('GET', path)).json(), [c.embed_code, b.embed_code])
      assert.deepEqual((await t.signed('PUT', path, { body: [] })).json(), [])
    })

    it('moves the channel\'s updated_at, and loses an asset when it is deleted', async () => {
      const channel = await channelOf(t)
      const [a, b] = [await remoteAsset(t, { name: 'a' }), await remoteAsset(t, { name: 'b' })] as ApiAssetJson[]
      t.clock.advance(5000)
      await t.signed('PUT', `/v2/assets/${channel.embed_code}/lineup`, { body: [a.embed_code, b.embed_code] })
      assert.notEqual((await t.signed('GET', `/v2/assets/${channel.embed_code}`)).json().updated_at, channel.updated_at)
      assert.equal((await t.signed('DELETE', `/v2/assets/${a.embed_code}`)).statusCode, 200)
      assert.deepEqual((await t.signed('GET', `/v2/assets/${channel.embed_code}/lineup`)).json(), [b.embed_code])
    })

    it('is another account\'s 404, and reaches only an upload_only user\'s own assets', async () => {
      const channel = await channelOf(t)
      const other = await t.otherAccount()
      assert.equal((await t.signed('GET', `/v2/assets/${channel.embed_code}/lineup`, { as: other })).statusCode, 404)
      const uploader = await t.userWithRole('upload_only')
      const own = await createAsset(t, { asset_type: 'channel', name: 'Own channel' }, uploader)
      const mine = await remoteAsset(t, { name: 'mine' }, uploader)
      const theirs = await remoteAsset(t, { name: 'theirs' })
      const path = `/v2/assets/${own.embed_code}/lineup`
      assert.deepEqual((await t.signed('PUT', path, { body: [mine.embed_code], as: uploader })).json(), [mine.embed_code])
      const refused = await t.signed('PUT', `${path}/${theirs.embed_code}`, { as: uploader })
      assert.equal(refused.statusCode, 404)
      assert.equal(refused.json().message, `Asset ${theirs.embed_code} does not exist.`)
      const reader = await t.userWithRole('read_only')
      assert.deepEqual((await t.signed('GET', path, { as: reader })).json(), [mine.embed_code])
      assert.equal((await t.signed('PUT', path, { body: [], as: reader })).statusCode, 403)
    })

    describe('bad requests', () => {
      let channel: ApiAssetJson
      let video: ApiAssetJson
      let member: ApiAssetJson
      let otherChannel: ApiAssetJson
      before(async () => {
        channel = await channelOf(t, 'Bad-input channel')
        otherChannel = await channelOf(t, 'Another channel')
        video = await remoteAsset(t, { name: 'not a channel' })
        member = await remoteAsset(t, { name: 'member' })
        await t.signed('PUT', `/v2/assets/${channel.embed_code}/lineup`, { body: [member.embed_code] })
      })
      const lineup = (): string => `/v2/assets/${channel.embed_code}/lineup`
      const missing = 'M'.repeat(32)
      const rows: BadInputRow[] = [
        { name: 'GET of an asset that is not a channel', method: 'GET', path: () => `/v2/assets/${video.embed_code}/lineup`, status: 409, message: () => `Asset ${video.embed_code} is a remote_asset; only channel assets have a line-up.` },
        { name: 'PUT on an asset that is not a channel', method: 'PUT', path: () => `/v2/assets/${video.embed_code}/lineup`, body: () => [member.embed_code], status: 409, message: () => `Asset ${video.embed_code} is a remote_asset; only channel assets have a line-up.` },
        { name: 'append on an asset that is not a channel', method: 'PUT', path: () => `/v2/assets/${video.embed_code}/lineup/${member.embed_code}`, status: 409, message: () => `Asset ${video.embed_code} is a remote_asset; only channel assets have a line-up.` },
        { name: 'GET of a channel that does not exist', method: 'GET', path: () => `/v2/assets/${missing}/lineup`, status: 404, message: `Asset ${missing} does not exist.` },
        { name: 'PUT of an object', method: 'PUT', path: lineup, body: { items: [] }, status: 400, message: 'Request body must be an array.' },
        { name: 'PUT of an array holding a number', method: 'PUT', path: lineup, body: [1], status: 400, message: 'Field 0 must be a string.' },
        { name: 'PUT of 501 embed codes', method: 'PUT', path: lineup, body: Array.from({ length: 501 }, (_, i) => `code${i}`), status: 400, message: 'Request body must have at most 500 items.' },
        { name: 'PUT naming an asset twice', method: 'PUT', path: lineup, body: () => [member.embed_code, video.embed_code, member.embed_code], status: 400, message: () => `Request body names ${member.embed_code} more than once; a line-up holds each asset once.` },
        { name: 'PUT naming assets that do not exist', method: 'PUT', path: lineup, body: () => [member.embed_code, missing, 'N'.repeat(32)], status: 404, message: `Assets ${missing}, ${'N'.repeat(32)} do not exist.` },
        { name: 'PUT naming a channel', method: 'PUT', path: lineup, body: () => [otherChannel.embed_code], status: 400, message: () => `Asset ${otherChannel.embed_code} is a channel; a line-up holds no channels.` },
        { name: 'PUT naming the channel itself', method: 'PUT', path: lineup, body: () => [channel.embed_code], status: 400, message: () => `Asset ${channel.embed_code} is a channel; a line-up holds no channels.` },
        { name: 'append of an asset that does not exist', method: 'PUT', path: () => `${lineup()}/${missing}`, status: 404, message: `Asset ${missing} does not exist.` },
        { name: 'append of a channel', method: 'PUT', path: () => `${lineup()}/${otherChannel.embed_code}`, status: 400, message: () => `Asset ${otherChannel.embed_code} is a channel; a line-up holds no channels.` },
        { name: 'append with a body field', method: 'PUT', path: () => `${lineup()}/${video.embed_code}`, body: { position: 0 }, status: 400, message: 'Unknown fields: position.' },
        { name: 'DELETE of an asset that does not exist', method: 'DELETE', path: () => `${lineup()}/${missing}`, status: 404, message: `Asset ${missing} does not exist.` },
        { name: 'POST, which the line-up does not take', method: 'POST', path: lineup, body: [], status: 405, message: () => `POST is not allowed on ${lineup()}; it takes GET, HEAD, PUT.` }
      ]
      itAnswersEachRow(() => t, rows, ['channel_lineups', 'assets'])
    })
  })
}
