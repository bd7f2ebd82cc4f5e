import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { processingLine } from '../../src/cli/upload-command.ts'

// The line `reelhouse upload` prints on stderr while it follows processing (the `processing` object of the asset).
describe('reelhouse upload: where processing stands', () => {
  const renditions = [
    { name: '360p', state: 'processing', playable: true },
    { name: '720p', state: 'processing', playable: false },
    { name: '1080p', state: 'pending', playable: false }
  ]
  it('names what plays now, what is still coming and the time left', () => {
    const processing = { state: 'running', queue_position: null, estimated_seconds_left: 170, renditions }
    assert.equal(processingLine({ status: 'live', processing_progress: 30, processing }), 'playable now (360p); 720p, 1080p processing, about 3 min')
    assert.equal(processingLine({ status: 'live', processing_progress: 30, processing: { ...processing, estimated_seconds_left: 40 } }), 'playable now (360p); 720p, 1080p processing, about 40 s')
  })
  it('says a waiting job\'s place, and falls back to the status and percentage', () => {
    assert.equal(processingLine({ status: 'processing', processing: { state: 'queued', queue_position: 2, estimated_seconds_left: null, renditions: [] } }), 'queued, position 2')
    assert.equal(processingLine({ status: 'live', processing_progress: 100, processing: null }), 'live 100%')
    assert.equal(processingLine({ status: 'processing', processing_progress: 5, processing: { state: 'running', queue_position: null, estimated_seconds_left: null, renditions: renditions.map((r) => ({ ...r, playable: false })) } }), 'processing 5%')
  })
})
