// @iota/iota.js 1.8.6 (npm alias iota-js-chrysalis), a Chrysalis client we did not write,
// against permanode-serve's REST API v1: SingleNodeClient must get back what the Chrysalis
// bundles that were ingested say. The expectations come from the bundles' raw messages alone,
// read with iota.js (message, transaction and milestone IDs hashed with its crypto.js), replayed
// as a ledger: outputs created and spent, migrated funds, balances and dust, indexes, children,
// receipts and the treasury.
//
// usage: node http_chrysalis_client_test.js URL BUNDLE_FILE...
//        node http_chrysalis_client_test.js --fixture-bundle CHRYSALIS_FIXTURES_DIR OUT
// The second form writes the real Chrysalis messages as the two testnet7 milestones they form
// (16241-16242; the cones of client/cli/chrysalis_fixtures.cpp) as a bundle file.
"use strict";
const assert = require("assert");
const fs = require("fs");
const path = require("path");
const v1 = require("iota-js-chrysalis");
// iota.js 1.8.6 reads, writes and hashes with its own util.js and crypto.js (1.8.6).
const v1Dir = path.dirname(require.resolve("iota-js-chrysalis"));
const { ReadStream, WriteStream, Converter } = require(require.resolve("@iota/util.js", { paths: [v1Dir] }));
const { Blake2b } = require(require.resolve("@iota/crypto.js", { paths: [v1Dir] }));

const hex = (bytes) => Buffer.from(bytes).toString("hex");
const blake = (bytes) => hex(Blake2b.sum256(Uint8Array.from(bytes)));
const u16 = (i) => { const b = Buffer.alloc(2); b.writeUInt16LE(i); return b.toString("hex"); };
const written = (fn, object) => { const s = new WriteStream(); fn(s, object); return Buffer.from(s.finalBytes()); };
const STATES = { no_transaction: "noTransaction", noTransaction: "noTransaction", included: "included", conflicting: "conflicting" };

function writeFixtureBundle(dir, out) {
    const fixture = JSON.parse(fs.readFileSync(path.join(dir, "chrysalis_messages.json"), "utf8"));
    const byPrefix = (p) => fixture.messages.find((m) => m.message_id_computed.startsWith(p)).message_hex;
    const cones = [
        [16241, 1617959712, [["10dbee9c", "no_transaction"], ["30d87fa9", "no_transaction"],
            ["70a9a9bc", "included"], ["92f427d6", "included"], ["89e4d40f", "included"],
            ["53e5f848", "no_transaction"]]],
        [16242, 1617959722, [["1f7af3df", "included"]]],
    ];
    // The fixture holds part of each cone only: its Merkle proof cannot hold ("partial_cone").
    const lines = cones.map(([index, timestamp, cone]) => JSON.stringify({
        protocol_version: 1, milestone_index: index, milestone_timestamp: timestamp,
        blocks: cone.map(([p, state]) => ({ block: "0x" + byPrefix(p), inclusion_state: state })),
        partial_cone: true,
    }));
    fs.writeFileSync(out, lines.join("\n") + "\n");
}

