import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { callerOf } from '../../http/request-types.ts'
import { Problem } from '../../http/schemas.ts'
import type { PageTokens } from '../../paging/index.ts'
import { parts, type ResourceRoutes } from '../../resources/kit/crud-routes.ts'
import { ASSET_ID_DOC, AssetErrors, Url } from '../../resources/assets/index.ts'
import { MAX_PREVIEW_BYTES, type PreviewService } from './preview-service.ts'

const TIME = 'Seconds from the start of the media'
const GeneratedImage = Type.Object({
  time: Type.Number({ description: TIME, examples: [12] }),
  url: Type.String({ description: 'The frame, a JPEG at most 640 pixels wide (a public media URL)', examples: ['https://media.example.com/media/Zk3jQ9x-Lm2Pq8Rt5Vw1Yb4Nc7Hd0Gf6/q1w2e3r4t5y6u7i8o9p0aa/frames/frame-00002.jpg'] }),
  width: Type.Integer({ description: 'Width in pixels', examples: [640] }),
  height: Type.Integer({ description: 'Height in pixels', examples: [360] })
}, { title: 'GeneratedPreviewImage', description: 'A frame of the asset\'s media that may be chosen as its preview' })
const PrimaryPreview = Type.Object({
  type: Type.Union([Type.Literal('default'), Type.Literal('generated'), Type.Literal('uploaded_file'), Type.Literal('remote_url')], { description: '`default` (the frame processing took, about 10 % in; none for types without media of their own), `generated` (a chosen frame), `uploaded_file` or `remote_url` (a URL given, never fetched)', examples: ['generated'] }),
  time: Type.Union([Type.Number(), Type.Null()], { description: `The chosen frame's time: ${TIME.toLowerCase()}; null for the others`, examples: [12] }),
  url: Type.Union([Type.String(), Type.Null()], { description: 'The preview_image_url, or null when the asset has none', examples: ['https://media.example.com/media/Zk3jQ9x-Lm2Pq8Rt5Vw1Yb4Nc7Hd0Gf6/preview.jpg'] })
}, { title: 'PrimaryPreviewImage', description: 'The asset\'s preview image and where it came from' })
const ChooseBody = Type.Object({
  type: Type.Enum(['generated', 'uploaded_file', 'remote_url'], { description: '`generated` (a frame of `generated_preview_images`), `uploaded_file` (the image sent last with `POST preview_image_files`) or `remote_url` (an image elsewhere, named by `url`)', examples: ['generated'] }),
  time: Type.Optional(Type.Number({ minimum: 0, description: `With \`generated\` (required): ${TIME.toLowerCase()}; the generated frame nearest to it is chosen`, examples: [12] })),
  url: Type.Optional({ ...Url, description: 'With `remote_url` (required): an absolute http(s) URL of at most 2,048 characters; stored as given and never fetched by the service', examples: ['https://images.example.com/poster.jpg'] })
}, { additionalProperties: false, description: '`{"type":"generated","time":12}`, `{"type":"uploaded_file"}` or `{"type":"remote_url","url":"https://images.example.com/poster.jpg"}`' })
const UploadedFile = Type.Object({
  type: Type.String({ description: 'image/jpeg or image/png', examples: ['image/jpeg'] }),
  width: Type.Integer({ description: 'Width in pixels', examples: [1280] }),
  height: Type.Integer({ description: 'Height in pixels', examples: [720] }),
  size: Type.Integer({ description: 'Bytes', examples: [182044] })
}, { title: 'PreviewImageFile', description: 'The image received, checked whole' })

/**
 * Backlot's preview routes on `/v2/assets/:asset_id` (docs/media.md, "Previews"): the generated preview
 * images, the primary preview image, and preview image files sent as raw JPEG or PNG bytes.
 */
export const previewRoutes: FastifyPluginAsyncTypebox<{ previews: PreviewService, pageTokens: PageTokens }> = async (app, { previews, pageTokens }) => {
  const routes: ResourceRoutes = {
    path: '/v2/assets', id: 'asset_id', area: 'assets', tag: 'assets', noun: { one: 'asset', many: 'assets' }, idDoc: ASSET_ID_DOC, errors: AssetErrors, pageTokens
  }
  const { read, write, one, errors, tags } = parts(routes)
  const notReady = { 409: Problem }

  app.get(`${one.path}/generated_preview_images`, {
    config: read,
    schema: {
      ...one.schema,
      operationId: 'listGeneratedPreviewImages',
      summary: 'List an asset\'s generated preview images',
      description: 'About ten frames of a processed video, evenly spaced from the start, made by the same decode as its renditions; any may be chosen as the preview (`PUT primary_preview_image`). Empty before processing, and for audio.',
      tags,
      response: { 200: Type.Array(GeneratedImage, { description: 'The frames by time' }), ...errors }
    }
  }, async (req) => await previews.generated(callerOf(req), one.idOf(req)))

  app.get(`${one.path}/primary_preview_image`, {
    config: read,
    schema: {
      ...one.schema,
      operationId: 'getPrimaryPreviewImage',
      summary: 'Get an asset\'s preview image',
      description: 'The asset\'s `preview_image_url` and where the image came from.',
      tags,
      response: { 200: PrimaryPreview, ...errors }
    }
  }, async (req) => await previews.primary(callerOf(req), one.idOf(req)))

  app.put(`${one.path}/primary_preview_image`, {
    config: write,
    schema: {
      ...one.schema,
      operationId: 'setPrimaryPreviewImage',
      summary: 'Choose an asset\'s preview image',
      description: 'Makes a generated frame (`{"type":"generated","time":12}`: the one nearest that time) or the image sent last (`{"type":"uploaded_file"}`) the asset\'s preview: `preview_image_url` keeps its URL; its content changes. `{"type":"remote_url","url":…}` makes `preview_image_url` that URL, stored as given: the service never fetches it, so it is not checked to be an image (any asset type; uploaded types once processed). 409 `preview_not_ready` before the media is processed or before a file was sent. A replacement of the media brings a new default preview.',
      tags,
      body: ChooseBody,
      response: { 200: PrimaryPreview, ...notReady, ...errors }
    }
  }, async (req) => await previews.choose(callerOf(req), one.idOf(req), req.body))

  app.post(`${one.path}/preview_image_files`, {
    config: { ...write, rawBody: true },
    bodyLimit: MAX_PREVIEW_BYTES,
    schema: {
      ...one.schema,
      operationId: 'uploadPreviewImageFile',
      summary: 'Send a preview image file',
      description: 'The body is the image itself: the raw bytes of one JPEG or PNG (at most 5 MiB and 8192 pixels a side), signed as they are. It is checked whole — decoded in full, and refused when any byte follows its end marker (JPEG EOI, PNG IEND) — then kept for `PUT primary_preview_image {"type":"uploaded_file"}`. 400 `preview_image_invalid` otherwise; 413 over the size.',
      tags,
      response: { 200: UploadedFile, 400: Problem, 413: Problem, ...notReady, ...errors }
    }
  }, async (req) => await previews.upload(callerOf(req), one.idOf(req), Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)))
}
