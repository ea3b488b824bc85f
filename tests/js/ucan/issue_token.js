// Issues a bench token: a space provisioned as a consumer of SERVICE_DID, its delegation of
// archive/read to an agent stored, and the agent's invocation; prints the bearer token (the
// base64 of the invocation's CAR). Usage: node issue_token.js SERVICE_DID ADMIN_DSN
import { execFileSync } from 'node:child_process'
import { ed25519 } from '@ucanto/principal'
import { delegate, invoke } from '@ucanto/core'

const [serviceDid, dsn] = process.argv.slice(2)
const sql = (text) => execFileSync('psql', [dsn, '-X', '-q', '-t', '-A', '-v', 'ON_ERROR_STOP=1', '-c', text])
const quote = (s) => `'${String(s).replaceAll("'", "''")}'`
const space = await ed25519.generate()
const agent = await ed25519.generate()
const expiration = Math.floor(Date.now() / 1000) + 3600
const grant = await delegate({ issuer: space, audience: agent,
  capabilities: [{ can: 'archive/read', with: serviceDid }], expiration })
sql(`SELECT 1 FROM access.provisions_put(${quote(serviceDid)}, 'did:mailto:bench.example:user', ${quote(space.did())})`)
sql(`SELECT access.delegations_put_many(${quote(JSON.stringify([{ link: grant.cid.toString(),
  audience: agent.did(), issuer: space.did(), expiration }]))})`)
const invocation = await invoke({ issuer: agent, audience: { did: () => serviceDid },
  capability: { can: 'archive/read', with: serviceDid }, proofs: [grant], expiration }).delegate()
const archive = await invocation.archive()
if (archive.error) throw archive.error
process.stdout.write(Buffer.from(archive.ok).toString('base64'))
