// permanode-serve --auth ucan against UCANs issued by the packages w3infra's upload service uses:
// @ucanto/principal's Ed25519 keys, @ucanto/core's delegate() and invoke(), each invocation sent
// as the base64 of its CAR (Delegation.archive()) in `Authorization: Bearer`. The stores are
// filled through the SQL functions (psql, as the admin would).
// OTHER_URL serves the same database as another service (OTHER_DID): a token for one is replayed
// to the other. Every refusal must be a JSON error.
// Usage: node ucan_auth_test.js URL SERVICE_DID ADMIN_DSN OTHER_URL OTHER_DID
import { execFileSync } from 'node:child_process'
import assert from 'node:assert/strict'
import { ed25519 } from '@ucanto/principal'
import { delegate, invoke } from '@ucanto/core'
import * as UCAN from '@ipld/dag-ucan'

const [url, serviceDid, dsn, otherUrl, otherDid] = process.argv.slice(2)
const service = { did: () => serviceDid }
const now = () => Math.floor(Date.now() / 1000)
const route = '/api/core/v2/milestones/by-index/17340'

const sql = (text) =>
  execFileSync('psql', [dsn, '-X', '-q', '-t', '-A', '-v', 'ON_ERROR_STOP=1', '-c', text]).toString().trim()
const quote = (s) => `'${String(s).replaceAll("'", "''")}'`
// Stores delegations as the service would on receiving them (access/delegate).
const store = (...delegations) =>
  sql(`SELECT access.delegations_put_many(${quote(JSON.stringify(delegations.map((d) => ({
    link: d.cid.toString(), audience: d.audience.did(), issuer: d.issuer.did(),
    expiration: d.expiration === Infinity ? null : d.expiration, cause: null }))))})`)
const provision = (space, customer) =>
  sql(`SELECT 1 FROM access.provisions_put(${quote(serviceDid)}, ${quote(customer)}, ${quote(space.did())})`)

const bearer = async (invocation) => {
  const archive = await (await invocation.delegate()).archive()
  if (archive.error) throw archive.error
  return Buffer.from(archive.ok).toString('base64')
}
const call = async (token, path = route, base = url) => {
  const headers = token === undefined ? {} : { Authorization: `Bearer ${token}` }
  const response = await fetch(base + path, { headers })
  return { status: response.status, body: await response.text() }
}
// A refusal is the server's JSON error: {"error": {"code": "401", "message": ...}}.
const jsonError = (name, status, body) => {
  let error
  try { error = JSON.parse(body).error } catch { assert.fail(`${name}: ${body} is not JSON`) }
  assert.equal(error?.code, String(status), `${name}: ${body}`)
  assert.equal(typeof error.message, 'string', `${name}: ${body}`)
}
const expect = async (name, token, status, text, base = url) => {
  const { status: got, body } = await call(token, route, base)
  assert.equal(got, status, `${name}: status ${got}, body ${body}`)
  if (text) assert.ok(body.includes(text), `${name}: ${body} does not say ${text}`)
  if (status >= 400) jsonError(name, status, body)
  console.log(`ok ${name}: ${got}${text ? ` (${text})` : ''}`)
}
const read = (issuer, proofs, with_ = serviceDid, audience = service, can = 'archive/read') =>
  invoke({ issuer, audience, capability: { can, with: with_ }, proofs })

const space = await ed25519.generate()
const agent = await ed25519.generate()
const stranger = await ed25519.generate()
provision(space, 'did:mailto:example.com:alice')

// A good chain: space -> agent, stored; the agent invokes.
const grant = await delegate({
  issuer: space, audience: agent, capabilities: [{ can: 'archive/read', with: serviceDid }],
  expiration: now() + 3600 })
store(grant)
const good = await bearer(read(agent, [grant]))
await expect('good chain', good, 200, '"index":17340')
await expect('good chain again (cached)', good, 200, '"index":17340')
// The space itself, without proofs; a wider grant (archive/*) delegated on by the agent.
await expect('space invoking itself', await bearer(read(space, [])), 200)
const wide = await delegate({
  issuer: space, audience: agent, capabilities: [{ can: 'archive/*', with: serviceDid }],
  expiration: now() + 3600 })
const onward = await delegate({
  issuer: agent, audience: stranger, capabilities: [{ can: 'archive/read', with: serviceDid }],
  proofs: [wide], expiration: now() + 3600 })
store(wide, onward)
await expect('two delegations', await bearer(read(stranger, [onward])), 200)

// No token, or not a UCAN: 401.
await expect('no token', undefined, 401, 'missing Authorization')
await expect('not a UCAN', 'bm90IGEgQ0FS', 401, 'malformed UCAN')
// A JWT-form UCAN alone (no CAR) is refused as malformed.
const jwt = UCAN.format(await UCAN.issue({ issuer: agent, audience: service,
  capabilities: [{ can: 'archive/read', with: serviceDid }] }))
await expect('bare JWT', jwt, 401, 'malformed UCAN')

