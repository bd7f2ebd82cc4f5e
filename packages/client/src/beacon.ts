/**
 * The player beacon (docs/analytics.md, "The beacon"): attaches to a `<video>` element and, when given
 * one, an hls.js instance, and posts viewer-experience events to `POST /v2/analytics/events` in batches,
 * with `navigator.sendBeacon` when the page is hidden. No dependencies: the video and hls.js are
 * described by the few members the beacon reads.
 */

/** The members of an HTMLVideoElement the beacon reads. */
export interface BeaconVideo {
  addEventListener: (type: string, listener: () => void) => void
  removeEventListener: (type: string, listener: () => void) => void
  readonly currentTime: number
  readonly duration: number
  readonly seeking: boolean
  readonly paused: boolean
  readonly error: { code: number, message: string } | null
}

/** What hls.js passes with `hlsLevelSwitched` and `hlsError`, as far as the beacon reads it. */
export interface BeaconHlsData { level?: number, fatal?: boolean, details?: string, type?: string }

/**
 * The members of an hls.js instance the beacon reads (`Hls.Events.LEVEL_SWITCHED`, `Hls.Events.ERROR`).
 * Written as methods so that hls.js's own typed instance fits (its `on` takes one event name type).
 */
export interface BeaconHls {
  on (event: 'hlsLevelSwitched' | 'hlsError', listener: (event: string, data: BeaconHlsData) => void): void
  off (event: 'hlsLevelSwitched' | 'hlsError', listener: (event: string, data: BeaconHlsData) => void): void
  readonly levels: ReadonlyArray<{ height: number, bitrate: number }>
}

export interface BeaconOptions {
  /** The collection URL, e.g. `https://media.example.com/v2/analytics/events`. */
  endpoint: string
  accountCode: string
  assetId: string
  playerId?: string
  sessionId?: string
  /** Heartbeat (`playhead_update`, `time_watched`) interval, ms (default 10,000). */
  heartbeatMs?: number
  /** Sends a batch once this many events wait (default 50). */
  batchSize?: number
  /** Clock, ms (default `performance.now() + performance.timeOrigin`). */
  now?: () => number
  /** Sends a body; default `navigator.sendBeacon`, else `fetch` with keepalive. */
  send?: (endpoint: string, body: string) => void
}

export interface BeaconEvent { name: string, time: number, [field: string]: unknown }

export interface Beacon {
  /** Sends what waits now. */
  flush: () => void
  /** Stops listening and sends what waits. */
  detach: () => void
  /** The startup time this page measured for its view, once started (ms). */
  readonly startupMs: number | undefined
}

interface PageEvents {
  addEventListener: (type: string, listener: () => void) => void
  removeEventListener: (type: string, listener: () => void) => void
}

const LIMIT = { startupMs: 600_000, stallMs: 3_600_000, messageLength: 256, codeLength: 64 }

function defaultSend (endpoint: string, body: string): void {
  const nav = (globalThis as { navigator?: { sendBeacon?: (url: string, data: Blob) => boolean } }).navigator
  if (nav?.sendBeacon?.(endpoint, new Blob([body], { type: 'text/plain' })) === true) return
  void fetch(endpoint, { method: 'POST', body, keepalive: true, headers: { 'content-type': 'application/json' } }).catch(() => {})
}

const clamp = (value: number, max: number): number => Math.min(max, Math.max(0, Math.round(value)))

