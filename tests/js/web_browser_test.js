// The explorer's pages in Debian's chromium (headless, through puppeteer-core): the overview's
// charts draw their data, search leads each kind of term to its page, an address's outputs
// page, and a term that matches nothing says so; legacy (ternary) transaction hashes and
// addresses lead to their pages; against a server with --auth ucan, the pages load without a
// token, ask for one with the server's refusal, and show the overview once a good one is given.
// Screenshots (desktop and phone) go to the artefacts directory. Expected values come from the
// server's REST API itself (and IRI's node API for the legacy era).
// An address's page lists its history of every era as the history route does, with a balance
// chart across the eras, for a Stardust and a Chrysalis address; a legacy address's page says
// where its funds went by migration.
// The analytics page charts the measurements (milestone_measurements, active_addresses) of a
// window of milestones as SQL has them (MEASURED: web_browser_test.sh's JSON of them).
// Usage: node web_browser_test.js BASE_URL ARTEFACTS_DIR BUSY_ADDRESS LEGACY_TX LEGACY_ADDRESS
//        LEGACY_BUSY_ADDRESS AUTH_BASE_URL TOKEN CHRYSALIS_ADDRESS MIGRATED_LEGACY_ADDRESS
//        MEASURED (PERMANODE_CHROMIUM)
// LEGACY_TX moves value on LEGACY_ADDRESS, which has a balance; LEGACY_BUSY_ADDRESS has more
// than a page of transactions; CHRYSALIS_ADDRESS has outputs in Chrysalis only (migrated funds
// among them, if the database has any); MIGRATED_LEGACY_ADDRESS is a legacy address whose funds a receipt migrated, or
// empty when the database has none.
'use strict';

const assert = require('assert/strict');
const path = require('path');
const puppeteer = require('puppeteer-core');
const { addChecksum } = require('@iota/checksum');

const [base, artefacts, busyAddress, legacyTx, legacyAddress, legacyBusy, authBase, goodToken,
  chrysalisAddress, migratedLegacy, measuredJson] = process.argv.slice(2);
const measured = JSON.parse(measuredJson);
const desktop = { width: 1280, height: 900 };
const phone = { width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

async function api(route) {
  const response = await fetch(base + route);
  assert.equal(response.status, 200, `${route}: ${response.status}`);
  return response.json();
}

// IRI's node API (POST /) of the legacy era.
async function iri(command) {
  const response = await fetch(base + '/', {
    method: 'POST', body: JSON.stringify(command),
    headers: { 'Content-Type': 'application/json', 'X-IOTA-API-Version': '1' } });
  assert.equal(response.status, 200, `${command.command}: ${response.status}`);
  return response.json();
}

let failures = 0;
async function check(name, fn) {
  try {
    await fn();
    console.log(`ok ${name}`);
  } catch (e) {
    failures++;
    console.log(`not ok ${name}: ${e.stack}`);
  }
}

// Waits for the view the URL names to have finished loading (a search: the page it led to).
async function ready(page) {
  await page.waitForFunction(() => document.body.dataset.ready === location.hash &&
    (!location.hash.startsWith('#/search/') || document.querySelector('.error')), { timeout: 15000 });
}

async function open(page, hash, at = base) {
  await page.goto(`${at}/${hash}`, { waitUntil: 'load' });
  await ready(page);
}

// The view rendered again in place (a token set or forgotten): waits for it to finish.
async function rerendered(page, action) {
  await page.evaluate(() => { document.body.dataset.ready = ''; });
  await action();
  await ready(page);
}

async function search(page, term) {
  await page.$eval('#q', (input) => { input.value = ''; });
  await page.type('#q', term);
  const before = await page.evaluate(() => location.hash);
  await page.click('#search button');
  await page.waitForFunction((b) => location.hash !== b, {}, before);
  await ready(page);
  return page.evaluate(() => location.hash);
}

async function shot(page, name) {
  await page.screenshot({ path: path.join(artefacts, `${name}.png`), fullPage: true });
}

// Per chart: its canvas, how many data points Chart.js laid out inside the chart area, and how
// many pixels carry one of its datasets' colours (an empty chart draws axes only).
function chartsDrawn(page) {
  return page.$$eval('canvas[data-chart]', (canvases) => canvases.map((canvas) => {
    const chart = Chart.getChart(canvas);
    const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
    const colours = chart.data.datasets.map((d) => rgb(d.borderColor ?? d.backgroundColor));
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let coloured = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3] > 200 && colours.some(([r, g, b]) =>
        Math.abs(data[i] - r) < 24 && Math.abs(data[i + 1] - g) < 24 && Math.abs(data[i + 2] - b) < 24)) {
        coloured++;
      }
    }
    const points = chart.data.datasets.reduce((n, _, i) =>
      n + chart.getDatasetMeta(i).data.filter((e) => Number.isFinite(e.x) && Number.isFinite(e.y)).length, 0);
    const nonZero = chart.data.datasets.some((d) => d.data.some((v) => (v?.y ?? v) > 0));
    return { id: canvas.id, points, coloured, nonZero, xTitle: chart.options.scales.x.title.text };
  }));
}

