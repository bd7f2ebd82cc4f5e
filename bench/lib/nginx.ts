import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { onServerCore } from './pinning.ts'
import { processCpuMs } from './wrk.ts'

export const NGINX = process.env.BENCH_NGINX ?? '/usr/sbin/nginx'

export interface Nginx {
  https: number
  http: number
  /** CPU time of its one worker, in ms. */
  cpuMs: () => number
  workerPid: number
  stop: () => Promise<void>
}

async function freePort (): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port
      server.close(() => { resolve(port) })
    })
  })
}

/** Whether nginx is installed (the comparison is printed when it is, never required). */
export function hasNginx (): boolean {
  return existsSync(NGINX)
}

/**
 * nginx as Debian ships it, one worker on the servers' core, `sendfile on`, serving `root` by path on
 * an HTTPS listener (the certificate in `tlsDir`) and a plain HTTP one: the static-server ceiling.
 */
export async function startNginx (root: string, tlsDir: string): Promise<Nginx> {
  const dir = mkdtempSync(join(tmpdir(), 'reelhouse-bench-nginx-'))
  const [https, http] = [await freePort(), await freePort()]
  writeFileSync(join(dir, 'nginx.conf'), `
user root;
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  default_type video/mp2t;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${https} ssl;
    ssl_certificate ${tlsDir}/tls-cert.pem;
    ssl_certificate_key ${tlsDir}/tls-key.pem;
    root ${root};
  }
  server {
    listen 127.0.0.1:${http};
    root ${root};
  }
}
`)
  const [command, args] = onServerCore(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf')])
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'inherit'] })
  let workerPid = 0
  for (let tries = 0; tries < 100 && workerPid === 0; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    if (!existsSync(join(dir, 'nginx.pid'))) continue
    const master = readFileSync(join(dir, 'nginx.pid'), 'utf8').trim()
    const children = spawnSync('pgrep', ['-P', master], { encoding: 'utf8' }).stdout.trim().split('\n').filter((line) => line !== '')
    workerPid = Number(children[0] ?? 0)
  }
  if (workerPid === 0) throw new Error(`nginx did not start: ${existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : ''}`)
  return {
    https,
    http,
    workerPid,
    cpuMs: () => processCpuMs(workerPid),
    stop: async () => {
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) { resolve(); return }
        child.once('exit', () => { resolve() })
        child.kill('SIGQUIT')
        setTimeout(() => child.kill('SIGKILL'), 5000).unref()
      })
      rmSync(dir, { recursive: true, force: true })
    }
  }
}
