import { Type, type Static } from 'typebox'
import { Processing } from '../../resources/assets/index.ts'

const nullable = <T extends ReturnType<typeof Type.Integer> | ReturnType<typeof Type.String>>(schema: T, description: string, example: unknown) =>
  Type.Union([schema, Type.Null()], { description, examples: [example] })

/** One rendition of the asset's media (`GET /v2/assets/:id/streams`). */
export const Stream = Type.Object({
  name: Type.String({ description: 'The rendition: `360p`, `720p`, `1080p`, a source-sized one such as `480p`, or `audio`', examples: ['720p'] }),
  kind: Type.Union([Type.Literal('video'), Type.Literal('audio')], { description: 'video (with its audio, if the source has some) or audio only', examples: ['video'] }),
  state: Type.Union([Type.Literal('pending'), Type.Literal('processing'), Type.Literal('ready'), Type.Literal('failed')], {
    description: 'pending: waiting its turn; processing: being made; ready: in the master playlist; failed: could not be made', examples: ['ready']
  }),
  width: nullable(Type.Integer(), 'Picture width in pixels, upright; null for audio', 1280),
  height: nullable(Type.Integer(), 'Picture height in pixels, upright; null for audio', 720),
  bandwidth: nullable(Type.Integer(), 'Peak bit rate measured on its segments (bits/s, the HLS BANDWIDTH); null until ready', 3105000),
  average_bandwidth: nullable(Type.Integer(), 'Mean bit rate (bits/s); null until ready', 2650000),
  codecs: Type.String({ description: 'The RFC 6381 codecs it is encoded with', examples: ['avc1.64001f,mp4a.40.2'] }),
  duration_ms: nullable(Type.Integer(), 'Its length in milliseconds; null until ready', 94000),
  url: nullable(Type.String(), 'Its HLS media playlist once ready, else null', 'https://media.example.com/media/Zk3jQ9x-Lm2Pq8Rt5Vw1Yb4Nc7Hd0Gf6/q1w2e3r4t5y6u7i8o9p0aa/720p/index.m3u8'),
  percent: Type.Integer({ minimum: 0, maximum: 100, description: 'How much of the media it holds so far, 0–100 (100 when ready)', examples: [40] })
}, { title: 'Stream', description: 'One rendition of an uploaded asset\'s media' })

export const Streams = Type.Object({
  items: Type.Array(Stream, { description: 'The renditions, lowest first; empty before processing starts' }),
  processing: Type.Union([Processing, Type.Null()], { description: 'The asset\'s latest media job; null when it has none (assets of other types, or not yet uploaded)' })
}, { title: 'Streams', description: 'The renditions of an uploaded asset: those being made, else those served' })

export type ApiStreams = Static<typeof Streams>