// The history rows an address page shows: each cell's text by field.
function historyRows(page) {
  return page.$$eval('main tr[data-output]', (trs) => trs.map((tr) => Object.fromEntries(
    [['id', tr.dataset.output], ...[...tr.querySelectorAll('td[data-field]')].map((td) =>
      [td.dataset.field, td.innerText]), ['outputHref', tr.querySelector('td[data-field=output] a')
      .getAttribute('href')]])));
}

const ERA_NAMES = { chrysalis: 'Chrysalis', stardust: 'Stardust' };

function assertHistoryRows(shown, items) {
  assert.equal(shown.length, items.length, JSON.stringify(shown));
  shown.forEach((row, i) => {
    const item = items[i];
    assert.equal(row.id, item.outputId);
    assert.equal(row.output, `${item.outputId.slice(0, 10)}…${item.outputId.slice(-6)}`);
    assert.equal(row.outputHref, `#/output/${item.outputId}`);
    assert.equal(row.era, ERA_NAMES[item.era]);
    assert.equal(row.milestone, String(item.milestoneIndex));
    assert.equal(row.time, new Date(item.milestoneTimestamp * 1000).toISOString().replace('T', ' ').slice(0, 19));
    assert.equal(row.kind, item.kind);
    assert.equal(row.amount, BigInt(item.amount).toLocaleString('en-US'));
    const spent = item.carriedToStardustAt != null ? `carried into Stardust at ${item.carriedToStardustAt}`
      : item.spent ? String(item.spent.milestoneIndex) : 'unspent';
    assert.equal(row.spent, spent, item.outputId);
  });
}

// The balance chart's points, counted here from the route's items: one per era and milestone
// where an output was booked or spent (a Chrysalis output carried into Stardust leaves at the
// Stardust milestone that booked it again).
function balancePoints(items) {
  const keys = new Set();
  for (const item of items) {
    keys.add(`${item.era}:${item.milestoneIndex}`);
    if (item.carriedToStardustAt != null) keys.add(`stardust:${item.carriedToStardustAt}`);
    else if (item.spent) keys.add(`${item.era}:${item.spent.milestoneIndex}`);
  }
  return keys.size;
}

