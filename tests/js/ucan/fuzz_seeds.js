// Writes the seeds of ucan_fuzz into tests/fuzz/seeds/ucan/ (checked in: our own output, not
// third-party data):
// UCAN chains as @ucanto issues them (the packages of tests/js/ucan), each in the fuzz target's
// three input forms: 't' and the bearer token (the base64 of the CAR), 'c' and the CAR's bytes,
// 'b' and the CAR's blocks but its root (each: the codec byte, a 2-byte big-endian length, the
// bytes), of which the target rebuilds the CAR. Keys come from fixed seeds and Ed25519 signs
// deterministically, so the seeds are the same on every run.
// Usage: tests/js/install.sh tests/js/ucan && node tests/js/ucan/fuzz_seeds.js
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ed25519 } from '@ucanto/principal'
import { delegate, invoke, Delegation } from '@ucanto/core'
import * as UCAN from '@ipld/dag-ucan'

// The service and time the target verifies against (ucan_fuzz.cpp).
const service = 'did:web:fuzz.test'
const expiration = 4102444800 // 2100-01-01
const key = (n) => ed25519.derive(new Uint8Array(32).fill(n))
const out = join(dirname(fileURLToPath(import.meta.url)), '../../fuzz/seeds/ucan')
mkdirSync(out, { recursive: true })

const base64url = (bytes) => Buffer.from(bytes).toString('base64url')

// A UCAN in JWT form: a payload whose keys are not in dag-ucan's order, so that it stays a JWT
// (a raw block) instead of becoming dag-cbor; signed over "header.payload" as UCAN 0.9 signs.
async function jwtDelegation (issuer, audience, can) {
  const header = base64url(Buffer.from(JSON.stringify({ typ: 'JWT', alg: 'EdDSA', ucv: '0.9.1' })))
  const payload = base64url(Buffer.from(JSON.stringify({
    iss: issuer.did(), aud: audience.did(), exp: expiration,
    att: [{ with: service, can }], prf: []
  })))
  const signature = await issuer.sign(new TextEncoder().encode(`${header}.${payload}`))
  const view = UCAN.parse(`${header}.${payload}.${base64url(signature.raw)}`)
  const block = await UCAN.write(view)
  return Delegation.create({ root: block, blocks: new Map() })
}

async function save (name, invocation) {
  const archive = await invocation.archive()
  if (archive.error) throw archive.error
  const car = Buffer.from(archive.ok)
  writeFileSync(join(out, `t-${name}`), Buffer.concat([Buffer.from('t'), Buffer.from(car.toString('base64'))]))
  writeFileSync(join(out, `c-${name}`), Buffer.concat([Buffer.from('c'), car]))
  const blocks = [Buffer.from('b')]
  for (const block of invocation.export()) {
    const length = Buffer.alloc(2)
    length.writeUInt16BE(block.bytes.length)
    blocks.push(Buffer.from([block.cid.code]), length, Buffer.from(block.bytes))
  }
  writeFileSync(join(out, `b-${name}`), Buffer.concat(blocks))
}

const space = await key(1)
const agent = await key(2)
const device = await key(3)
const read = { can: 'archive/read', with: service }
const audience = { did: () => service }

// The space invokes directly: no proofs.
await save('direct', await invoke({ issuer: space, audience, capability: read, expiration }).delegate())

// space -> agent, and the agent invokes.
const grant = await delegate({ issuer: space, audience: agent, capabilities: [read], expiration })
await save('one-proof', await invoke({ issuer: agent, audience, capability: read, proofs: [grant], expiration }).delegate())

// space -> agent (archive/*) -> device (archive/read), and the device invokes.
const all = await delegate({ issuer: space, audience: agent, capabilities: [{ can: 'archive/*', with: service }], expiration })
const again = await delegate({ issuer: agent, audience: device, capabilities: [read], proofs: [all], expiration })
await save('two-proofs', await invoke({ issuer: device, audience, capability: read, proofs: [again], expiration }).delegate())

// A proof in JWT form.
const jwt = await jwtDelegation(space, agent, 'archive/read')
await save('jwt-proof', await invoke({ issuer: agent, audience, capability: read, proofs: [jwt], expiration }).delegate())
