// @iota/iota.js 2.0.0-rc.4, a client we did not write, against permanode-serve loaded with the
// real Shimmer fixtures: SingleNodeClient and IndexerPluginClient must get the fixture data back.
// Usage: node http_client_test.js URL   (PERMANODE_FIXTURES: the fixtures directory)
"use strict";
const assert = require("assert");
const fs = require("fs");
const path = require("path");
const iota = require("@iota/iota.js");
const { WriteStream, Converter } = require("@iota/util.js");

const url = process.argv[2];
const fixtures = process.env.PERMANODE_FIXTURES || path.join(__dirname, "../../../shared/fixtures/shimmer");
const data = JSON.parse(fs.readFileSync(path.join(fixtures, "in_memory_data.json"), "utf8"));

const bin = (v) => Buffer.from(v.$binary.base64, "base64");
const hex = (v) => "0x" + bin(v).toString("hex");
const outputId = (id) => {
    const index = Buffer.alloc(2);
    index.writeUInt16LE(id.index);
    return hex(id.transaction_id) + index.toString("hex");
};
const serialize = (block) => {
    const stream = new WriteStream();
    iota.serializeBlock(stream, block);
    return Buffer.from(stream.finalBytes()).toString("hex");
};
const STATES = { no_transaction: "noTransaction", included: "included", conflicting: "conflicting" };

let checks = 0;
async function check(name, fn) {
    await fn();
    checks++;
    console.log(`ok ${checks} - ${name}`);
}