// Wrong audience: 401 naming both.
await expect('wrong audience', await bearer(read(agent, [grant], serviceDid, { did: () => 'did:web:elsewhere.example' })),
  401, 'not for ' + serviceDid)

// An expired link: the delegation's exp has passed (401); stored expired while its UCAN still
// holds (403); not stored at all (403).
const expired = await delegate({
  issuer: space, audience: agent, capabilities: [{ can: 'archive/read', with: serviceDid }],
  expiration: now() - 60 })
store(expired)
await expect('expired delegation', await bearer(read(agent, [expired])), 401, `${expired.cid} expired`)
// (a nonce: else, made in the same second as `grant`, it would be `grant`, bytes and CID)
const short = await delegate({
  issuer: space, audience: agent, capabilities: [{ can: 'archive/read', with: serviceDid }],
  expiration: now() + 3600, nonce: 'short' })
sql(`SELECT access.delegations_put_many(${quote(JSON.stringify([{ link: short.cid.toString(),
  audience: agent.did(), issuer: space.did(), expiration: now() - 1 }]))})`)
await expect('delegation expired in access.delegations', await bearer(read(agent, [short])), 403,
  `delegation ${short.cid} is not stored`)
const unstored = await delegate({
  issuer: space, audience: agent, capabilities: [{ can: 'archive/read', with: serviceDid }] })
await expect('delegation not stored', await bearer(read(agent, [unstored])), 403,
  `delegation ${unstored.cid} is not stored`)

// Escalation: granted another ability, or on another resource; invoking another ability.
const list = await delegate({
  issuer: space, audience: agent, capabilities: [{ can: 'archive/list', with: serviceDid }] })
store(list)
await expect('escalated ability', await bearer(read(agent, [list])), 403,
  `delegation ${list.cid} does not grant archive/read`)
const other = await delegate({
  issuer: space, audience: agent, capabilities: [{ can: 'archive/read', with: 'did:web:other.example' }] })
store(other)
await expect('escalated resource', await bearer(read(agent, [other])), 403, 'does not grant archive/read')
await expect('invoking another ability', await bearer(read(agent, [grant], serviceDid, service, 'archive/write')),
  403, 'does not invoke archive/read')

// A forged signature: a delegation that names the space as issuer, signed by a stranger's key.
const forged = await delegate({
  issuer: stranger.withDID(space.did()), audience: agent,
  capabilities: [{ can: 'archive/read', with: serviceDid }] })
store(forged)
await expect('forged signature', await bearer(read(agent, [forged])), 401, 'does not verify')

// A space that no subscription provisions: 403 naming it.
const lonely = await ed25519.generate()
const lonelyGrant = await delegate({
  issuer: lonely, audience: agent, capabilities: [{ can: 'archive/read', with: serviceDid }] })
store(lonelyGrant)
await expect('missing subscription', await bearer(read(agent, [lonelyGrant])), 403,
  `space ${lonely.did()} is not a consumer`)

// Replayed for another audience: the good token sent to another service is refused there (while
// it still serves here); a delegation to the agent, presented by a stranger as its own.
await expect('replayed to another service', good, 401, `is for ${serviceDid}, not for ${otherDid}`,
  otherUrl)
await expect('the same token here', good, 200)
await expect('a delegation replayed by another principal', await bearer(read(stranger, [grant])),
  401, `delegation ${grant.cid} is to ${agent.did()}, not to ${stranger.did()}`)

// A middle link that delegates more than its issuer holds: the agent, granted archive/list (or
// archive/read on another resource), passes on archive/* (archive/read on this service).
const narrow = await delegate({
  issuer: space, audience: agent, capabilities: [{ can: 'archive/list', with: serviceDid }],
  expiration: now() + 3600, nonce: 'narrow' })
const widened = await delegate({
  issuer: agent, audience: stranger, capabilities: [{ can: 'archive/*', with: serviceDid }],
  proofs: [narrow], expiration: now() + 3600 })
store(narrow, widened)
await expect('a middle link widening the ability', await bearer(read(stranger, [widened])), 403,
  `delegation ${narrow.cid} does not grant archive/read`)
const elsewhere = await delegate({
  issuer: space, audience: agent,
  capabilities: [{ can: 'archive/read', with: 'did:web:other.example' }],
  expiration: now() + 3600, nonce: 'elsewhere' })
const moved = await delegate({
  issuer: agent, audience: stranger, capabilities: [{ can: 'archive/read', with: serviceDid }],
  proofs: [elsewhere], expiration: now() + 3600 })
store(elsewhere, moved)
await expect('a middle link moving the resource', await bearer(read(stranger, [moved])), 403,
  `delegation ${elsewhere.cid} does not grant archive/read`)

// The time bounds of the invocation itself, and a delegation not valid yet.
await expect('expired invocation', await bearer(invoke({
  issuer: agent, audience: service, capability: { can: 'archive/read', with: serviceDid },
  proofs: [grant], expiration: now() - 1 })), 401, 'expired at')
const early = await delegate({
  issuer: space, audience: agent, capabilities: [{ can: 'archive/read', with: serviceDid }],
  notBefore: now() + 3600, expiration: now() + 7200 })