// An address page: its first history page as the route's, its era badges, its chart with a
// point per balance change the test counts from the whole history, its downloads. Returns the
// whole history.
async function addressPage(page, address, era) {
  const first = await api(`/api/explorer/v2/history/${address}?pageSize=20`);
  assert.ok(first.items.length > 0, `${address} has a history`);
  assert.ok(first.items.some((i) => i.era === era), `${address}: a ${era} output on the first page`);
  assertHistoryRows(await historyRows(page), first.items);
  const badges = await page.$$eval('main td[data-field=era] .era', (bs) => bs.map((b) => b.className));
  assert.deepEqual(badges, first.items.map((i) => `era era-${i.era}`));
  const items = [];
  let cursor = null;
  for (let n = 0; n < 10 && (n === 0 || cursor); n++) {
    const page_ = await api(`/api/explorer/v2/history/${address}?pageSize=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    items.push(...page_.items);
    cursor = page_.cursor;
  }
  assert.ok(!cursor, `${address}: more than 10000 outputs, the chart would be truncated`);
  const [chart] = await chartsDrawn(page);
  assert.equal(chart.id, 'chart-balance');
  assert.equal(chart.points, balancePoints(items), JSON.stringify(chart));
  assert.ok(chart.coloured > 20, JSON.stringify(chart));
  const datasets = await page.$eval('#chart-balance', (c) => Chart.getChart(c).data.datasets.map((d) => d.label));
  assert.deepEqual(datasets, ['chrysalis', 'stardust'].filter((e) => items.some((i) => i.era === e ||
    (e === 'stardust' && i.carriedToStardustAt != null))).map((e) => ERA_NAMES[e]));
  // The downloads: the whole history, a line per output (the CSV after its header).
  const links = await page.$$eval('a[data-download]', (as) => Object.fromEntries(as.map((a) =>
    [a.dataset.download, a.getAttribute('href')])));
  assert.deepEqual(links, { csv: `/api/explorer/v2/history/${address}?format=csv`,
    jsonl: `/api/explorer/v2/history/${address}?format=jsonl` });
  const jsonl = (await (await fetch(base + links.jsonl)).text()).trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(jsonl.map((i) => i.outputId), items.map((i) => i.outputId));
  const csv = (await (await fetch(base + links.csv)).text()).trim().split('\n');
  assert.equal(csv.length, items.length + 1);
  return items;
}

async function main() {
  const browser = await puppeteer.launch({
    executablePath: process.env.PERMANODE_CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: process.getuid() === 0 ? ['--no-sandbox'] : [],
  });
  const page = await browser.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.setViewport(desktop);

  // What the pages must show, from the API.
  const fixtureBlocks = await api('/milestones/17340?pageSize=5');
  const blockId = fixtureBlocks.messageIds[0];
  const changes = await api('/api/core/v2/milestones/by-index/20050/utxo-changes');
  const outputId = changes.createdOutputs[0];
  const transactionId = outputId.slice(0, 66);
  const included = (await api(`/outputs/${outputId}`)).metadata;
  // The block the core API names as including the transaction is that one.
  const includedBlock = await api(`/api/core/v2/transactions/${transactionId}/included-block`);
  const createdBlock = await api(`/api/core/v2/blocks/${included.blockId}`);
  assert.deepEqual(includedBlock, createdBlock);
  const analytics = await api('/api/analytics/v2/milestones/20010');
  const overview = await api('/api/analytics/v2/overview');
  const tiers = await api('/api/analytics/v2/tiers');

  await check('overview: six charts with data, axes titled', async () => {
    await open(page, '#/');
    const drawn = await chartsDrawn(page);
    assert.equal(drawn.length, 6, JSON.stringify(drawn));
    for (const c of drawn) {
      assert.ok(c.points > 0, `${c.id}: no points laid out`);
      assert.ok(c.nonZero, `${c.id}: only zeros`);
      assert.ok(c.coloured > 50, `${c.id}: ${c.coloured} pixels in its datasets' colours`);
      assert.ok(c.xTitle, `${c.id}: x axis without a title`);
    }
    // Three generated days and the fixtures' days; a hot and a cold tier.
    assert.ok(overview.days.length >= 3, JSON.stringify(overview.days));
    assert.deepEqual([...new Set(tiers.ranges.map((r) => r.tier))].sort(),
      ['cold', 'hot']);
    // The figures: milestones held, and ranges (a range hot in some tables and cold in others
    // counts once).
    const figures = await page.$$eval('.stats div', (ds) => Object.fromEntries(ds.map((d) =>
      [d.querySelector('dt').innerText, d.querySelector('dd').innerText])));
    assert.equal(figures.milestones, overview.milestones.reduce((n, m) => n + m.milestones, 0).toLocaleString('en-US'));
    const held = tiers.ranges.filter((r) => r.toRange != null);
    assert.equal(figures.ranges, String(new Set(held.map((r) => r.fromRange)).size));
    // A date is one day, whichever eras it holds.
    assert.equal(figures.days, String(new Set(overview.days.map((d) => d.date)).size));
    await shot(page, 'overview-desktop');
  });

  await check('overview: a tooltip shows on hover', async () => {
    const box = await (await page.$('#chart-days')).boundingBox();
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.5);
    const tooltip = await page.$eval('#chart-days', (c) => {
      const t = Chart.getChart(c).tooltip;
      return { opacity: t.opacity, title: t.title, body: t.body.map((b) => b.lines).flat() };
    });
    assert.ok(tooltip.opacity > 0, JSON.stringify(tooltip));
    assert.match(tooltip.title[0], /^\d{4}-\d\d-\d\d$/);
    assert.ok(tooltip.body.some((line) => /^blocks: /.test(line)), JSON.stringify(tooltip));
    await shot(page, 'overview-tooltip');
  });

  // Hovers item `index` of dataset 0 of chart `id` and returns the tooltip shown.
  async function hover(id, index) {
    const box = await (await page.$(`#${id}`)).boundingBox();
    const at = await page.$eval(`#${id}`, (c, i) => {
      // (the charts' tooltips pick by x alone: mode index, not intersecting)
      const chart = Chart.getChart(c);
      const e = chart.getDatasetMeta(0).data[i];
      return { x: e.x, y: (chart.chartArea.top + chart.chartArea.bottom) / 2 };
    }, index);
    await page.mouse.move(box.x + at.x, box.y + at.y);
    // Chart.js handles the move on its next frame: wait for the tooltip of that item.
    await page.waitForFunction((i, x) => {
      const t = Chart.getChart(document.getElementById(i)).tooltip;
      return t.opacity > 0 && t.dataPoints?.[0]?.dataIndex === x;
    }, { timeout: 5000 }, id, index);
    return page.$eval(`#${id}`, (c) => {
      const t = Chart.getChart(c).tooltip;
      return { opacity: t.opacity, title: t.title, footer: t.footer, body: t.body.map((b) => b.lines).flat() };
    });
  }

  await check('overview: the legacy era, per milestone, per day and in the tiers', async () => {
    await open(page, '#/');
    const chart = (id) => page.$eval(`#${id}`, (c) => {
      const ch = Chart.getChart(c);
      return { labels: ch.data.labels, data: ch.data.datasets.map((d) => ({ label: d.label, data: d.data })),
        xTitle: ch.options.scales.x.title.text };
    });
    const figures = await page.$$eval('.stats div', (ds) => Object.fromEntries(ds.map((d) =>
      [d.querySelector('dt').innerText, d.querySelector('dd').innerText])));
    assert.match(figures.eras, /^legacy, .*Stardust$/);
    // A legacy day: its bar, and the tooltip naming the era.
    const day = overview.days.findIndex((d) => d.era === 'legacy' && d.blocks > 0);
    assert.ok(day >= 0, JSON.stringify(overview.days));
    const days = await chart('chart-days');
    assert.equal(days.labels[day], overview.days[day].date);
    assert.equal(days.data[0].data[day], overview.days[day].blocks);
    let tooltip = await hover('chart-days', day);
    assert.ok(tooltip.opacity > 0, JSON.stringify(tooltip));
    assert.deepEqual(tooltip.title, [overview.days[day].date]);
    assert.match(tooltip.footer.join(' '), /^legacy era/);
    await shot(page, 'overview-legacy-day');
    // A legacy milestone bucket: first on the axis, its tooltip naming the era.
    assert.equal(overview.milestones[0].era, 'legacy');
    assert.match((await chart('chart-milestones')).xTitle, /^milestone index \(legacy, then /);
    tooltip = await hover('chart-milestones', 0);
    assert.match(tooltip.title[0], new RegExp(`^legacy milestones? ${overview.milestones[0].first}`));
    // The legacy months in the tiers: labelled as the API labels them, with their rows.
    const legacyRange = tiers.ranges.find((r) => r.era === 'legacy' && r.rows > 0);
    assert.ok(legacyRange, JSON.stringify(tiers.ranges));
    assert.match(legacyRange.label, /^\d{4}-\d\d(–\d{4}-\d\d)?$/);
    const tierChart = await chart('chart-tiers');
    const at = tierChart.labels.indexOf(legacyRange.label);
    assert.ok(at >= 0, JSON.stringify(tierChart.labels));
    assert.equal(tierChart.data.find((d) => d.label === legacyRange.tier).data[at], legacyRange.rows);
    assert.deepEqual(tierChart.labels, [...new Set(tiers.ranges.map((r) => r.label))]);
    // Next to the ledger's ranges a legacy month is a sliver; the log toggle makes it a bar.
    const barHeight = () => page.$eval('#chart-tiers', (c, label, tier) => {
      const ch = Chart.getChart(c);
      const bar = ch.getDatasetMeta(ch.data.datasets.findIndex((d) => d.label === tier))
        .data[ch.data.labels.indexOf(label)];
      return Math.abs(bar.base - bar.y);
    }, legacyRange.label, legacyRange.tier);
    const linear = await barHeight();
    await page.click('button[data-log-for=chart-tiers]');
    assert.equal(await page.$eval('#chart-tiers', (c) => Chart.getChart(c).options.scales.y.type), 'logarithmic');
    const log = await barHeight();
    assert.ok(log > 20 && log > 3 * linear, `the legacy month's bar: ${linear}px linear, ${log}px log`);
    await shot(page, 'overview-tiers-log');
    await page.click('button[data-log-for=chart-tiers]');
    assert.equal(await barHeight(), linear);
  });

  await check('overview fits a phone screen', async () => {
    const mobile = await browser.newPage();
    await mobile.setViewport(phone);
    await open(mobile, '#/');
    const overflow = await mobile.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${overflow}px wider than the screen`);
    const drawn = await chartsDrawn(mobile);
    assert.equal(drawn.filter((c) => c.points > 0 && c.coloured > 50).length, 6);
    const widths = await mobile.$$eval('canvas[data-chart]', (cs) => cs.map((c) => c.getBoundingClientRect().width));
    assert.ok(widths.every((w) => w > 300 && w <= 390), JSON.stringify(widths));
    await shot(mobile, 'overview-phone');
    await open(mobile, `#/address/${busyAddress}`);
    await shot(mobile, 'address-phone');
    await mobile.close();
  });

  await check('search: a block ID leads to its block, with parents and payload', async () => {
    await open(page, '#/');
    assert.equal(await search(page, blockId), `#/block/${blockId}`);
    const text = await page.$eval('main', (m) => m.innerText);
    assert.match(text, new RegExp(blockId));
    assert.match(text, /Parents/);
    assert.match(text, /referenced by milestone\s+17340/);
    await shot(page, 'block');
  });

  await check('search: a transaction ID leads to the block that included it', async () => {
    assert.equal(await search(page, transactionId), `#/block/${included.blockId}`);
  });

  await check('search: an output ID leads to the output and its spend', async () => {
    assert.equal(await search(page, outputId), `#/output/${outputId}`);
    const text = await page.$eval('main', (m) => m.innerText);
    assert.match(text, /booked at milestone\s+20050/);
    assert.match(text, new RegExp(`spent\\s+${included.isSpent ? 'yes' : 'no'}`));
    if (included.isSpent) {
      assert.match(text, new RegExp(`spent at milestone\\s+${included.milestoneIndexSpent}`));
      assert.match(text, new RegExp(included.transactionIdSpent));
    }
    await shot(page, 'output');
  });

  await check('search: a milestone index leads to its cone summary', async () => {
    assert.equal(await search(page, '20010'), '#/milestone/20010');
    const text = await page.$eval('main', (m) => m.innerText);
    assert.match(text, new RegExp(`blocks / messages\\s+${analytics.blockCount}`));
    assert.match(text, new RegExp(`transactions\\s+${analytics.transactionCount}`));
    await shot(page, 'milestone');
  });

  await check('search: an address leads to its history of every era, which pages', async () => {
    assert.equal(await search(page, busyAddress), `#/address/${busyAddress}`);
    await addressPage(page, busyAddress, 'stardust');
    await shot(page, 'address');
    await page.click('button[data-page=next]');
    await page.waitForSelector('section[data-page-loaded="2"]');
    const second = await api(`/api/explorer/v2/history/${busyAddress}?pageSize=20&cursor=${
      encodeURIComponent((await api(`/api/explorer/v2/history/${busyAddress}?pageSize=20`)).cursor)}`);
    assertHistoryRows(await historyRows(page), second.items);
    await shot(page, 'address-page2');
    await page.click('button[data-page=prev]');
    await page.waitForSelector('section[data-page-loaded="1"]');
    assertHistoryRows(await historyRows(page), (await api(`/api/explorer/v2/history/${busyAddress}?pageSize=20`)).items);
  });

  await check('a Chrysalis address (no Stardust balance) shows its history and chart', async () => {
    assert.ok(chrysalisAddress, 'the test database holds a Chrysalis address');
    const balance = await fetch(`${base}/api/explorer/v2/balance/${chrysalisAddress}`);
    await open(page, `#/address/${chrysalisAddress}`);
    const items = await addressPage(page, chrysalisAddress, 'chrysalis');
    assert.ok(items.every((i) => i.era === 'chrysalis'), 'outputs in Chrysalis only');
    // The Stardust balance, as the route has it (none, or zero for an address of Chrysalis only).
    const stardust = balance.status === 200 ? BigInt((await balance.json()).totalBalance).toLocaleString('en-US') : '—';
    assert.equal(await page.$eval('.stats', (d) => d.innerText.match(/balance \(Stardust\)\s+(.*)/)[1]), stardust);
    // Its migrated funds, if any on the first page, name the legacy bundle's tail.
    const migrated = items.filter((i) => i.migratedFrom);
    const cells = await page.$$eval('main tr[data-output]', (trs) => Object.fromEntries(trs.map((tr) =>
      [tr.dataset.output, tr.querySelector('td[data-field=migrated]').innerText])));
    for (const item of migrated.filter((i) => i.outputId in cells)) {
      const tail = item.migratedFrom.tailTransactionHash;
      assert.match(cells[item.outputId], new RegExp(`bundle tail ${tail.slice(0, 10)}…${tail.slice(-6)}` +
        (item.migratedFrom.bundle ? '' : ' \\(not held\\)')));
    }
    await shot(page, 'address-chrysalis');
  });
  await check('search: a tag, as hex or as text, leads to its blocks, newest first', async () => {
    // The tag of a tagged-data block of the generated ledger.
    let tag = null;
    for (const id of (await api('/milestones/20005?pageSize=100')).messageIds) {
      const { message } = await api(`/messages/${id}`);
      if (message.payload?.type === 5 && message.payload.tag) {
        tag = message.payload.tag;
        break;
      }
    }
    assert.ok(tag, 'a tagged-data block in milestone 20005');
    const expected = (await api(`/messages?index=${tag}&pageSize=20`)).messageIds;
    assert.ok(expected.length > 0);
    const rows = () => page.$$eval('main table tbody tr td', (tds) => tds.map((td) => td.innerText));
    assert.equal(await search(page, tag), `#/tag/${tag}`);
    assert.deepEqual(await rows(), expected);
    const text = Buffer.from(tag.slice(2), 'hex').toString('utf8');
    assert.equal(await search(page, text), `#/tag/${encodeURIComponent(text)}`);
    assert.deepEqual(await rows(), expected);
    await shot(page, 'tag');
  });

  await check('search: an ID the archive does not hold says so', async () => {
    const unknown = '0x' + '00'.repeat(32);
    await search(page, unknown);
    const message = await page.$eval('.error', (e) => e.innerText);
    assert.match(message, /Nothing in the archive matches/);
    assert.match(message, new RegExp(unknown));
    await shot(page, 'not-found');
    await open(page, '#/output/0x' + '00'.repeat(34));
    assert.match(await page.$eval('.error', (e) => e.innerText), /No output 0x0{68} in the archive/);
    await open(page, '#/block/0x12');
    assert.match(await page.$eval('.error', (e) => e.innerText), /No block or message 0x12/);
  });

  const rows = () => page.$$eval('main table:not(.fields) tbody tr td.id', (tds) => tds.map((td) => td.innerText));
  const figures = () => page.$$eval('.stats div', (ds) => Object.fromEntries(ds.map((d) =>
    [d.querySelector('dt').innerText, d.querySelector('dd').innerText])));
  const field = (name) => page.$eval(`td[data-field=${name}]`, (td) => td.innerText);

  await check('legacy: a transaction hash leads to its transaction, bundle and address', async () => {
    const tx = await api(`/api/explorer/v2/legacy/transactions/${legacyTx}`);
    assert.equal(tx.hash, legacyTx);
    assert.notEqual(tx.value, 0, 'a transaction that moves value');
    assert.equal(await search(page, legacyTx), `#/legacy-transaction/${legacyTx}`);
    const shown = await figures();
    assert.equal(shown.value, tx.value.toLocaleString('en-US'));
    assert.equal(shown['index in bundle'], `${tx.currentIndex} of 0–${tx.lastIndex}`);
    assert.equal(shown.month, tx.month);
    assert.equal(shown['issued (UTC)'], tx.issuedAt.replace('T', ' ').slice(0, 19));
    assert.equal(shown['confirmed by milestone'], tx.milestoneIndex == null ? 'not known' : String(tx.milestoneIndex));
    for (const name of ['address', 'bundle', 'tag', 'obsoleteTag']) {
      assert.equal(await field(name), tx[name], name);
    }
    assert.equal(await field('timestamp'), String(tx.timestamp));
    assert.equal(await field('attachmentTimestamp'), String(tx.attachmentTimestamp));
    // Trunk and branch: links when held, else marked.
    for (const name of ['trunk', 'branch']) {
      const held = (await fetch(`${base}/api/explorer/v2/legacy/transactions/${tx[name]}`)).status === 200;
      const href = await page.$eval(`td[data-field=${name}]`, (td) => td.querySelector('a')?.getAttribute('href') ?? null);
      assert.equal(href, held ? `#/legacy-transaction/${tx[name]}` : null, name);
      assert.match(await field(name), new RegExp(tx[name] + (held ? '$' : ' \\(not held\\)')));
    }
    // Its bundle's transactions as IRI finds them, this one among them.
    const bundle = (await iri({ command: 'findTransactions', bundles: [tx.bundle] })).hashes;
    const listed = await rows();
    assert.ok(listed.includes(legacyTx), JSON.stringify(listed));
    assert.equal(listed.length, Math.min(10, bundle.length));
    assert.ok(listed.every((h) => bundle.includes(h)), JSON.stringify({ listed, bundle }));
    if (bundle.length <= 10) assert.deepEqual([...listed].sort(), [...bundle].sort());
    await shot(page, 'legacy-transaction');
    // Its address is a link to the address's page.
    await Promise.all([page.waitForFunction((a) => location.hash === `#/legacy-address/${a}`, {}, tx.address),
      page.click('td[data-field=address] a')]);
    await ready(page);
    assert.match(await page.$eval('h1', (h) => h.innerText), new RegExp(tx.address));
  });

  await check('legacy: an address leads to its balance and transactions', async () => {
    await open(page, '#/'); // (search() waits for the page to change: it is on this one)
    for (const address of [legacyAddress, addChecksum(legacyAddress)]) {
      assert.equal(await search(page, address), `#/legacy-address/${address}`);
      const { balances, milestoneIndex } = await iri({ command: 'getBalances', addresses: [address], threshold: 100 });
      const { hashes } = await iri({ command: 'findTransactions', addresses: [address] });
      assert.ok(Number(balances[0]) > 0, `${address} has a balance`);
      const shown = await figures();
      assert.equal(shown.balance, Number(balances[0]).toLocaleString('en-US'));
      assert.equal(shown['at milestone'], String(milestoneIndex));
      assert.equal(shown.transactions, hashes.length.toLocaleString('en-US'));
      assert.ok(hashes.includes(legacyTx));
      assert.deepEqual((await rows()).sort(), [...hashes].sort());
    }
    await shot(page, 'legacy-address');
  });

  await check('legacy: an address says where its funds went by migration', async () => {
    // (with no migration whose tail is a legacy transaction held, the card says none)
    for (const address of [legacyAddress, migratedLegacy].filter((a) => a)) {
      const { migrations } = await api(`/api/explorer/v2/legacy/addresses/${address}/migrations`);
      await open(page, `#/legacy-address/${address}`);
      assert.equal(await page.$eval('#migrated-to h2', (h) => h.innerText), 'Migrated to');
      const shown = await page.$$eval('#migrated-to tbody tr', (trs) => trs.map((tr) => ({
        output: tr.dataset.output,
        ...Object.fromEntries([...tr.querySelectorAll('td[data-field]')].map((td) =>
          [td.dataset.field, [td.innerText, td.querySelector('a')?.getAttribute('href') ?? null]])) })));
      assert.deepEqual(shown, migrations.map((m) => ({ output: m.outputId,
        address: [m.addressHex, `#/address/${m.addressHex}`],
        amount: [BigInt(m.amount).toLocaleString('en-US'), null],
        milestone: [String(m.milestoneIndex), `#/milestone/${m.milestoneIndex}`],
        bundle: [`${m.bundle.slice(0, 10)}…${m.bundle.slice(-6)}`, `#/legacy-transaction/${m.tailTransactionHash}`] })));
      assert.equal(await page.$('#migrated-to [data-empty]') !== null, migrations.length === 0);
      if (address === migratedLegacy) assert.ok(migrations.length > 0, `${address}: no migrations`);
    }
    await shot(page, 'legacy-address-migrated');
  });

  await check('legacy: the null address (81 nines) pages its transactions, each a link', async () => {
    assert.ok(legacyBusy.length === 81);
    assert.equal(await search(page, legacyBusy), `#/legacy-address/${legacyBusy}`);
    const { hashes } = await iri({ command: 'findTransactions', addresses: [legacyBusy] });
    assert.ok(hashes.length > 10, `${hashes.length} transactions: not more than a page`);
    assert.equal((await figures()).transactions, hashes.length.toLocaleString('en-US'));
    const seen = await rows();
    assert.equal(seen.length, 10);
    await page.click('button[data-page=next]');
    await page.waitForSelector('section[data-page-loaded="2"]');
    const second = await rows();
    assert.equal(second.length, Math.min(10, hashes.length - 10));
    seen.push(...second);
    assert.equal(new Set(seen).size, seen.length);
    assert.ok(seen.every((h) => hashes.includes(h)), JSON.stringify({ seen, hashes }));
    if (hashes.length <= 20) assert.deepEqual([...seen].sort(), [...hashes].sort());
    await shot(page, 'legacy-address-page2');
    // A transaction of the list opens its page.
    const target = await page.$eval('main table tbody tr td.id a', (a) => a.innerText);
    await Promise.all([page.waitForFunction((h) => location.hash === `#/legacy-transaction/${h}`, {}, target),
      page.click('main table tbody tr td.id a')]);
    await ready(page);
    assert.match(await page.$eval('h1', (h) => h.innerText), new RegExp(`Legacy transaction ${target}`));
    assert.equal(await field('address'), legacyBusy);
  });

  await check('auth: the pages load without a token and ask for one; a good one shows the overview', async () => {
    const authPage = await browser.newPage();
    authPage.on('pageerror', (e) => pageErrors.push(e.message));
    await authPage.setViewport(desktop);
    await open(authPage, '#/', authBase);
    const refusal = () => authPage.$eval('main .error', (e) => ({ status: e.dataset.status, text: e.innerText }));
    let shown = await refusal();
    assert.equal(shown.status, '401');
    assert.match(shown.text, /missing Authorization: Bearer/);
    assert.ok(await authPage.$('#token-form textarea'), 'a box to paste the token into');
    assert.equal(await authPage.$eval('#token', (b) => b.dataset.set), 'no');
    assert.equal((await chartsDrawn(authPage)).length, 0);
    await shot(authPage, 'auth-prompt');
    // A bad token: the server's 401 says why.
    await authPage.type('#token-input', 'bm90IGEgQ0FS');
    await rerendered(authPage, () => authPage.click('#token-form button[type=submit]'));
    shown = await refusal();
    assert.equal(shown.status, '401');
    assert.match(shown.text, /malformed UCAN/);
    assert.equal(await authPage.$eval('#token', (b) => b.dataset.set), 'yes');
    // The good one, through the header's token control: the overview with its data.
    await authPage.click('#token');
    assert.ok(await authPage.$('#token-forget'), 'a way to forget the token set');
    await authPage.$eval('#token-input', (t, v) => { t.value = v; }, `Bearer ${goodToken}`);
    await rerendered(authPage, () => authPage.click('#token-form button[type=submit]'));
    assert.equal(await authPage.$('#token-form'), null);
    assert.equal(await authPage.evaluate(() => sessionStorage.getItem('permanode.token')), goodToken);
    const drawn = await chartsDrawn(authPage);
    assert.equal(drawn.length, 6, JSON.stringify(drawn));
    for (const c of drawn) {
      assert.ok(c.points > 0 && c.nonZero && c.coloured > 50, JSON.stringify(c));
    }
    const overview = await api('/api/analytics/v2/overview');
    const figuresShown = await authPage.$$eval('.stats div', (ds) => Object.fromEntries(ds.map((d) =>
      [d.querySelector('dt').innerText, d.querySelector('dd').innerText])));
    assert.equal(figuresShown.milestones, overview.milestones.reduce((n, m) => n + m.milestones, 0).toLocaleString('en-US'));
    await shot(authPage, 'auth-overview');
    // Kept for the tab: a reload still shows the overview; the legacy pages work with it too.
    await open(authPage, `#/legacy-transaction/${legacyTx}`, authBase);
    assert.equal(await authPage.$eval('td[data-field=address]', (td) => td.innerText), legacyAddress);
    // Forgotten: asked again.
    await open(authPage, '#/', authBase);
    await authPage.click('#token');
    await rerendered(authPage, () => authPage.click('#token-forget'));
    shown = await refusal();
    assert.equal(shown.status, '401');
    assert.equal(await authPage.$eval('#token', (b) => b.dataset.set), 'no');
    await authPage.close();
  });

  // A chart's labels and its datasets' data (Chart.js's own).
  const chartData = (id) => page.$eval(`#${id}`, (c) => {
    const chart = Chart.getChart(c);
    return { labels: chart.data.labels, data: chart.data.datasets.map((d) => d.data), points: Number(c.dataset.points) };
  });

  await check('analytics: the nav leads to charts of the measured milestones, as SQL has them', async () => {
    // (from the page the checks before left open: the nav is on every page)
    await Promise.all([page.waitForFunction(() => location.hash === '#/analytics'), page.click('#nav-analytics')]);
    await ready(page);
    const ms = measured.milestones;
    const shown = await figures();
    assert.equal(shown['milestones measured'], String(ms.length));
    assert.equal(shown.window, `${ms[0]}–${ms.at(-1)}`);
    assert.equal(shown['active addresses, latest day'],
      `${measured.latestDay.addresses.toLocaleString('en-US')} (${measured.latestDay.start})`);
    assert.equal(shown['addresses with balance'], measured.withBalance.toLocaleString('en-US'));
    const drawn = await chartsDrawn(page);
    assert.deepEqual(drawn.map((c) => c.id), ['chart-active', 'chart-block-activity', 'chart-token-activity',
      'chart-ledger-outputs', 'chart-ledger-size', 'chart-balance-buckets', 'chart-unclaimed']);
    for (const c of drawn) assert.ok(c.points > 0 && c.nonZero && c.coloured > 20, JSON.stringify(c));
    const labels = ms.map(String);
    const blocks = await chartData('chart-block-activity');
    assert.deepEqual(blocks.labels, labels);
    assert.equal(drawn[1].points, 5 * ms.length);
    assert.deepEqual(labels.map((_, i) => blocks.data.reduce((n, d) => n + d[i], 0)), measured.blocks);
    const moved = await chartData('chart-token-activity');
    assert.deepEqual(moved.data[1], measured.transferred.map(Number));
    const outputs = await chartData('chart-ledger-outputs');
    assert.deepEqual(outputs.data[0], measured.basic);
    assert.deepEqual((await chartData('chart-ledger-size')).data[0], measured.keyBytes);
    const buckets = await chartData('chart-balance-buckets');
    assert.deepEqual(buckets.data[0], measured.buckets);
    assert.equal(await page.$eval('#chart-balance-buckets', (c) => c.closest('.card').querySelector('h2').firstChild.textContent),
      `Addresses by balance at milestone ${ms.at(-1)}`);
    assert.deepEqual((await chartData('chart-unclaimed')).data[0], measured.unclaimed);
    const active = await chartData('chart-active');
    assert.deepEqual(active.labels, measured.daily.map((d) => d.start));
    assert.deepEqual(active.data[0], measured.daily.map((d) => d.addresses));
    await shot(page, 'analytics');
    await page.click('button[data-period=weekly]');
    await page.waitForFunction(() => document.getElementById('chart-active').dataset.period === 'week');
    assert.deepEqual((await chartData('chart-active')).data[0], measured.weekly);
  });

  await check('analytics: a window of the newest N, of a range, one with nothing measured, an empty table', async () => {
    const ms = measured.milestones;
    await open(page, '#/analytics/last/5');
    assert.deepEqual((await chartData('chart-ledger-size')).labels, ms.slice(-5).map(String));
    // The range form: the measured milestones of 1000-1009 (Chrysalis).
    await page.$eval('#window-from', (i) => { i.value = '1009'; });
    await page.$eval('#window-to', (i) => { i.value = '1000'; });
    await rerendered(page, () => page.click('#window-range button[type=submit]'));
    assert.equal(await page.evaluate(() => location.hash), '#/analytics/1000-1009');
    const range = ms.filter((m) => m >= 1000 && m <= 1009).map(String);
    assert.equal(range.length, 10);
    assert.deepEqual((await chartData('chart-block-activity')).labels, range);
    assert.equal((await figures())['milestones measured'], '10');
    await open(page, '#/analytics/5000-6000');
    const empty = await page.$eval('#analytics-empty', (e) => e.innerText);
    assert.match(empty, new RegExp(`newest measured is ${ms.at(-1)}`));
    assert.match(empty, /permanode analytics --fill FROM TO/);
    assert.equal((await chartsDrawn(page)).length, 0);
    // An archive with nothing measured: the routes' answer for an empty table, given in the page
    // (this database is measured), then the page's own fetch back.
    await page.evaluate(() => {
      window.realFetch = window.fetch;
      window.fetch = (url, init) => (String(url).includes('/api/analytics/v2/measurements/')
        ? Promise.resolve(new Response('{"items":[],"next":null}', { headers: { 'Content-Type': 'application/json' } }))
        : window.realFetch(url, init));
    });
    await rerendered(page, () => page.evaluate(() => { location.hash = '#/analytics'; }));
    const bare = await page.$eval('#analytics-empty', (e) => e.innerText);
    await page.evaluate(() => { window.fetch = window.realFetch; });
    assert.match(bare, /^Nothing is measured yet: .*Run permanode analytics --fill FROM TO \(milestone indexes\)/);
  });

  await check('no script errors', async () => {
    assert.deepEqual(pageErrors, []);
  });

  await browser.close();
  if (failures) {
    console.log(`${failures} failed`);
    process.exit(1);
  }
  console.log(`screenshots in ${artefacts}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
