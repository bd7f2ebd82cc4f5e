import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { buildTestApp, type TestApp } from '../support/app.ts'
import { databaseBackends } from '../support/backends.ts'
import { itAnswersEachRow, type BadInputRow } from '../support/bad-input.ts'
import { remoteAsset, type ApiAssetJson } from './support/assets.ts'

const DFXP = `<?xml version="1.0" encoding="UTF-8"?>
<tt xmlns="http://www.w3.org/ns/ttml" xml:lang="en">
  <body>
    <div>
      <p begin="00:00:01.000" end="00:00:02.500">Hello <span>there</span><br/>fish &amp; chips</p>
      <p begin="3s" dur="1.5s">Second cue</p>
    </div>
  </body>
</tt>
`
const DFXP_AS_VTT = 'WEBVTT\n\n00:00:01.000 --> 00:00:02.500\nHello there\nfish &amp; chips\n\n00:00:03.000 --> 00:00:04.500\nSecond cue\n'
const SRT = '1\r\n00:00:01,000 --> 00:00:02,000\r\nOla <i>mundo</i>\r\n\r\n2\r\n00:01:12,000 --> 00:01:14,000\r\nrelatorio\r\n'
const VTT = 'WEBVTT\n\n00:01.000 --> 00:02.000\nBonjour\n\n00:00:05.000 --> 00:00:06.000\nle monde\n'
const CAPTION_TABLES = ['asset_captions', 'assets']