// The ledger the bundles describe, replayed in milestone order.
function replay(files) {
    const bundles = [];
    for (const file of files) {
        for (const line of fs.readFileSync(file, "utf8").split("\n")) {
            if (line.trim()) {
                bundles.push(JSON.parse(line));
            }
        }
    }
    bundles.sort((a, b) => a.milestone_index - b.milestone_index);
    const ledger = {
        messages: new Map(), outputs: new Map(), addresses: new Map(), indexes: new Map(),
        children: new Map(), milestones: new Map(), receipts: [], transactions: new Map(),
    };
    const addressOf = (hash) => {
        if (!ledger.addresses.has(hash)) {
            ledger.addresses.set(hash, new Set());
        }
        return ledger.addresses.get(hash);
    };
    const create = (outputId, output, messageId, transactionId, milestone) => {
        ledger.outputs.set(outputId, { output, messageId, transactionId, milestone, spent: null });
        addressOf(output.address.address).add(outputId);
    };
    for (const bundle of bundles) {
        assert.strictEqual(bundle.protocol_version, 1, "Chrysalis bundles only");
        const index = bundle.milestone_index;
        const created = [];
        const consumed = [];
        // Outputs from outside the cone (genesis, snapshot) are booked first: the cone may spend them.
        for (const s of bundle.snapshot_outputs || []) {
            const outputId = s.output_id.replace(/^0x/, "");
            const output = v1.deserializeOutput(new ReadStream(Buffer.from(s.output.replace(/^0x/, ""), "hex")));
            created.push(outputId);
            create(outputId, output, s.block_id.replace(/^0x/, ""), outputId.slice(0, 64), index);
        }
        bundle.blocks.forEach((b, position) => {
            const bytes = Buffer.from(b.block.replace(/^0x/, ""), "hex");
            const id = blake(bytes);
            const message = v1.deserializeMessage(new ReadStream(bytes));
            const state = STATES[b.inclusion_state];
            ledger.messages.set(id, { bytes, message, milestone: index, state, position,
                conflictReason: b.conflict_reason || 0 });
            for (const parent of message.parentMessageIds) {
                if (!ledger.children.has(parent)) {
                    ledger.children.set(parent, new Set());
                }
                ledger.children.get(parent).add(id);
            }
            const payload = message.payload;
            const tag = (indexHex) => {
                if (!ledger.indexes.has(indexHex)) {
                    ledger.indexes.set(indexHex, []);
                }
                ledger.indexes.get(indexHex).push({ id, milestone: index, state });
            };
            if (payload && payload.type === v1.INDEXATION_PAYLOAD_TYPE) {
                tag(payload.index);
            }
            if (payload && payload.type === v1.TRANSACTION_PAYLOAD_TYPE) {
                const transactionId = blake(written(v1.serializeTransactionPayload, payload));
                if (payload.essence.payload) {
                    tag(payload.essence.payload.index);
                }
                if (state === "included") {
                    ledger.transactions.set(transactionId, id);
                    for (const input of payload.essence.inputs) {
                        const spentId = input.transactionId + u16(input.transactionOutputIndex);
                        consumed.push(spentId);
                        const spent = ledger.outputs.get(spentId);
                        if (spent) {
                            spent.spent = { milestone: index, transactionId };
                        }
                    }
                    payload.essence.outputs.forEach((output, i) => {
                        created.push(transactionId + u16(i));
                        create(transactionId + u16(i), output, id, transactionId, index);
                    });
                }
            }
            if (payload && payload.type === v1.MILESTONE_PAYLOAD_TYPE) {
                const all = written(v1.serializeMilestonePayload, payload);
                const milestoneId = blake(all.subarray(4, all.length - 1 - 64 * payload.signatures.length));
                ledger.milestones.set(payload.index, { messageId: id, timestamp: payload.timestamp, milestoneId });
                if (payload.receipt) {
                    ledger.receipts.push({ milestoneIndex: index, receipt: payload.receipt, milestoneId });
                    // Migrated funds are outputs of the milestone: its ID and the entry's index.
                    payload.receipt.funds.forEach((fund, i) => {
                        created.push(milestoneId + u16(i));
                        create(milestoneId + u16(i), { type: v1.SIG_LOCKED_SINGLE_OUTPUT_TYPE, address: fund.address,
                            amount: fund.deposit }, id, milestoneId, index);
                    });
                }
            }
        });
        // A cone without its milestone's message (16242 of the fixtures) has no milestone payload
        // to serve; the last message of a cone names the network.
        if (!ledger.milestones.has(index)) {
            ledger.milestones.set(index, { messageId: null });
        }
        const last = ledger.messages.get(blake(Buffer.from(bundle.blocks[bundle.blocks.length - 1].block.replace(/^0x/, ""), "hex")));
        ledger.milestones.get(index).networkId = last.message.networkId;
        ledger.milestones.get(index).bundleTimestamp = bundle.milestone_timestamp;
        ledger.milestones.get(index).created = created;
        ledger.milestones.get(index).consumed = consumed;
    }
    return ledger;
}

let checks = 0;
async function check(name, fn) {
    await fn();
    checks++;
    console.log(`ok ${checks} - ${name}`);
}