export function attachBeacon (video: BeaconVideo, options: BeaconOptions, hls?: BeaconHls): Beacon {
  const now = options.now ?? (() => Math.round(performance.timeOrigin + performance.now()))
  const send = options.send ?? defaultSend
  const sessionId = options.sessionId ?? `s-${Math.random().toString(36).slice(2)}${now().toString(36)}`
  const queue: BeaconEvent[] = []
  let requestedAt: number | undefined
  let startupMs: number | undefined
  let stalledAt: number | undefined
  let lastTick: number | undefined
  let watchedMs = 0
  const reached = new Set<number>()

  const flush = (): void => {
    if (watchedMs >= 1) { queue.push({ name: 'time_watched', time: now(), value: Math.round(watchedMs) }); watchedMs = 0 }
    if (queue.length === 0) return
    const events = queue.splice(0, 1000)
    send(options.endpoint, JSON.stringify({ account_code: options.accountCode, session_id: sessionId, asset_id: options.assetId, player_id: options.playerId, events }))
  }
  const emit = (name: string, fields: Record<string, unknown> = {}): void => {
    queue.push({ name, time: now(), ...fields })
    if (queue.length >= (options.batchSize ?? 50)) flush()
  }
  const tick = (): void => {
    const t = now()
    if (lastTick !== undefined && !video.paused && !video.seeking && stalledAt === undefined) watchedMs += t - lastTick
    lastTick = t
  }
  const duration = (): number | undefined => Number.isFinite(video.duration) && video.duration > 0 ? video.duration : undefined

  const on: Record<string, () => void> = {
    play: () => {
      if (requestedAt === undefined) { requestedAt = now(); emit('play_requested') }
    },
    playing: () => {
      const t = now()
      if (startupMs === undefined && requestedAt !== undefined) {
        startupMs = t - requestedAt
        emit('video_start', { startup_ms: clamp(startupMs, LIMIT.startupMs) })
      } else if (stalledAt !== undefined) {
        emit('rebuffer_end', { duration_ms: clamp(t - stalledAt, LIMIT.stallMs) })
      }
      stalledAt = undefined
      lastTick = t
    },
    waiting: () => {
      if (startupMs !== undefined && !video.seeking && stalledAt === undefined) { tick(); stalledAt = now(); emit('rebuffer_start') }
    },
    seeking: () => { tick(); emit('seek') },
    pause: () => { tick(); emit('pause') },
    timeupdate: () => {
      tick()
      const d = duration()
      if (d === undefined) return
      for (const percent of [25, 50, 75, 100]) {
        if (!reached.has(percent) && video.currentTime >= d * percent / 100 - (percent === 100 ? 0.25 : 0)) { reached.add(percent); emit('playthrough', { percent }) }
      }
    },
    error: () => {
      const e = video.error
      if (e !== null) emit('error', { fatal: true, code: e.code, message: (e.message ?? '').slice(0, LIMIT.messageLength) })
    }
  }
  for (const [type, listener] of Object.entries(on)) video.addEventListener(type, listener)

  const onLevel = (_: string, data: { level?: number }): void => {
    const level = data.level === undefined ? undefined : hls?.levels[data.level]
    if (level !== undefined && level.height > 0 && level.bitrate > 0) emit('rendition_change', { height: Math.round(level.height), bitrate: Math.round(level.bitrate) })
  }
  const onHlsError = (_: string, data: { fatal?: boolean, details?: string, type?: string }): void => {
    emit('error', { fatal: data.fatal === true, code: (data.details ?? 'hlsError').slice(0, LIMIT.codeLength), message: (data.type ?? '').slice(0, LIMIT.messageLength) })
  }
  hls?.on('hlsLevelSwitched', onLevel)
  hls?.on('hlsError', onHlsError)

  const heartbeat = setInterval(() => {
    if (video.paused) return
    tick()
    const d = duration()
    emit('playhead_update', d === undefined ? {} : { position_ms: clamp(video.currentTime * 1000, 86_400_000), duration_ms: clamp(d * 1000, 86_400_000) || 1 })
  }, options.heartbeatMs ?? 10_000)
  const page = globalThis as unknown as Partial<PageEvents> & { document?: PageEvents & { visibilityState: string } }
  const onHide = (): void => {
    if (page.document === undefined || page.document.visibilityState === 'hidden') { tick(); flush() }
  }
  page.addEventListener?.('pagehide', onHide)
  page.document?.addEventListener('visibilitychange', onHide)

  emit('player_load')
  return {
    flush: () => { tick(); flush() },
    detach: () => {
      clearInterval(heartbeat)
      for (const [type, listener] of Object.entries(on)) video.removeEventListener(type, listener)
      hls?.off('hlsLevelSwitched', onLevel)
      hls?.off('hlsError', onHlsError)
      page.removeEventListener?.('pagehide', onHide)
      page.document?.removeEventListener('visibilitychange', onHide)
      tick()
      flush()
    },
    get startupMs () { return startupMs }
  }
}
