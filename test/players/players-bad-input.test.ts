import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { databaseBackends } from '../support/backends.ts'
import { type BadInputRow, forge, itAnswersEachRow, pagingRows, tokenOf } from '../support/bad-input.ts'
import { buildTestApp, type TestApp } from '../support/app.ts'

const UNKNOWN = 'ffffffffffffffffffffffffffffffff'
const URL_MESSAGE = 'Field provider_homepage_url must be an absolute http(s) URL.'
// One wording for every resource's metadata (src/resources/kit/metadata.ts).
const NAME_RULE = 'is invalid: use 1 to 128 of the characters A-Z a-z 0-9 - _ ! @ # $ % & ^ * ( ) . ?.'

for (const backend of databaseBackends()) {
  describe(`/v2/players bad input on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp
    let player: { id: string }
    let full: { id: string }
    let token: string
    let labelsToken: string
    before(async () => {
      t = await buildTestApp(backend.name)
      player = (await t.signed('POST', '/v2/players', { body: { name: 'P' } })).json()
      full = (await t.signed('POST', '/v2/players', { body: { name: 'Full' } })).json()
      await t.signed('PUT', `/v2/players/${full.id}/metadata`, { body: Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, 'v'])) })
      token = tokenOf((await t.signed('GET', '/v2/players?limit=1')).json().next_page)
      await t.signed('POST', '/v2/labels', { body: { name: 'L1' } })
      await t.signed('POST', '/v2/labels', { body: { name: 'L2' } })
      labelsToken = tokenOf((await t.signed('GET', '/v2/labels?limit=1')).json().next_page)
    })
    after(async () => { await t.close() })

    const one = (): string => `/v2/players/${player.id}`
    const meta = (): string => `/v2/players/${player.id}/metadata`
    const rows: BadInputRow[] = [
      { name: 'create without a name', method: 'POST', path: () => '/v2/players', body: {}, status: 400, message: 'Field name is required.' },
      { name: 'create with an unknown field', method: 'POST', path: () => '/v2/players', body: { name: 'x', skin: 'dark' }, status: 400, message: 'Unknown fields: skin.' },
      { name: 'create with an unknown nested field', method: 'POST', path: () => '/v2/players', body: { name: 'x', watermark: { size: 3 } }, status: 400, message: 'Unknown fields: watermark.size.' },
      { name: 'create with Backlot\'s ooyala_branding', method: 'POST', path: () => '/v2/players', body: { name: 'x', ooyala_branding: {} }, status: 400, message: 'Unknown fields: ooyala_branding.' },
      { name: 'create with a number as name', method: 'POST', path: () => '/v2/players', body: { name: 1 }, status: 400, message: 'Field name must be a string.' },
      { name: 'create with an over-long name', method: 'POST', path: () => '/v2/players', body: { name: 'x'.repeat(256) }, status: 400, message: 'Field name must be at most 255 characters long.' },
      { name: 'create with control characters', method: 'POST', path: () => '/v2/players', body: { name: 'a\u0000b' }, status: 400, message: 'Field name must not contain control characters.' },
      { name: 'create with an over-long provider_name', method: 'POST', path: () => '/v2/players', body: { name: 'x', provider_name: 'p'.repeat(256) }, status: 400, message: 'Field provider_name must be at most 255 characters long.' },
      { name: 'create with is_default "yes"', method: 'POST', path: () => '/v2/players', body: { name: 'x', is_default: 'yes' }, status: 400, message: 'Field is_default must be a boolean.' },
      { name: 'create with an ftp homepage', method: 'POST', path: () => '/v2/players', body: { name: 'x', provider_homepage_url: 'ftp://example.com' }, status: 400, message: URL_MESSAGE },
      { name: 'create with a relative homepage', method: 'POST', path: () => '/v2/players', body: { name: 'x', provider_homepage_url: '/home' }, status: 400, message: URL_MESSAGE },
      { name: 'create with a homepage holding a space', method: 'POST', path: () => '/v2/players', body: { name: 'x', provider_homepage_url: 'https://exa mple.com' }, status: 400, message: URL_MESSAGE },
      { name: 'create with a homepage holding a newline', method: 'POST', path: () => '/v2/players', body: { name: 'x', provider_homepage_url: 'https://example.com/\n' }, status: 400, message: URL_MESSAGE },
      { name: 'create with a number as homepage', method: 'POST', path: () => '/v2/players', body: { name: 'x', provider_homepage_url: 5 }, status: 400, message: 'Field provider_homepage_url must be a string.' },
      { name: 'create with a javascript: click URL', method: 'POST', path: () => '/v2/players', body: { name: 'x', watermark: { click_url: 'javascript:alert(1)' } }, status: 400, message: 'Field watermark.click_url must be an absolute http(s) URL.' },
      { name: 'create with alpha above 1', method: 'POST', path: () => '/v2/players', body: { name: 'x', watermark: { alpha: 1.5 } }, status: 400, message: 'Field watermark.alpha must be at most 1.' },
      { name: 'create with a negative alpha', method: 'POST', path: () => '/v2/players', body: { name: 'x', watermark: { alpha: -0.1 } }, status: 400, message: 'Field watermark.alpha must be at least 0.' },
      { name: 'create with alpha as a string', method: 'POST', path: () => '/v2/players', body: { name: 'x', watermark: { alpha: '0.5' } }, status: 400, message: 'Field watermark.alpha must be a number.' },
      { name: 'create with an unknown position', method: 'POST', path: () => '/v2/players', body: { name: 'x', watermark: { position: 'middle' } }, status: 400, message: 'Field watermark.position must be one of top-left, top-right, bottom-left, bottom-right.' },
      { name: 'create with a named accent colour', method: 'POST', path: () => '/v2/players', body: { name: 'x', branding: { accent_color: 'red' } }, status: 400, message: 'Field branding.accent_color has an invalid format.' },
      { name: 'create with autoplay 1', method: 'POST', path: () => '/v2/players', body: { name: 'x', playback: { autoplay: 1 } }, status: 400, message: 'Field playback.autoplay must be a boolean.' },
      { name: 'create with a bad caption language', method: 'POST', path: () => '/v2/players', body: { name: 'x', default_closed_caption_language: 'english!' }, status: 400, message: 'Field default_closed_caption_language has an invalid format.' },
      { name: 'create with a homepage link and no homepage', method: 'POST', path: () => '/v2/players', body: { name: 'x', branding: { show_info_screen_homepage_link: true } }, status: 400, message: 'Field provider_homepage_url is required when branding.show_info_screen_homepage_link is true.' },
      { name: 'create with a JSON array', method: 'POST', path: () => '/v2/players', body: [], status: 400, message: 'Request body must be an object.' },
      { name: 'patch with an empty name', method: 'PATCH', path: one, body: { name: '' }, status: 400, message: 'Field name must not be empty.' },
      { name: 'patch with branding as a string', method: 'PATCH', path: one, body: { branding: 'dark' }, status: 400, message: 'Field branding must be an object.' },
      { name: 'patch an unknown player', method: 'PATCH', path: () => `/v2/players/${UNKNOWN}`, body: { name: 'x' }, status: 404, message: `Player ${UNKNOWN} does not exist.` },
      { name: 'put without a name', method: 'PUT', path: one, body: { is_default: true }, status: 400, message: 'Field name is required.' },
      { name: 'get a malformed id', method: 'GET', path: () => '/v2/players/not-an-id', status: 404, message: 'Player not-an-id does not exist.' },
      { name: 'delete an unknown player', method: 'DELETE', path: () => `/v2/players/${UNKNOWN}`, status: 404, message: `Player ${UNKNOWN} does not exist.` },
      { name: 'metadata with a number value', method: 'PUT', path: meta, body: { year: 2004 }, status: 400, message: 'Field year must be a string.' },
      { name: 'metadata patch with a boolean value', method: 'PATCH', path: meta, body: { ok: true }, status: 400, message: 'Field ok must be a string.' },
      { name: 'metadata with a space in a name', method: 'PUT', path: meta, body: { 'a b': 'x' }, status: 400, message: `Metadata name 'a b' ${NAME_RULE}` },
      { name: 'metadata with an empty name', method: 'PATCH', path: meta, body: { '': 'x' }, status: 400, message: `Metadata name '' ${NAME_RULE}` },
      { name: 'metadata with a 129-character name', method: 'PUT', path: meta, body: { ['n'.repeat(129)]: 'x' }, status: 400, message: `Metadata name '${'n'.repeat(129)}' ${NAME_RULE}` },
      { name: 'metadata with a 2,049-character value', method: 'PUT', path: meta, body: { v: 'x'.repeat(2049) }, status: 400, message: 'Field v must be at most 2048 characters long.' },
      { name: 'metadata with 101 pairs', method: 'PUT', path: meta, body: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, 'v'])), status: 400, message: 'A player holds at most 100 metadata entries.' },
      { name: 'a metadata merge past 100 pairs', method: 'PATCH', path: () => `/v2/players/${full.id}/metadata`, body: { one_more: 'v' }, status: 400, message: 'A player holds at most 100 metadata entries.' },
      { name: 'metadata as an array', method: 'PUT', path: meta, body: ['a'], status: 400, message: 'Request body must be an object.' },
      { name: 'metadata of an unknown player', method: 'PATCH', path: () => `/v2/players/${UNKNOWN}/metadata`, body: { a: 'b' }, status: 404, message: `Player ${UNKNOWN} does not exist.` },
      ...pagingRows('/v2/players'),
      { name: 'a forged page token', method: 'GET', path: () => `/v2/players?limit=1&page_token=${encodeURIComponent(forge(token))}`, status: 400, message: 'Parameter page_token is not a valid page token.' },
      { name: 'a page token of /v2/labels', method: 'GET', path: () => `/v2/players?limit=1&page_token=${encodeURIComponent(labelsToken)}`, status: 400, message: 'Parameter page_token belongs to a different query.' }
    ]
    itAnswersEachRow(() => t, rows, ['players'])

    it('answers 200 to a valid create, and writes it', async () => {
      const res = await t.signed('POST', '/v2/players', { body: { name: 'Fine', watermark: { alpha: 0 }, default_closed_caption_language: 'pt-BR' } })
      assert.equal(res.statusCode, 200, res.body)
    })
  })
}
