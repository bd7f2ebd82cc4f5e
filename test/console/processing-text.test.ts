import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { Asset } from 'reelhouse/client'
import { processingText, stillEncoding } from '../../src/console/browser/processing.ts'

// The line the console's upload panel and asset page show while an asset is processed: the page's own
// module, run here without a browser (it touches no DOM).

const asset = (fields: Omit<Partial<Asset>, 'processing'> & { processing?: unknown }): Asset => ({ status: 'processing', processing_progress: 0, ...fields }) as Asset

describe('where processing stands, in words', () => {
  it('says a job waits, with its place in the queue when the asset carries one', () => {
    assert.equal(processingText(asset({ processing: { state: 'queued', position: 3 } })), 'Waiting in the queue: position 3.')
    assert.equal(processingText(asset({ processing: { state: 'queued', queue_position: 2 } })), 'Waiting in the queue: position 2.')
    assert.equal(processingText(asset({ processing: { state: 'queued' } })), 'Waiting for a worker to start processing.')
    assert.equal(processingText(asset({})), 'Waiting for a worker to start processing.', 'no processing object: 0 % is a job not yet started')
  })
  it('gives the percentage while processing, and says a live asset still encodes the rest of its ladder', () => {
    assert.equal(processingText(asset({ processing_progress: 43 })), 'Processing 43 %.')
    assert.equal(processingText(asset({ processing: { state: 'processing' }, processing_progress: 0 })), 'Processing 0 %.')
    assert.equal(processingText(asset({ status: 'live', processing_progress: 43 })), 'Playable now; the other renditions are encoding (43 %).')
    assert.equal(stillEncoding(asset({ status: 'live', processing_progress: 43 })), true)
    assert.equal(processingText(asset({ status: 'live', processing_progress: 100 })), '')
    assert.equal(stillEncoding(asset({ status: 'live', processing_progress: undefined })), false, 'a remote asset has no ladder')
  })
  it('names the renditions that play and those still coming, with the time left', () => {
    const renditions = [
      { name: '360p', state: 'processing', playable: true, percent: 60 },
      { name: '720p', state: 'processing', playable: false, percent: 20 },
      { name: '1080p', state: 'pending', playable: false, percent: 0 }
    ]
    const processing = { state: 'running', queue_position: null, started_at: '2026-11-27T10:00:00Z', estimated_seconds_left: 170, renditions }
    assert.equal(processingText(asset({ status: 'live', processing_progress: 30, processing })), 'Playable now (360p); 720p, 1080p processing, about 3 min.')
    assert.equal(processingText(asset({ status: 'processing', processing_progress: 5, processing: { ...processing, estimated_seconds_left: null, renditions: renditions.map((r) => ({ ...r, playable: false })) } })), 'Processing 5 %: 360p, 720p, 1080p.')
  })
})