async function main() {
    const client = new iota.SingleNodeClient(url);
    const indexer = new iota.IndexerPluginClient(client);

    await check("info reports Shimmer's protocol parameters", async () => {
        const info = await client.info();
        assert.strictEqual(info.protocol.bech32Hrp, "smr");
        assert.strictEqual(info.protocol.networkName, "shimmer");
        assert.strictEqual(info.status.latestMilestone.index, 2418187);
    });

    for (const ms of ["17339", "17340", "17341"]) {
        const cone = Object.values(data[ms].cone);
        await check(`milestone ${ms}: block, blockRaw and blockMetadata of all ${cone.length} blocks`, async () => {
            for (const b of cone) {
                const id = hex(b.block_id);
                const raw = bin(b.raw).toString("hex");
                const bytes = await client.blockRaw(id);
                assert.strictEqual(Buffer.from(bytes).toString("hex"), raw, `raw ${id}`);
                const block = await client.block(id);
                assert.strictEqual(serialize(block), raw, `JSON of ${id} serializes to its bytes`);
                const meta = await client.blockMetadata(id);
                assert.strictEqual(meta.blockId, id);
                assert.strictEqual(meta.referencedByMilestoneIndex, b.metadata.referenced_by_milestone_index);
                assert.strictEqual(meta.ledgerInclusionState, STATES[b.metadata.inclusion_state]);
                assert.strictEqual(meta.whiteFlagIndex, b.metadata.white_flag_index);
                assert.deepStrictEqual(meta.parents, b.metadata.parents.map(hex));
            }
        });
        await check(`milestone ${ms}: output() of every created output`, async () => {
            for (const o of data[ms].created) {
                const id = outputId(o.output_id);
                const res = await client.output(id);
                assert.strictEqual(res.metadata.blockId, hex(o.block_id), id);
                assert.strictEqual(res.metadata.milestoneIndexBooked, o.booked.milestone_index);
                assert.strictEqual(res.metadata.milestoneTimestampBooked, o.booked.milestone_timestamp);
                assert.strictEqual(res.metadata.outputIndex, o.output_id.index);
                assert.strictEqual(res.output.amount, String(o.output.amount));
            }
            for (const c of data[ms].consumed) {
                const res = await client.output(outputId(c.output.output_id));
                assert.strictEqual(res.metadata.isSpent, true);
                assert.strictEqual(res.metadata.milestoneIndexSpent, c.spent_metadata.spent.milestone_index);
                assert.strictEqual(res.metadata.transactionIdSpent, hex(c.spent_metadata.transaction_id));
            }
        });
        await check(`milestone ${ms}: milestoneUtxoChanges`, async () => {
            const changes = await client.milestoneUtxoChangesByIndex(Number(ms));
            assert.strictEqual(changes.index, Number(ms));
            const created = data[ms].created.map((o) => outputId(o.output_id));
            for (const id of created) {
                assert.ok(changes.createdOutputs.includes(id), `created ${id}`);
            }
            assert.deepStrictEqual(changes.consumedOutputs.slice().sort(),
                data[ms].consumed.map((c) => outputId(c.output.output_id)).sort());
        });
        await check(`milestone ${ms}: transactionIncludedBlock of every included transaction`, async () => {
            let seen = 0;
            for (const b of cone.filter((b) => b.metadata.inclusion_state === "included")) {
                const block = iota.deserializeBlock(new (require("@iota/util.js").ReadStream)(bin(b.raw)));
                const txId = Converter.bytesToHex(iota.TransactionHelper.getTransactionPayloadHash(block.payload), true);
                const included = await client.transactionIncludedBlock(txId);
                assert.strictEqual(serialize(included), bin(b.raw).toString("hex"));
                seen++;
            }
            assert.ok(seen > 0);
        });
    }

    await check("milestoneByIndex 17340 has the fixture's milestone ID and timestamp", async () => {
        const m = await client.milestoneByIndex(17340);
        assert.strictEqual(m.index, 17340);
        assert.strictEqual(m.timestamp, data["17340"].milestone_data.at.milestone_timestamp);
        assert.strictEqual(iota.milestoneIdFromMilestonePayload(m), hex(data["17340"].milestone_data.milestone_id));
    });

    await check("errors come back as ClientError with the HTTP status", async () => {
        await assert.rejects(client.block("0x" + "00".repeat(32)), (e) => e.httpStatus === 404);
        await assert.rejects(client.block("0x1234"), (e) => e.httpStatus === 400 && /blockId/.test(e.message));
    });

    const address = "smr1qr4602uf226wm0gz6zaceut585emfyvxd2s3ta7uajfmcp60usk9uqtllx7";
    const pubKeyHash = Converter.bytesToHex(iota.Bech32Helper.fromBech32(address, "smr").addressBytes, true);
    await check("indexer basicOutputs by address: every item is that address's unspent output", async () => {
        const res = await indexer.basicOutputs({ addressBech32: address });
        assert.strictEqual(res.ledgerIndex, 2418187);
        assert.strictEqual(res.items.length, 4);
        for (const id of res.items) {
            const o = await client.output(id);
            assert.strictEqual(o.metadata.isSpent, false);
            const unlock = o.output.unlockConditions.find((u) => u.type === 0);
            assert.strictEqual(unlock.address.pubKeyHash, pubKeyHash);
        }
        const balance = await iota.addressBalance(client, address);
        assert.strictEqual(balance.balance.toString(), "508000");
    });

    await check("indexer basicOutputs by tag, and paging with cursors", async () => {
        const tag = "0x536f6f6e617665727365";
        const all = await indexer.basicOutputs({ tagHex: tag, pageSize: 1000 });
        assert.ok(all.items.length > 2);
        assert.strictEqual(all.cursor, undefined);
        const paged = [];
        let cursor;
        do {
            const page = await indexer.basicOutputs({ tagHex: tag, pageSize: 2, cursor });
            assert.ok(page.items.length <= 2);
            paged.push(...page.items);
            cursor = page.cursor;
        } while (cursor);
        assert.deepStrictEqual(paged, all.items);
        for (const id of all.items.slice(0, 3)) {
            const o = await client.output(id);
            assert.ok(o.output.features.some((f) => f.type === 3 && f.tag === tag));
        }
    });

    await check("indexer nfts by issuer, aliases, foundries, nft and alias by ID", async () => {
        const issuer = "smr1zq6yg8qf59prjwx72ldzwux0g6se3r5xpt7x3xtc67xlx0p9u63fktney6m";
        const nfts = await indexer.nfts({ issuerBech32: issuer });
        assert.strictEqual(nfts.items.length, 22);
        const aliases = await indexer.aliases();
        assert.strictEqual(aliases.items.length, 2);
        const foundries = await indexer.foundries();
        assert.deepStrictEqual(foundries.items, []);
        // A minted NFT's ID is zero in its first output and derived from that output's ID.
        const chainId = (id, chain) =>
            /^0x0+$/.test(chain) ? iota.TransactionHelper.resolveIdFromOutputId(id) : chain;
        const one = await client.output(nfts.items[0]);
        const byId = await indexer.nft(chainId(nfts.items[0], one.output.nftId));
        assert.deepStrictEqual(byId.items, [nfts.items[0]]);
        const alias = await client.output(aliases.items[0]);
        const aliasById = await indexer.alias(chainId(aliases.items[0], alias.output.aliasId));
        assert.deepStrictEqual(aliasById.items, [aliases.items[0]]);
    });

    console.log(`1..${checks}`);
}

main().catch((e) => {
    console.error("not ok -", e);
    process.exit(1);
});