store(early)
await expect('delegation not valid yet', await bearer(read(agent, [early])), 401,
  'is not valid before')

// Proof chains that would cost the server more than a token is worth: one deeper than 16 links,
// and one whose links fan out (each UCAN lists its proof 4 times, 9 deep: 4^9 paths to check,
// 39 s of one event loop's time before the server bounded the checks). Refused at once.
const chainOf = async (depth, fan) => {
  const keys = [agent]
  for (let i = 0; i < depth; i++) keys.push(await ed25519.generate())
  let proof = await delegate({
    issuer: keys[depth], audience: keys[depth - 1],
    capabilities: [{ can: 'archive/read', with: serviceDid }], expiration: now() - 60 })
  for (let i = depth - 1; i >= 1; i--) {
    proof = await delegate({
      issuer: keys[i], audience: keys[i - 1], expiration: now() + 3600,
      capabilities: [{ can: 'archive/read', with: serviceDid }], proofs: Array(fan).fill(proof) })
  }
  return bearer(read(agent, Array(fan).fill(proof)))
}
await expect('a chain 18 links deep', await chainOf(18, 1), 401, 'deeper than 16')
const fanning = await chainOf(9, 4)
const began = Date.now()
await expect('a chain fanning out', fanning, 401, 'more than 64 proofs to be checked')
assert.ok(Date.now() - began < 1000, `the fanning chain took ${Date.now() - began} ms`)

// Malformed and oversized tokens: cut short, a block altered (it no longer hashes to its CID),
// the base64 of garbage, not base64, and longer than a header line may be (8192 bytes).
await expect('a token cut short', good.slice(0, good.length / 2), 401, 'malformed UCAN')
const altered = Buffer.from(good, 'base64')
altered[altered.length - 10] ^= 1
await expect('a token altered', altered.toString('base64'), 401, 'does not hash to its CID')
await expect('the base64 of garbage', Buffer.alloc(6000, 0xff).toString('base64'), 401,
  'malformed UCAN')
await expect('not base64', '!!!!', 401, 'malformed UCAN: not base64')
await expect('a token of 12 kB', 'A'.repeat(12000), 400, 'header line longer than 8192 bytes')
await expect('the good token after them', good, 200)

// The explorer's pages hold no ledger data: served without a token (the browser then asks its
// user for one), while the API they read, and POST / (IRI's API), still ask for one.
for (const [path, type] of [['/', 'text/html'], ['/web/app.js', 'text/javascript'],
  ['/web/style.css', 'text/css'], ['/web/chart.min.js', 'text/javascript']]) {
  const response = await fetch(url + path)
  assert.equal(response.status, 200, `${path} without a token: ${response.status}`)
  assert.ok(response.headers.get('content-type').startsWith(type), `${path}: ${response.headers.get('content-type')}`)
  assert.ok((await response.text()).length > 100, `${path}: body too short`)
}
assert.equal((await call(undefined, '/web/nothing.js')).status, 404)
assert.equal((await call(good, '/')).status, 200)
for (const path of ['/api/analytics/v2/overview', `/api/explorer/v2/legacy/transactions/${'9'.repeat(81)}`]) {
  const { status, body } = await call(undefined, path)
  assert.equal(status, 401, `${path} without a token: ${status} ${body}`)
  assert.ok(body.includes('missing Authorization'), body)
}
const iri = await fetch(url + '/', { method: 'POST', body: '{"command":"getNodeInfo"}',
  headers: { 'Content-Type': 'application/json', 'X-IOTA-API-Version': '1' } })
assert.equal(iri.status, 401, `POST / without a token: ${iri.status}`)
const iriGood = await fetch(url + '/', { method: 'POST', body: '{"command":"getNodeInfo"}',
  headers: { 'Content-Type': 'application/json', 'X-IOTA-API-Version': '1', Authorization: `Bearer ${good}` } })
assert.equal(iriGood.status, 200, `POST / with a token: ${iriGood.status}`)
console.log('ok the pages are served without a token; the API and POST / ask for one')

// Counted per consumer: in /metrics at once, in access.requests within the second.
const metrics = await call(good, '/metrics')
assert.equal(metrics.status, 200)
const line = metrics.body.split('\n').find((l) => l.startsWith(
  `permanode_http_consumer_requests_total{consumer="${space.did()}"}`))
assert.ok(line, `no count for ${space.did()} in /metrics`)
const counted = Number(line.split(' ').pop())
// good x4 (twice, after the replay, after the malformed tokens), the space itself, two
// delegations, POST / and /metrics (not the pages: open routes)
assert.equal(counted, 8, line)
await new Promise((resolve) => setTimeout(resolve, 2500))
const stored = Number(sql(`SELECT coalesce(sum(requests), 0) FROM access.requests WHERE consumer = ${quote(space.did())}`))
assert.ok(stored >= 8, `access.requests holds ${stored} requests of the space`)
console.log(`ok counted: ${counted} in /metrics, ${stored} in access.requests`)
