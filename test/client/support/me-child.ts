// A separate Node process that asks GET /v2/users/me with the global fetch: how `NODE_EXTRA_CA_CERTS`
// (read once, when Node starts) makes a self-signed server trusted. Prints the role, or the error's class.
import { Reelhouse } from 'reelhouse/client'

const client = new Reelhouse({ baseUrl: process.env.BASE_URL ?? '', apiKey: process.env.API_KEY ?? '', secret: process.env.SECRET ?? '', maxRetries: 0 })
try {
  console.log((await client.users.me()).role)
} catch (error) {
  console.log((error as Error).name)
}