for (const backend of databaseBackends()) {
  describe(`/v2/assets/:id/captions and closed_captions on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp
    before(async () => { t = await buildTestApp(backend.name) })
    after(async () => { await t.close() })

    it('stores a DFXP track PUT raw as text/html (Backlot), serves it back as uploaded and as WebVTT, and deletes it', async () => {
      const asset = await remoteAsset(t)
      const path = `/v2/assets/${asset.embed_code}/closed_captions`
      const put = await t.signed('PUT', path, { body: DFXP, headers: { 'content-type': 'text/html' } })
      assert.equal(put.statusCode, 200, put.body)
      const { created_at: createdAt, ...track } = put.json() as Record<string, unknown>
      assert.deepEqual(track, { language: 'en', name: 'English', format: 'dfxp', auto_generated: false, engine: null, url: null }, 'no url before the asset has media')
      assert.match(String(createdAt), /^\d{4}-\d\d-\d\dT/)
      const back = await t.signed('GET', path)
      assert.equal(back.statusCode, 200)
      assert.equal(back.body, DFXP)
      assert.match(back.headers['content-type'] as string, /^application\/ttml\+xml/)
      const vtt = await t.signed('GET', `/v2/assets/${asset.embed_code}/captions/en`)
      assert.equal(vtt.body, DFXP_AS_VTT)
      assert.match(vtt.headers['content-type'] as string, /^text\/vtt/)
      assert.equal((await t.signed('GET', `/v2/assets/${asset.embed_code}/captions/en?format=original`)).body, DFXP)
      const events = await t.ctx.db.selectFrom('webhook_events').select(['type', 'data']).where('account_id', '=', t.admin.accountId).where('type', '=', 'asset.captions.ready').execute()
      assert.deepEqual(events.map((event) => (JSON.parse(event.data) as { embed_code: string }).embed_code).filter((id) => id === asset.embed_code), [asset.embed_code], 'one asset.captions.ready for the upload')
      assert.equal((await t.signed('DELETE', path)).statusCode, 200)
      assert.equal((await t.signed('GET', path)).statusCode, 404)
      const after = await t.ctx.db.selectFrom('webhook_events').select('data').where('account_id', '=', t.admin.accountId).where('type', '=', 'asset.captions.ready').execute()
      assert.equal(after.length, events.length, 'none for the deletion')
      assert.deepEqual((await t.signed('GET', `/v2/assets/${asset.embed_code}/captions`)).json(), [])
    })

    it('puts closed_captions in the player\'s caption language', async () => {
      const player = await t.signed('POST', '/v2/players', { body: { name: 'French player', default_closed_caption_language: 'fr' } })
      assert.equal(player.statusCode, 200, player.body)
      const asset = await remoteAsset(t, { player_id: player.json().id })
      const put = await t.signed('PUT', `/v2/assets/${asset.embed_code}/closed_captions`, { body: DFXP.replace('xml:lang="en"', 'xml:lang="fr"') })
      assert.equal(put.json().language, 'fr')
      assert.equal((await t.signed('GET', `/v2/assets/${asset.embed_code}/captions/fr`)).statusCode, 200)
    })

    it('takes SRT and WebVTT by language, lists them, replaces one, and keeps closed_captions_url as it was', async () => {
      const asset = await remoteAsset(t, { closed_captions_url: 'https://cdn.example.com/final.dfxp' })
      const base = `/v2/assets/${asset.embed_code}/captions`
      const srt = await t.signed('PUT', `${base}/pt-br?name=Portugu%C3%AAs`, { body: SRT, headers: { 'content-type': 'application/octet-stream' } })
      assert.equal(srt.statusCode, 200, srt.body)
      assert.equal(srt.json().language, 'pt-BR')
      assert.equal(srt.json().name, 'Português')
      const vtt = await t.signed('POST', `${base}?language=fr`, { body: VTT })
      assert.equal(vtt.statusCode, 201, vtt.body)
      assert.equal((await t.signed('GET', `${base}/pt-BR`)).body, 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nOla <i>mundo</i>\n\n00:01:12.000 --> 00:01:14.000\nrelatorio\n')
      assert.equal((await t.signed('GET', `${base}/pt-BR?format=original`)).body, SRT)
      const declared = await t.signed('POST', base, { body: DFXP })
      assert.equal(declared.json().language, 'en', 'the language the TTML declares')
      assert.deepEqual((await t.signed('GET', base)).json().map((track: { language: string, format: string }) => [track.language, track.format]), [['en', 'dfxp'], ['fr', 'webvtt'], ['pt-BR', 'srt']])
      const replaced = await t.signed('PUT', `${base}/fr`, { body: DFXP })
      assert.equal(replaced.json().format, 'dfxp')
      assert.equal((await t.signed('GET', `${base}/fr`)).body, DFXP_AS_VTT)
      assert.equal((await t.signed('GET', `/v2/assets/${asset.embed_code}`)).json().closed_captions_url, 'https://cdn.example.com/final.dfxp')
    })

    it('is another account\'s 404, and a read-only user may read but not write', async () => {
      const asset = await remoteAsset(t)
      await t.signed('PUT', `/v2/assets/${asset.embed_code}/captions/en`, { body: VTT })
      const other = await t.otherAccount()
      assert.equal((await t.signed('GET', `/v2/assets/${asset.embed_code}/captions/en`, { as: other })).statusCode, 404)
      assert.equal((await t.signed('PUT', `/v2/assets/${asset.embed_code}/captions/en`, { body: VTT, as: other })).statusCode, 404)
      const reader = await t.userWithRole('read_only')
      assert.equal((await t.signed('GET', `/v2/assets/${asset.embed_code}/captions/en`, { as: reader })).statusCode, 200)
      assert.equal((await t.signed('PUT', `/v2/assets/${asset.embed_code}/captions/en`, { body: VTT, as: reader })).statusCode, 403)
    })

    describe('bad requests', () => {
      let asset: ApiAssetJson
      before(async () => {
        asset = await remoteAsset(t, { name: 'bad captions' })
        await t.signed('PUT', `/v2/assets/${asset.embed_code}/captions/de`, { body: VTT })
      })
      const en = (): string => `/v2/assets/${asset.embed_code}/captions/en`
      const closed = (): string => `/v2/assets/${asset.embed_code}/closed_captions`
      const sixMegabytes = `WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n${'x'.repeat(6 * 1024 * 1024)}\n`
      const rows: BadInputRow[] = [
        { name: 'broken XML', method: 'PUT', path: closed, headers: { 'content-type': 'text/html' }, body: DFXP.replace('</span>', ''), status: 400, message: 'Line 5: Expected closing tag \'span\' (opened in line 5, col 56) instead of closing tag \'p\' (column 88).' },
        { name: 'overlapping cues', method: 'PUT', path: en, body: 'WEBVTT\n\n00:00:01.000 --> 00:00:03.000\nOne\n\n00:00:02.000 --> 00:00:04.000\nTwo\n', status: 400, message: 'Line 6: the cue starts at 00:00:02.000, before the cue of line 3 ends (00:00:03.000).' },
        { name: 'a cue ending before it starts', method: 'PUT', path: en, body: '1\n00:00:05,000 --> 00:00:03,000\nOne\n', status: 400, message: 'Line 2: the cue ends at 00:00:03.000, before it starts (00:00:05.000).' },
        { name: 'a DFXP cue ending before it starts', method: 'PUT', path: closed, body: DFXP.replace('end="00:00:02.500"', 'end="00:00:00.500"'), status: 400, message: 'Line 5: the cue ends at 00:00:00.500, before it starts (00:00:01.000).' },
        { name: 'a 6 MB file', method: 'PUT', path: en, body: sixMegabytes, status: 413, message: 'Request body is too large.' },
        { name: 'an unknown language tag', method: 'PUT', path: () => `/v2/assets/${asset.embed_code}/captions/xx`, body: VTT, status: 400, message: 'Parameter language: "xx" is not a known BCP 47 language tag (e.g. en, pt-BR).' },
        { name: 'a malformed language tag', method: 'PUT', path: () => `/v2/assets/${asset.embed_code}/captions/en_US`, body: VTT, status: 400, message: 'Parameter language: "en_US" is not a known BCP 47 language tag (e.g. en, pt-BR).' },
        { name: 'binary bytes', method: 'PUT', path: en, body: Buffer.from([0x57, 0x45, 0x42, 0x56, 0x54, 0x54, 0x0a, 0x0a, 0xff, 0xd8, 0xff, 0xe0]), status: 400, message: 'Caption body is not UTF-8 text (line 3).' },
        { name: 'a control character', method: 'PUT', path: en, body: VTT.replace('Bonjour', 'Bon\u0007jour'), status: 400, message: 'Line 4: control character U+0007; a caption body holds no control characters but TAB, CR and LF.' },
        { name: 'a valid WebVTT track with bytes appended', method: 'PUT', path: en, body: `${VTT}\nPADDING-FOR-A-COLLISION`, status: 400, message: 'Line 9: expected a cue (a "start --> end" line and its text); found "PADDING-FOR-A-COLLISION".' },
        { name: 'a valid SRT track with bytes appended', method: 'PUT', path: en, body: `${SRT}\r\n\u00e9\u00e9\u00e9`, status: 400, message: 'Line 9: expected a cue (its number, then a "start --> end" line and its text); found "\u00e9\u00e9\u00e9".' },
        { name: 'a valid DFXP track with text appended', method: 'PUT', path: closed, body: `${DFXP}trailing`, status: 400, message: 'Line 10: Extra text at the end (column 1).' },
        { name: 'a valid DFXP track with a second document appended', method: 'PUT', path: closed, body: `${DFXP}<tt xmlns="http://www.w3.org/ns/ttml"/>`, status: 400, message: 'Line 10: content after the end of the tt element.' },
        { name: 'WebVTT to closed_captions', method: 'PUT', path: closed, body: VTT, status: 400, message: 'Line 1: closed_captions takes DFXP/TTML; this body is WebVTT (upload it to /captions instead).' },
        { name: 'a bad timestamp', method: 'PUT', path: en, body: 'WEBVTT\n\n00:00:0x.000 --> 00:00:02.000\nOne\n', status: 400, message: 'Line 3: cue start timestamp `00:00:0x.000` is invalid.' },
        { name: 'something that is no caption track', method: 'PUT', path: en, body: '{"cues":[]}', status: 400, message: 'Line 1: not a caption track: DFXP/TTML starts with an XML tag, WebVTT with "WEBVTT", SRT with a cue number and its times.' },
        { name: 'an empty body', method: 'PUT', path: en, status: 400, message: 'Caption body is empty.' },
        { name: 'POST without a language, of a track that declares none', method: 'POST', path: () => `/v2/assets/${asset.embed_code}/captions`, body: VTT, status: 400, message: 'Parameter language is required: the track declares no language of its own.' },
        { name: 'GET of a language the asset lacks', method: 'GET', path: en, status: 404, message: () => `Asset ${asset.embed_code} has no en caption track.` },
        { name: 'DELETE of a language the asset lacks', method: 'DELETE', path: en, status: 404, message: () => `Asset ${asset.embed_code} has no en caption track.` },
        { name: 'an asset that does not exist', method: 'PUT', path: () => `/v2/assets/${'M'.repeat(32)}/captions/en`, body: VTT, status: 404, message: `Asset ${'M'.repeat(32)} does not exist.` }
      ]
      itAnswersEachRow(() => t, rows, CAPTION_TABLES)
    })

    it('holds at most 30 tracks an asset', async () => {
      const asset = await remoteAsset(t, { name: 'many tracks' })
      const languages = ['aa', 'ab', 'af', 'ak', 'am', 'an', 'ar', 'as', 'av', 'ay', 'az', 'ba', 'be', 'bg', 'bi', 'bm', 'bn', 'bo', 'br', 'bs', 'ca', 'ce', 'ch', 'co', 'cr', 'cs', 'cu', 'cv', 'cy', 'da']
      for (const language of languages) {
        assert.equal((await t.signed('PUT', `/v2/assets/${asset.embed_code}/captions/${language}`, { body: VTT })).statusCode, 200, language)
      }
      const full = await t.signed('PUT', `/v2/assets/${asset.embed_code}/captions/de`, { body: VTT })
      assert.equal(full.statusCode, 409)
      assert.equal(full.json().message, `Asset ${asset.embed_code} has 30 caption tracks, the most it may; delete one or replace a language it has.`)
      assert.equal((await t.signed('PUT', `/v2/assets/${asset.embed_code}/captions/da`, { body: DFXP })).statusCode, 200, 'replacing a language it has')
    })
  })
}