// Up to `count` of the keys, spread over the whole list.
function spread(keys, count) {
    const all = [...keys];
    const step = Math.max(1, Math.floor(all.length / count));
    return all.filter((_, i) => i % step === 0).slice(0, count);
}

const sorted = (list) => [...list].sort();
const json = (value) => JSON.parse(JSON.stringify(value)); // drops what iota.js leaves undefined

async function main(url, files) {
    const ledger = replay(files);
    const client = new v1.SingleNodeClient(url);
    const latest = Math.max(...ledger.milestones.keys());
    const NETWORKS = { "1454675179895816119": "chrysalis-mainnet", "14379272398717627559": "testnet7" };

    await check("info names the network, its HRP and the newest milestone", async () => {
        const info = await client.info();
        assert.strictEqual(info.bech32HRP, "iota");
        assert.strictEqual(info.latestMilestoneIndex, latest);
        assert.strictEqual(info.confirmedMilestoneIndex, latest);
        assert.strictEqual(info.latestMilestoneTimestamp, ledger.milestones.get(latest).bundleTimestamp);
        assert.strictEqual(info.networkId, NETWORKS[ledger.milestones.get(latest).networkId]);
        assert.strictEqual(info.isHealthy, true);
    });

    await check(`message, messageRaw and messageMetadata of all ${ledger.messages.size} messages`, async () => {
        for (const [id, m] of ledger.messages) {
            const message = await client.message(id);
            assert.strictEqual(hex(written(v1.serializeMessage, message)), hex(m.bytes), `JSON of ${id}`);
            assert.deepStrictEqual(message, json(m.message), `JSON of ${id}`);
            assert.strictEqual(hex(await client.messageRaw(id)), hex(m.bytes), `raw ${id}`);
            const meta = await client.messageMetadata(id);
            assert.strictEqual(meta.messageId, id);
            assert.deepStrictEqual(meta.parentMessageIds, m.message.parentMessageIds);
            assert.strictEqual(meta.isSolid, true);
            assert.strictEqual(meta.referencedByMilestoneIndex, m.milestone, `milestone of ${id}`);
            assert.strictEqual(meta.ledgerInclusionState, m.state, `state of ${id}`);
            const isMilestone = m.message.payload && m.message.payload.type === v1.MILESTONE_PAYLOAD_TYPE;
            assert.strictEqual(meta.milestoneIndex, isMilestone ? m.message.payload.index : undefined);
            assert.strictEqual(meta.conflictReason, m.state === "conflicting" && m.conflictReason ? m.conflictReason : undefined);
        }
    });

    await check("transactionIncludedMessage of every included transaction", async () => {
        assert.ok(ledger.transactions.size > 0);
        for (const [transactionId, id] of ledger.transactions) {
            const message = await client.transactionIncludedMessage(transactionId);
            assert.strictEqual(hex(written(v1.serializeMessage, message)), hex(ledger.messages.get(id).bytes));
        }
    });

    await check(`output of all ${ledger.outputs.size} outputs, spent or not`, async () => {
        for (const [outputId, o] of ledger.outputs) {
            const res = await client.output(outputId);
            assert.strictEqual(res.messageId, o.messageId, outputId);
            assert.strictEqual(res.transactionId, outputId.slice(0, 64));
            assert.strictEqual(res.outputIndex, Buffer.from(outputId.slice(64), "hex").readUInt16LE());
            assert.deepStrictEqual(res.output, json(o.output), outputId);
            assert.strictEqual(res.isSpent, o.spent !== null, `spent ${outputId}`);
            if (o.spent) {
                assert.strictEqual(res.milestoneIndexSpent, o.spent.milestone);
                assert.strictEqual(res.transactionIdSpent, o.spent.transactionId);
            }
            assert.strictEqual(res.ledgerIndex, latest);
        }
    });

    await check(`milestone and milestoneUtxoChanges of all ${ledger.milestones.size} milestones`, async () => {
        for (const [index, m] of ledger.milestones) {
            if (m.messageId === null) {
                await assert.rejects(client.milestone(index), (e) => e.httpStatus === 404);
            } else {
                const res = await client.milestone(index);
                assert.strictEqual(res.index, index);
                assert.strictEqual(res.messageId, m.messageId);
                assert.strictEqual(res.timestamp, m.timestamp);
            }
            const changes = await client.milestoneUtxoChanges(index);
            assert.strictEqual(changes.index, index);
            assert.deepStrictEqual(sorted(changes.createdOutputs), sorted(m.created), `created at ${index}`);
            assert.deepStrictEqual(sorted(changes.consumedOutputs), sorted(m.consumed), `consumed at ${index}`);
        }
    });

    const addresses = spread(ledger.addresses.keys(), 60);
    await check(`address, addressOutputs and their ed25519 forms of ${addresses.length} addresses`, async () => {
        for (const hash of addresses) {
            const bech32 = v1.Bech32Helper.toBech32(v1.ED25519_ADDRESS_TYPE, Converter.hexToBytes(hash), "iota");
            const ids = [...ledger.addresses.get(hash)];
            const unspent = ids.filter((id) => !ledger.outputs.get(id).spent);
            const spent = ids.filter((id) => ledger.outputs.get(id).spent);
            const amount = (list, type) => list.filter((id) => ledger.outputs.get(id).output.type === type)
                .reduce((sum, id) => sum + ledger.outputs.get(id).output.amount, 0);
            const dustOutputs = unspent.filter((id) => ledger.outputs.get(id).output.type === 0 &&
                ledger.outputs.get(id).output.amount < 1000000).length;
            const allowance = amount(unspent, 1);
            for (const res of [await client.address(bech32), await client.addressEd25519(hash)]) {
                assert.strictEqual(res.addressType, 0);
                assert.strictEqual(res.address, hash);
                assert.strictEqual(res.balance, amount(unspent, 0) + allowance, `balance of ${bech32}`);
                assert.strictEqual(res.dustAllowed, Math.min(Math.floor(allowance / 100000), 100) > dustOutputs);
                assert.strictEqual(res.ledgerIndex, latest);
            }
            const outputs = await client.addressOutputs(bech32);
            assert.deepStrictEqual(sorted(outputs.outputIds), sorted(unspent), `unspent of ${bech32}`);
            assert.strictEqual(outputs.count, unspent.length);
            assert.strictEqual(outputs.ledgerIndex, latest);
            const all = await client.addressEd25519Outputs(hash, undefined, true);
            assert.deepStrictEqual(sorted(all.outputIds), sorted(ids), `all of ${hash}`);
            // The unspent ones come first.
            assert.deepStrictEqual(sorted(all.outputIds.slice(0, unspent.length)), sorted(unspent));
            for (const type of [0, 1]) {
                const typed = await client.addressOutputs(bech32, type, true);
                assert.deepStrictEqual(sorted(typed.outputIds),
                    sorted(ids.filter((id) => ledger.outputs.get(id).output.type === type)), `type ${type} of ${hash}`);
            }
        }
    });

    const indexes = spread(ledger.indexes.keys(), 40);
    await check(`messagesFind by ${indexes.length} indexes, as bytes and as hex`, async () => {
        for (const indexHex of indexes) {
            // Conflicting transactions' essence indexations may or may not be listed.
            const entries = ledger.indexes.get(indexHex);
            const must = new Set(entries.filter((e) => e.state !== "conflicting").map((e) => e.id));
            const may = new Set(entries.map((e) => e.id));
            const res = await client.messagesFind(Converter.hexToBytes(indexHex));
            assert.strictEqual(res.index, indexHex);
            assert.strictEqual(res.maxResults, 1000);
            assert.strictEqual(res.count, res.messageIds.length);
            assert.strictEqual(new Set(res.messageIds).size, res.messageIds.length, "no duplicates");
            for (const id of res.messageIds) {
                assert.ok(may.has(id), `${id} has index ${indexHex}`);
            }
            if (may.size <= 1000) {
                for (const id of must) {
                    assert.ok(res.messageIds.includes(id), `index ${indexHex} lists ${id}`);
                }
            } else {
                assert.strictEqual(res.count, 1000);
            }
            // Newest first.
            const milestones = res.messageIds.map((id) => ledger.messages.get(id).milestone);
            assert.deepStrictEqual(milestones, milestones.slice().sort((a, b) => b - a));
        }
        // An index given as text is its UTF-8 bytes.
        const text = [...ledger.indexes.keys()].map((h) => Buffer.from(h, "hex").toString("utf8"))
            .find((t) => /^[A-Za-z][ -~]*$/.test(t) && !/^[0-9a-fA-F]*$/.test(t));
        if (text !== undefined) {
            const res = await client.messagesFind(text);
            assert.ok(res.count > 0, `messagesFind("${text}")`);
        }
    });

    const parents = spread(ledger.children.keys(), 60);
    await check(`messageChildren of ${parents.length} messages`, async () => {
        for (const parent of parents) {
            const res = await client.messageChildren(parent);
            assert.strictEqual(res.messageId, parent);
            const expected = ledger.children.get(parent);
            assert.strictEqual(res.count, Math.min(expected.size, 1000));
            for (const id of res.childrenMessageIds) {
                assert.ok(expected.has(id), `${id} is a child of ${parent}`);
            }
        }
    });

    await check(`receipts, receipts(migratedAt) and treasury (${ledger.receipts.length} receipts)`, async () => {
        const res = await client.receipts();
        const expected = ledger.receipts.slice().sort((a, b) =>
            a.receipt.migratedAt - b.receipt.migratedAt || a.milestoneIndex - b.milestoneIndex);
        assert.deepStrictEqual(res.receipts.map((r) => r.milestoneIndex), expected.map((r) => r.milestoneIndex));
        res.receipts.forEach((r, i) => assert.deepStrictEqual(r.receipt, json(expected[i].receipt)));
        for (const migratedAt of new Set(expected.map((r) => r.receipt.migratedAt))) {
            const at = await client.receipts(migratedAt);
            assert.deepStrictEqual(at.receipts.map((r) => r.milestoneIndex),
                expected.filter((r) => r.receipt.migratedAt === migratedAt).map((r) => r.milestoneIndex));
        }
        if (ledger.receipts.length > 0) {
            const newest = ledger.receipts[ledger.receipts.length - 1];
            const treasury = await client.treasury();
            assert.strictEqual(treasury.milestoneId, newest.milestoneId);
            assert.strictEqual(treasury.amount, newest.receipt.transaction.output.amount);
        } else {
            await assert.rejects(client.treasury(), (e) => e.httpStatus === 404);
        }
    });

    await check("errors come back as ClientError with Hornet's status and code", async () => {
        await assert.rejects(client.message("00".repeat(32)), (e) => e.httpStatus === 404 && e.code === "404");
        await assert.rejects(client.message("1234"), (e) => e.httpStatus === 400 && /messageId/.test(e.message));
        await assert.rejects(client.output("00".repeat(34)), (e) => e.httpStatus === 404);
        await assert.rejects(client.output("zz"), (e) => e.httpStatus === 400 && /outputId/.test(e.message));
        await assert.rejects(client.address("smr1qqqq"), (e) => e.httpStatus === 400 && /address/.test(e.message));
        await assert.rejects(client.milestone(latest + 1), (e) => e.httpStatus === 404);
        await assert.rejects(client.transactionIncludedMessage("ff".repeat(32)), (e) => e.httpStatus === 404);
        await assert.rejects(client.messagesFind("x".repeat(65)), (e) => e.httpStatus === 400 && /index/.test(e.message));
    });

    console.log(`http_chrysalis_client_test: ${checks} checks passed against ${url}`);
}

const args = process.argv.slice(2);
if (args[0] === "--fixture-bundle" && args.length === 3) {
    writeFixtureBundle(args[1], args[2]);
} else if (args.length >= 2 && !args[0].startsWith("--")) {
    main(args[0], args.slice(1)).catch((e) => {
        console.error(e);
        process.exit(1);
    });
} else {
    console.error("usage: node http_chrysalis_client_test.js URL BUNDLE_FILE...\n" +
        "       node http_chrysalis_client_test.js --fixture-bundle CHRYSALIS_FIXTURES_DIR OUT");
    process.exit(2);
}
