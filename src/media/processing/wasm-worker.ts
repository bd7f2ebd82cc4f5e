/**
 * Child process that runs one ffmpeg or ffprobe command in the WebAssembly build (`@ffmpeg/core`).
 * Started by media-runner.ts as `node --import tsx wasm-worker.ts '<json request>'`; never imported.
 *
 * The wasm ffmpeg sees only a virtual file system holding a copy of the input (`/job/<name>`) and an
 * empty `/out`; the outputs are copied to the real output folder afterwards. ffmpeg's stdout and stderr
 * become this process's, and its return code the exit code, so the parent supervises it like a native run.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { WASM_INPUT_DIR, WASM_OUT_DIR } from './ffmpeg-arguments.ts'
import type { WasmWorkerRequest } from './media-runner.ts'

/** The parts of the Emscripten module of `@ffmpeg/core` 0.12 used here. */
interface FFmpegCore {
  exec: (...args: string[]) => number
  ffprobe: (...args: string[]) => number
  setLogger: (logger: (entry: { type: 'stdout' | 'stderr', message: string }) => void) => void
  FS: {
    mkdir: (path: string) => void
    writeFile: (path: string, data: Uint8Array) => void
    readFile: (path: string) => Uint8Array
    readdir: (path: string) => string[]
  }
}
type CreateCore = (options: { wasmBinary: Uint8Array }) => Promise<FFmpegCore>

const request = JSON.parse(process.argv[2] ?? '{}') as WasmWorkerRequest

// The build is made for a web worker; these two globals are all it reads from one.
Object.assign(globalThis, { self: globalThis, location: { href: pathToFileURL(request.coreDir + '/').href } })
// No sockets: Emscripten's socket layer would use Node 22's global WebSocket.
Reflect.deleteProperty(globalThis, 'WebSocket')

const { default: createCore } = await import(pathToFileURL(join(request.coreDir, 'ffmpeg-core.js')).href) as { default: CreateCore }
const core = await createCore({ wasmBinary: readFileSync(join(request.coreDir, 'ffmpeg-core.wasm')) })
core.setLogger(({ type, message }) => {
  // The build reports its own exit as an abort; that is not an error.
  if (type === 'stderr' && message === 'Aborted()') return
  ;(type === 'stdout' ? process.stdout : process.stderr).write(message + '\n')
})

core.FS.mkdir(WASM_INPUT_DIR)
core.FS.mkdir(WASM_OUT_DIR)
const subdirs = (request.outSubdirs ?? []).filter((name) => /^[A-Za-z0-9]{1,16}$/.test(name))
for (const name of subdirs) core.FS.mkdir(`${WASM_OUT_DIR}/${name}`)
if (request.inputFile !== '') core.FS.writeFile(`${WASM_INPUT_DIR}/${basename(request.inputFile)}`, readFileSync(request.inputFile))
const ret = request.program === 'ffmpeg' ? core.exec(...request.args) : core.ffprobe(...request.args)

if (request.outDir !== null) {
  const outDir = request.outDir
  const copyOut = (from: string, to: string): void => {
    for (const name of core.FS.readdir(from)) {
      if (name === '.' || name === '..' || subdirs.includes(name)) continue
      writeFileSync(join(to, name), core.FS.readFile(`${from}/${name}`))
    }
  }
  copyOut(WASM_OUT_DIR, outDir)
  for (const name of subdirs) copyOut(`${WASM_OUT_DIR}/${name}`, join(outDir, name))
}
// ffprobe returns -1 even when it succeeded: the parent judges it by its output.
process.exitCode = ret === 0 ? 0 : ret > 0 && ret < 256 ? ret : 255
