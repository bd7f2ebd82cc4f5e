import type { DoneFuncWithErrOrRes, FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import { RoutePolicy, SignedRequest } from '../request-types.ts'

type Done = HookHandlerDoneFunction
export type RequestStep = (request: FastifyRequest, reply: FastifyReply, done: Done) => void
export type SendStep = (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: DoneFuncWithErrOrRes) => void

interface StepKinds {
  onRequest: RequestStep
  preValidation: RequestStep
  preHandler: RequestStep
  onSend: SendStep
}
type StepHook = keyof StepKinds

/** Makes a route's step from its policy, or nothing when the route needs none (a GET has no body to read). */
type StepMaker<H extends StepHook> = (policy: RoutePolicy, methods: readonly string[]) => StepKinds[H] | undefined

/**
 * The order of the steps within each hook, whatever order their plugins were registered in (docs/architecture.md,
 * "A request, step by step"). onRequest: HTTPS rule, the cached variant's method rule and hit, a wrong
 * method's 405; preValidation: raw body, query, JSONP name, signature, role, credits, JSON body;
 * preHandler: Idempotency-Key; onSend: the cached variant's store and JSONP wrap, Idempotency-Key.
 */
const STAGES = ['https', 'cdn', 'method', 'rawBody', 'query', 'jsonp', 'signature', 'role', 'credits', 'jsonBody', 'idempotency'] as const
export type Stage = typeof STAGES[number]

/**
 * The steps a media route (`config.media`) gets: the HTTPS rule, a wrong method's 405 and the query
 * (which the schema reads). It has no signature, role or credits to check (the token in its URL is the
 * credential and media costs nothing), nothing the cached variant stores (files set their own caching),
 * and no body (docs/media.md, "The request path").
 */
const MEDIA_STAGES: ReadonlySet<number> = new Set((['https', 'method', 'query'] as const).map((stage) => STAGES.indexOf(stage)))

/**
 * The request pipeline as ordered steps, each route given only the steps it needs, with its policy
 * read once (src/http/pipeline/). Steps run in the order they were added, after the app-wide hooks.
 * A request that matches no route passes the same steps through the not-found handler's hooks.
 */
export interface Pipeline {
  /** Adds a step to every route declared from now on, and to the not-found handler. */
  step: <H extends StepHook>(hook: H, stage: Stage, make: StepMaker<H>) => void
  /** The not-found handler's hooks (for `setNotFoundHandler`). */
  notFoundHooks: () => Partial<Record<StepHook, Array<StepKinds[StepHook]>>>
}

const ALL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE']

/** The first step of every route: the request's pipeline state, with the route's policy. */
function begin (policy: RoutePolicy): RequestStep {
  return (request, _reply, done) => {
    request.signed = new SignedRequest(policy, request.url)
    done()
  }
}

/** Registers the pipeline's `onRoute` hook on the root instance; call before any plugin adds a step or route. */
export function createPipeline (app: FastifyInstance): Pipeline {
  const steps: Array<{ hook: StepHook, stage: number, make: StepMaker<StepHook> }> = []
  const policies: RoutePolicy[] = []
  const unknown = new RoutePolicy(undefined)

  app.decorateRequest('signed', undefined as unknown as SignedRequest)
  app.addHook('onRoute', (route) => {
    const policy = new RoutePolicy(route)
    policies.push(policy)
    const methods = [route.method].flat()
    const ours: Partial<Record<StepHook, Array<StepKinds[StepHook]>>> = { onRequest: [begin(policy)] }
    for (const { hook, stage, make } of steps) {
      if (policy.media && !MEDIA_STAGES.has(stage)) continue
      const fn = make(policy, methods)
      if (fn !== undefined) (ours[hook] ??= []).push(fn)
    }
    // Before the route's own hooks (a per-address limit, say), which may then rely on the pipeline's state.
    const hooks = route as unknown as Record<StepHook, unknown>
    for (const [hook, fns] of Object.entries(ours) as Array<[StepHook, unknown[]]>) {
      hooks[hook] = hooks[hook] === undefined ? fns : fns.concat(hooks[hook])
    }
  })
  // After every onRoute hook, so a route's config is final (the API reference marks its routes public in one).
  app.addHook('onReady', (done) => {
    for (const policy of policies) policy.settle()
    done()
  })

  return {
    step: (hook, stage, make) => {
      steps.push({ hook, stage: STAGES.indexOf(stage), make: make as StepMaker<StepHook> })
      steps.sort((a, b) => a.stage - b.stage)
    },
    notFoundHooks: () => {
      const hooks: Partial<Record<StepHook, Array<StepKinds[StepHook]>>> = { onRequest: [begin(unknown)] }
      for (const { hook, make } of steps) {
        const fn = make(unknown, ALL_METHODS)
        if (fn !== undefined) (hooks[hook] ??= []).push(fn)
      }
      return hooks
    }
  }
}
