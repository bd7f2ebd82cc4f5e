import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { Caller } from '../../auth/caller.ts'
import { withAccountLock } from '../../db/account-lock.ts'
import type { Database } from '../../db/index.ts'
import { ApiError, validationError } from '../../errors/api-error.ts'
import { callerOf } from '../../http/request-types.ts'
import { Problem, SignedErrors, SignedQuery } from '../../http/schemas.ts'
import { storedTime, type Clock } from '../../lib/clock.ts'
import { ASSET_ID_DOC, canonicalLanguage, type AssetsService } from '../../resources/assets/index.ts'
import { enqueueMediaJob } from '../jobs/index.ts'
import { checkEngineSpeaks, type CaptionEngineChoice } from './caption-engines.ts'

const GenerateBody = Type.Object({
  language: Type.String({ minLength: 1, maxLength: 35, description: 'The BCP 47 tag of the language spoken (pocketsphinx: English only)', examples: ['en'] })
}, { additionalProperties: false, description: 'The language to transcribe', examples: [{ language: 'en' }] })
const Queued = Type.Object({
  language: Type.String({ description: 'The track\'s language, canonical', examples: ['en'] }),
  engine: Type.String({ description: 'The engine that will transcribe it: pocketsphinx or whisper', examples: ['pocketsphinx'] }),
  job_id: Type.String({ description: 'The worker\'s job', examples: ['5f0c3b9e2a7d4e1f8a6b0c9d2e4f6a8b'] })
}, { title: 'CaptionsJob', description: 'A queued transcription; the track appears among the asset\'s captions with auto_generated true when done' })
const Params = Type.Object({ asset_id: Type.String({ description: ASSET_ID_DOC.description, examples: [ASSET_ID_DOC.example] }) })

export interface CaptionsGenerateDeps {
  database: Database
  clock: Clock
  engine: CaptionEngineChoice
}

/**
 * `POST /v2/assets/:asset_id/captions/generate`: queues a transcription of the asset's uploaded original
 * for the worker (docs/captions.md, "Generated captions").
 */
export function createCaptionsGenerateService ({ database, clock, engine }: CaptionsGenerateDeps, assets: Pick<AssetsService, 'find'>) {
  return {
    async generate (caller: Caller, ref: string, body: { language: string }): Promise<{ language: string, engine: string, job_id: string }> {
      if (engine.name === 'off') checkEngineSpeaks(engine, [], 'language')
      const language = canonicalLanguage(body.language)
      if (language === undefined) {
        throw validationError(`Field language: "${body.language}" is not a known BCP 47 language tag (e.g. en, pt-BR).`, { language: ['is not a known BCP 47 language tag'] })
      }
      checkEngineSpeaks(engine, [language], 'language')
      return await withAccountLock(database, caller.accountId, async (trx) => {
        const asset = await assets.find(caller, ref, trx)
        const original = await trx.selectFrom('media_uploads').select('original_key')
          .where('account_id', '=', caller.accountId).where('asset_id', '=', asset.id).where('state', '=', 'uploaded')
          .orderBy('updated_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst()
        if (original?.original_key == null) {
          throw new ApiError('asset_status_conflict', `Asset ${asset.id} has no uploaded media to transcribe.`)
        }
        const jobId = await enqueueMediaJob(trx, caller.accountId, { assetId: asset.id, kind: 'captions', originalKey: original.original_key, language, now: storedTime(clock.now()) })
        return { language, engine: engine.name, job_id: jobId }
      })
    }
  }
}

export type CaptionsGenerateService = ReturnType<typeof createCaptionsGenerateService>

export const captionsGenerateRoutes: FastifyPluginAsyncTypebox<{ generator: CaptionsGenerateService }> = async (app, { generator }) => {
  app.post('/v2/assets/:asset_id/captions/generate', {
    config: { permission: ['assets', 'write'] as const },
    schema: {
      operationId: 'generateCaptionTrack',
      summary: 'Generate a caption track from the asset\'s speech',
      description: 'Queues a transcription of the asset\'s uploaded media by the service\'s speech-recognition engine (pocketsphinx, English only, or whisper.cpp when the operator set it up) and answers 202. ' +
        'The track joins the asset\'s captions with `auto_generated: true` and the engine\'s name; an uploaded track of the language is kept instead. 409 when generated captions are off or the asset has no uploaded media.',
      tags: ['assets'],
      params: Params,
      querystring: Type.Object(SignedQuery),
      body: GenerateBody,
      response: { 202: Queued, ...SignedErrors, 409: Problem }
    }
  }, async (req, reply) => {
    // Set before the write, so an Idempotency-Key stores the status with the answer.
    reply.code(202)
    return await generator.generate(callerOf(req), req.params.asset_id, req.body)
  })
}
