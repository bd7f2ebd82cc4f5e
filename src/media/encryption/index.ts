// AES-128 HLS: the version secret, its content keys, and segment encryption (docs/playback.md, "Encryption").
export { contentKey, encryptSegment, KEY_FILE, KEY_ROTATION_SEGMENTS, keyLine, KEYS_FOLDER, newVersionSecret } from './segment-keys.ts'
