// The explorer's pages: one document whose views follow the URL fragment (#/block/0x…), each
// view reading the server's own REST API. No framework: a view is a function that fills <main>.
'use strict';

const view = document.getElementById('view');
const charts = [];

// --- helpers ---

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') node.className = v;
    else node.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c != null) node.append(c instanceof Node ? c : String(c));
  }
  return node;
}

function link(hash, text) {
  return el('a', { href: '#' + hash }, text ?? hash.split('/').pop());
}

// The bearer token a person gave for a server that asks for one (serve --auth ucan): kept for
// this tab only, sent with every API call.
const TOKEN_KEY = 'permanode.token';

function token() {
  return sessionStorage.getItem(TOKEN_KEY);
}

// Sets (or, given nothing, forgets) the token, and renders the current view again with it.
function setToken(value) {
  if (value) sessionStorage.setItem(TOKEN_KEY, value);
  else sessionStorage.removeItem(TOKEN_KEY);
  showTokenState();
  render();
}

function showTokenState() {
  const button = document.getElementById('token');
  button.textContent = token() ? 'token ✓' : 'token';
  button.dataset.set = token() ? 'yes' : 'no';
}

// GET a JSON route; rejects with the API's error message (and the status) when not 2xx.
async function api(path, init = {}) {
  const headers = new Headers(init.headers);
  if (token()) headers.set('Authorization', `Bearer ${token()}`);
  const response = await fetch(path, { ...init, headers });
  const body = await response.json().catch(() => null);
  if (!response.ok) {
    const message = body?.error?.message ?? body?.error ?? response.statusText;
    const error = new Error(message);
    error.status = response.status;
    throw error;
  }
  return body;
}

// IRI's node API of the legacy era.
function iri(command) {
  return api('/', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-IOTA-API-Version': '1' },
    body: JSON.stringify(command),
  });
}

async function found(promise) {
  try {
    return await promise;
  } catch (e) {
    if (e.status === 404 || e.status === 400) return null;
    throw e;
  }
}

function showError(message) {
  view.replaceChildren(el('div', { class: 'error', role: 'alert' }, message));
}

// Asks for a bearer token: after the server refused a call (401 or 403, with its message), or
// when the header's token control is clicked (refusal null). Setting or forgetting the token
// renders the current view again.
function showTokenPrompt(refusal) {
  const input = el('textarea', { id: 'token-input', rows: '4', spellcheck: 'false',
    autocomplete: 'off', 'aria-label': 'Bearer token', placeholder: 'Paste the token here' });
  const form = el('form', { id: 'token-form', class: 'token-form' }, input,
    el('div', { class: 'pager' },
      el('button', { type: 'submit' }, 'Use token'),
      token() ? el('button', { type: 'button', id: 'token-forget' }, 'Forget token') : null));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = input.value.replace(/^\s*(Bearer\s+)?/i, '').trim();
    if (value) setToken(value);
  });
  form.querySelector('#token-forget')?.addEventListener('click', () => setToken(null));
  view.replaceChildren(card('This archive asks for a token',
    refusal ? el('div', { class: 'error', role: 'alert', 'data-status': String(refusal.status) },
      `${refusal.status}: ${refusal.message}`) : null,
    el('p', { class: 'muted' }, 'Its API answers only requests that carry a bearer token (the ',
      'base64 of a UCAN invocation of archive/read). The token is kept in this tab only.',
      token() ? ' A token is set.' : ''),
    form));
  input.focus();
}

function card(title, ...children) {
  return el('section', { class: 'card' }, title ? el('h2', {}, title) : null, ...children);
}

function stats(pairs) {
  return el('dl', { class: 'stats' },
    pairs.map(([k, v]) => el('div', {}, el('dt', {}, k), el('dd', {}, v))));
}

function fmt(n) {
  return Number(n).toLocaleString('en-US');
}

// Token amounts come as strings (they may pass 2^53); charts take them as numbers.
function tokens(s) {
  return Number(s);
}

function chartBox(id) {
  return el('div', { class: 'chart' }, el('canvas', { id, 'data-chart': id }));
}

function draw(id, config) {
  const canvas = document.getElementById(id);
  config.options = Object.assign({
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    interaction: { mode: 'index', intersect: false },
    plugins: { tooltip: { enabled: true } },
  }, config.options || {});
  const chart = new Chart(canvas, config);
  charts.push(chart);
  canvas.dataset.points = String(config.data.datasets.reduce((n, d) => n + d.data.length, 0));
  logToggle(chart, canvas.closest('.card')?.querySelector('h2'));
  return chart;
}

// One dataset per series ({label, value: item => number, colour, ...Chart.js dataset options})
// over labelled items (one per x), drawn by draw().
function seriesChart(id, type, items, label, series, options) {
  return draw(id, {
    type,
    data: {
      labels: items.map(label),
      datasets: series.map(({ value, colour, ...rest }) => ({ data: items.map(value),
        borderColor: colour, backgroundColor: colour, pointRadius: items.length > 300 ? 0 : 2, ...rest })),
    },
    options,
  });
}

// A button beside a chart's title that puts its value axis on a log scale and back: eras and
// ranges differ by orders of magnitude, and on a linear axis the small ones vanish.
function logToggle(chart, title) {
  if (!title || !chart.options.scales?.y) return;
  const button = el('button', { type: 'button', class: 'log-toggle', 'aria-pressed': 'false',
    'data-log-for': chart.canvas.id, title: 'value axis on a log scale' }, 'log');
  button.onclick = () => {
    const log = button.getAttribute('aria-pressed') !== 'true';
    button.setAttribute('aria-pressed', String(log));
    chart.options.scales.y.type = log ? 'logarithmic' : 'linear';
    chart.update();
  };
  title.append(button);
}

function axis(title, extra = {}) {
  return Object.assign({ title: { display: true, text: title }, beginAtZero: true }, extra);
}

// A value axis, its ticks in compact notation (45T rather than 45,000,000,000,000).
const compact = new Intl.NumberFormat('en-US', { notation: 'compact' });
function valueAxis(title, extra = {}) {
  return axis(title, Object.assign({ ticks: { callback: (v) => compact.format(v) } }, extra));
}

// A list of IDs with a page size and keyset cursors: Newer goes back through the cursors seen.
function pagedList(title, fetchPage, row) {
  const body = el('tbody');
  const info = el('span', { class: 'muted' });
  const prev = el('button', { type: 'button', 'data-page': 'prev' }, '← Newer');
  const next = el('button', { type: 'button', 'data-page': 'next' }, 'Older →');
  const cursors = [null];
  let page = 0;
  async function load() {
    prev.disabled = next.disabled = true;
    const { items, cursor } = await fetchPage(cursors[page]);
    body.replaceChildren(...(items.length ? items.map(row)
      : [el('tr', {}, el('td', { class: 'muted' }, 'none'))]));
    cursors[page + 1] = cursor ?? null;
    info.textContent = `page ${page + 1}`;
    prev.disabled = page === 0;
    next.disabled = !cursor;
    body.closest('section')?.setAttribute('data-page-loaded', String(page + 1));
  }
  prev.onclick = () => { page--; load().catch((e) => showError(e.message)); };
  next.onclick = () => { page++; load().catch((e) => showError(e.message)); };
  const section = card(title, el('table', {}, body), el('div', { class: 'pager' }, prev, next, info));
  return { section, load };
}

// pagedList's fetchPage over a list held whole: the cursor is the next page's first position.
function pagesOf(items, pageSize) {
  return async (cursor) => {
    const start = cursor ? Number(cursor) : 0;
    const more = start + pageSize < items.length;
    return { items: items.slice(start, start + pageSize), cursor: more ? String(start + pageSize) : null };
  };
}

// --- what a search term is ---

const HEX64 = /^(0x)?[0-9a-fA-F]{64}$/;
const HEX68 = /^(0x)?[0-9a-fA-F]{68}$/;
const BECH32 = /^[a-z]{1,83}1[02-9ac-hj-np-z]{6,}$/;
const TRYTES = /^[A-Z9]{81}([A-Z9]{9})?$/;

function hex0x(s) {
  return s.startsWith('0x') ? s.toLowerCase() : '0x' + s.toLowerCase();
}

// Where a search term leads: a view's hash, or null with nothing found.
async function resolve(term) {
  const q = term.trim();
  // (81 nines are an address: the null address of zero-value transactions)
  if (/^\d{1,10}$/.test(q)) return `/milestone/${q}`;
  if (HEX68.test(q)) {
    return (await found(api(`/outputs/${hex0x(q)}`))) ? `/output/${hex0x(q)}` : null;
  }
  if (HEX64.test(q)) {
    const id = hex0x(q);
    if (await found(api(`/messages/${id}/metadata`))) return `/block/${id}`;
    // A transaction's block: the one that created its first output (either era).
    const first = await found(api(`/outputs/${id}0000`));
    if (first) return `/block/${first.metadata?.blockId ?? '0x' + first.messageId}`;
    const milestone = await found(api(`/api/core/v2/milestones/${id}`));
    if (milestone) return `/milestone/${milestone.index}`;
    return null;
  }
  if (BECH32.test(q)) return `/address/${q}`;
  if (TRYTES.test(q)) {
    // 81 trytes are a transaction hash or an address; 90 an address with its checksum.
    if (q.length === 81 && await found(api(`/api/explorer/v2/legacy/transactions/${q}`))) {
      return `/legacy-transaction/${q}`;
    }
    return `/legacy-address/${q}`;
  }
  if (q) return `/tag/${encodeURIComponent(q)}`;
  return null;
}

// --- views ---

const ERAS = { legacy: 'legacy', chrysalis: 'Chrysalis', stardust: 'Stardust' };

async function overview() {
  view.replaceChildren(el('h1', {}, 'The archive'), el('p', { class: 'muted' }, 'Loading…'));
  const [data, tiers] = await Promise.all([
    api('/api/analytics/v2/overview'), api('/api/analytics/v2/tiers')]);
  const ms = data.milestones;
  const days = data.days;
  const sum = (xs, f) => xs.reduce((n, x) => n + f(x), 0);
  const held = tiers.ranges.filter((r) => r.toRange != null); // not the pending tier
  const sums = data.bucketWidth > 1 ? ` (sums of ${data.bucketWidth})` : '';
  // The eras held, oldest first (the API lists milestone buckets era by era).
  const eras = [...new Set(ms.map((m) => m.era))];
  view.replaceChildren(
    el('h1', {}, 'The archive'),
    card(null, stats([
      ['milestones', fmt(sum(ms, (m) => m.milestones))],
      ['blocks / messages', fmt(sum(ms, (m) => m.blocks))],
      ['transactions', fmt(sum(ms, (m) => m.transactions))],
      ['days', fmt(new Set(days.map((d) => d.date)).size)],
      ['eras', eras.map((e) => ERAS[e] ?? e).join(', ') || '—'],
      ['ranges', fmt(new Set(held.map((r) => `${r.era}:${r.fromRange}-${r.toRange}`)).size)],
      ['on disk', fmt(Math.round(sum(held, (r) => r.bytes ?? 0) / 1048576)) + ' MiB'],
    ])),
    el('div', { class: 'grid' },
      card(`Blocks and transactions per milestone${sums}`, chartBox('chart-milestones')),
      card('Blocks and transactions per day', chartBox('chart-days')),
      card('Active addresses per day', chartBox('chart-addresses')),
      card('Tokens moved per day', chartBox('chart-tokens')),
      card('Tiers: rows per range (hot, cold, remote)', chartBox('chart-tiers')),
      card(`Tokens moved per milestone${sums}`, chartBox('chart-ms-tokens'))));

  // Milestone buckets evenly spaced (eras far apart take no room), era by era, labelled by first
  // index; the tooltip names the era (each era counts its milestones from its own start).
  const msTitle = (items) => {
    const m = ms[items[0].dataIndex];
    const era = ERAS[m.era] ?? m.era;
    return m.first === m.last ? `${era} milestone ${m.first}`
      : `${era} milestones ${m.first}–${m.last} (${fmt(m.milestones)})`;
  };
  const msAxis = `milestone index (${eras.map((e) => ERAS[e] ?? e).join(', then ')})`;
  // A day's era in its tooltip's footer (in the legacy era, blocks are its transactions and
  // transactions those that move value).
  const dayFooter = (items) => {
    const era = days[items[0].dataIndex].era;
    return era === 'legacy' ? 'legacy era: blocks are transactions, transactions move value'
      : `${ERAS[era] ?? era} era`;
  };
  const msLabel = (m) => String(m.first);
  seriesChart('chart-milestones', 'line', ms, msLabel, [
    { label: 'blocks', value: (m) => m.blocks, colour: '#1b5fc1', pointRadius: 1 },
    { label: 'transactions', value: (m) => m.transactions, colour: '#fca311', pointRadius: 1 },
  ], {
    scales: { x: axis(msAxis), y: valueAxis('count') },
    plugins: { tooltip: { callbacks: { title: msTitle } } },
  });
  const dayLabel = (d) => d.date;
  const dayOptions = (y) => ({
    scales: { x: axis('day (UTC)'), y: valueAxis(y) },
    plugins: { tooltip: { callbacks: { footer: dayFooter } } },
  });
  seriesChart('chart-days', 'bar', days, dayLabel, [
    { label: 'blocks', value: (d) => d.blocks, colour: '#1b5fc1' },
    { label: 'transactions', value: (d) => d.transactions, colour: '#fca311' },
  ], dayOptions('count'));
  seriesChart('chart-addresses', 'bar', days, dayLabel, [
    { label: 'active', value: (d) => d.activeAddresses, colour: '#2a9d8f' },
    { label: 'sending', value: (d) => d.sendAddresses, colour: '#e76f51' },
    { label: 'receiving', value: (d) => d.receiveAddresses, colour: '#8ab17d' },
  ], dayOptions('addresses'));
  seriesChart('chart-tokens', 'bar', days, dayLabel,
    [{ label: 'tokens moved', value: (d) => tokens(d.tokens), colour: '#6a4c93' }],
    dayOptions('tokens (base units)'));
  seriesChart('chart-ms-tokens', 'line', ms, msLabel,
    [{ label: 'tokens moved', value: (m) => tokens(m.tokens), colour: '#6a4c93', pointRadius: 1 }], {
      scales: { x: axis(msAxis), y: valueAxis('tokens (base units)') },
      plugins: { tooltip: { callbacks: { title: msTitle } } },
    });
  // One bar per range (an archive or remote run spans several), stacked by tier: the legacy
  // era's months first (labelled 2017-11), then the ledger's ranges (17, 17–18), as the API
  // labels them.
  const rangeLabel = (r) => r.label;
  const labels = [...new Set(tiers.ranges.map(rangeLabel))];
  const eraOfRange = (label) => tiers.ranges.find((x) => rangeLabel(x) === label)?.era;
  const tierColors = { hot: '#e63946', cold: '#457b9d', remote: '#8d99ae' };
  const byTier = (tier) => labels.map((label) => {
    const r = tiers.ranges.find((x) => x.tier === tier && rangeLabel(x) === label);
    return r ? r.rows : null;
  });
  const bytesOf = (tier, label) => tiers.ranges.find((x) => x.tier === tier && rangeLabel(x) === label)?.bytes;
  draw('chart-tiers', {
    type: 'bar',
    data: {
      labels,
      datasets: Object.keys(tierColors)
        .filter((t) => tiers.ranges.some((r) => r.tier === t))
        .map((t) => ({ label: t, data: byTier(t), backgroundColor: tierColors[t] })),
    },
    options: {
      scales: {
        x: axis(tiers.ranges.some((r) => r.era === 'legacy') ? 'legacy month, then range (ms_range_id)'
          : 'range (ms_range_id)', { stacked: true }),
        y: valueAxis('rows', { stacked: true }),
      },
      plugins: { tooltip: { callbacks: { title: (items) => (eraOfRange(items[0].label) === 'legacy'
        ? `legacy month ${items[0].label}` : `range ${items[0].label}`), label: (item) => {
        const bytes = bytesOf(item.dataset.label, item.label);
        return `${item.dataset.label}: ${fmt(item.raw)} rows` + (bytes != null ? `, ${fmt(bytes)} bytes` : '');
      } } } },
    },
  });
}

async function blockView(id) {
  const meta = await found(api(`/messages/${id}/metadata`));
  if (!meta) return showError(`No block or message ${id} in the archive.`);
  const { message, protocolVersion } = await api(`/messages/${id}`);
  const parents = message.parents ?? message.parentMessageIds ?? [];
  const payload = message.payload ?? null;
  const milestone = meta.referencedByMilestoneIndex;
  const children = pagedList('Children', async (cursor) => {
    const page = await api(`/messages/${id}/children?pageSize=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    return { items: page.childrenMessageIds, cursor: page.cursor };
  }, (child) => el('tr', {}, el('td', { class: 'id' }, link(`/block/${child}`))));
  view.replaceChildren(
    el('h1', {}, protocolVersion === 1 ? 'Message ' : 'Block ', el('span', { class: 'mono' }, id)),
    card(null, stats([
      ['protocol', protocolVersion === 1 ? 'Chrysalis' : 'Stardust'],
      ['payload', payload ? payloadName(payload.type) : 'none'],
      ['referenced by milestone', milestone != null ? link(`/milestone/${milestone}`, String(milestone)) : '—'],
      ['ledger inclusion', meta.ledgerInclusionState ?? '—'],
    ])),
    card('Parents', el('table', {}, el('tbody', {},
      parents.map((p) => el('tr', {}, el('td', { class: 'id' }, link(`/block/${p}`))))))),
    children.section,
    card('Payload', el('pre', {}, JSON.stringify(payload, null, 2))));
  await children.load();
}

function payloadName(type) {
  return { 0: 'transaction (Chrysalis)', 1: 'milestone (Chrysalis)', 2: 'indexation', 3: 'receipt',
    4: 'treasury transaction', 5: 'tagged data', 6: 'transaction', 7: 'milestone' }[type] ?? `type ${type}`;
}

async function outputView(id) {
  const output = await found(api(`/outputs/${id}`));
  if (!output) return showError(`No output ${id} in the archive.`);
  // Stardust: {metadata, output}; Chrysalis (REST API v1's shape): the fields at the top.
  const m = output.metadata ?? output;
  const block = m.blockId ?? '0x' + m.messageId;
  const milestoneLink = (i) => (i != null ? link(`/milestone/${i}`, String(i)) : '—');
  view.replaceChildren(
    el('h1', {}, 'Output ', el('span', { class: 'mono' }, id)),
    card(null, stats([
      ['created in block', link(`/block/${block}`)],
      ['booked at milestone', milestoneLink(m.milestoneIndexBooked)],
      ['amount', fmt(output.output.amount)],
      ['spent', m.isSpent ? 'yes' : 'no'],
      ['spent at milestone', m.isSpent ? milestoneLink(m.milestoneIndexSpent) : '—'],
      ['spent by transaction', m.isSpent && m.transactionIdSpent
        ? link(`/search/${m.transactionIdSpent}`, m.transactionIdSpent) : '—'],
    ])),
    card('Output', el('pre', {}, JSON.stringify(output.output, null, 2))));
}

// An address's history of every era (Chrysalis and Stardust, newest first, by the history
// route's cursor), its balance over time across the era boundary, and its downloads. The Stardust
// balance route knows no Chrysalis-only address: the page shows the history without it.
async function addressView(address) {
  const historyRoute = `/api/explorer/v2/history/${address}`;
  const [balance, first] = await Promise.all([
    api(`/api/explorer/v2/balance/${address}`).catch((e) => (refused(e) ? Promise.reject(e) : null)),
    found(api(`${historyRoute}?pageSize=${HISTORY_PAGE}`))]);
  if (!first) return showError(`${address} is not an address of this network.`);
  let pending = first; // (the first page, read already)
  const list = pagedList('History of every era, newest first', async (cursor) => {
    const page = pending ?? await api(`${historyRoute}?pageSize=${HISTORY_PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    pending = null;
    return page;
  }, historyRow);
  // (eight columns: on a phone the table scrolls, not the page)
  const table = list.section.querySelector('table');
  const scroll = el('div', { class: 'table-scroll' });
  table.replaceWith(scroll);
  scroll.append(table);
  table.prepend(el('thead', {}, el('tr', {},
    ['era', 'milestone', 'time (UTC)', 'kind', 'amount', 'output', 'spent in', 'migrated from']
      .map((h) => el('th', {}, h)))));
  const balanceFigures = balance ? [
    ['balance (Stardust)', fmt(balance.totalBalance)],
    ['as of milestone', link(`/milestone/${balance.ledgerIndex}`, String(balance.ledgerIndex))],
    ...Object.entries(balance.balanceByKind).map(([k, v]) => [k, fmt(v)]),
  ] : [['balance (Stardust)', '—']];
  view.replaceChildren(
    el('h1', {}, 'Address ', el('span', { class: 'mono' }, address)),
    card(null, stats([...balanceFigures, ['hash', el('span', { class: 'mono' }, first.addressHex)]]),
      el('div', { class: 'pager' }, 'Download the whole history:',
        download(`${historyRoute}?format=csv`, 'CSV', 'csv'),
        download(`${historyRoute}?format=jsonl`, 'JSON lines', 'jsonl'))),
    card('Balance over time', chartBox('chart-balance')),
    list.section);
  await list.load();
  await balanceChart(historyRoute);
}

const HISTORY_PAGE = 20;
const ERA_RANK = { chrysalis: 0, stardust: 1 };
const ERA_COLOURS = { chrysalis: '#2a9d8f', stardust: '#1b5fc1' };

function refused(e) {
  return e.status === 401 || e.status === 403;
}

function utc(seconds) {
  return new Date(seconds * 1000).toISOString().replace('T', ' ').slice(0, 19);
}

function shortId(id) {
  return `${id.slice(0, 10)}…${id.slice(-6)}`;
}

// A link that downloads a route's answer; with a token set, fetched with it (a plain link sends
// no Authorization header).
function download(href, text, format) {
  const a = el('a', { href, download: '', 'data-download': format }, text);
  a.onclick = async (event) => {
    if (!token()) return;
    event.preventDefault();
    const response = await fetch(href, { headers: { Authorization: `Bearer ${token()}` } });
    if (!response.ok) return showError(`Could not download: ${response.status} ${response.statusText}`);
    const url = URL.createObjectURL(await response.blob());
    const save = el('a', { href: url, download: `history.${format}` });
    save.click();
    URL.revokeObjectURL(url);
  };
  return a;
}

// One output of an address's history: each cell named by data-field.
function historyRow(item) {
  const cell = (field, ...content) => el('td', { 'data-field': field }, ...content);
  const milestone = (i) => link(`/milestone/${i}`, String(i));
  let spent = 'unspent';
  if (item.carriedToStardustAt != null) spent = ['carried into Stardust at ', milestone(item.carriedToStardustAt)];
  else if (item.spent) spent = milestone(item.spent.milestoneIndex);
  return el('tr', { 'data-output': item.outputId },
    cell('era', el('span', { class: `era era-${item.era}` }, ERAS[item.era] ?? item.era)),
    cell('milestone', milestone(item.milestoneIndex)),
    cell('time', utc(item.milestoneTimestamp)),
    cell('kind', item.kind),
    el('td', { class: 'num', 'data-field': 'amount' }, fmt(item.amount)),
    el('td', { class: 'mono', 'data-field': 'output' }, link(`/output/${item.outputId}`, shortId(item.outputId))),
    cell('spent', spent),
    el('td', { class: 'mono', 'data-field': 'migrated' }, item.migratedFrom ? migratedFrom(item.migratedFrom) : ''));
}

// Where migrated funds came from: the legacy bundle's tail transaction (linked when held) and
// the legacy addresses the bundle spent from.
function migratedFrom(m) {
  const tail = shortId(m.tailTransactionHash);
  return [
    m.bundle ? link(`/legacy-transaction/${m.tailTransactionHash}`, `bundle tail ${tail}`)
      : el('span', {}, `bundle tail ${tail}`, el('span', { class: 'muted' }, ' (not held)')),
    ...m.addresses.map((a) => el('div', {}, link(`/legacy-address/${a}`, shortId(a)))),
  ];
}

// The balance after each milestone that changed it, era by era: an output adds its amount where
// it was booked and takes it away where it was spent; a Chrysalis output the Stardust genesis
// booked again leaves at that milestone, its Stardust entry taking over (never counted twice).
function balanceSteps(items) {
  const steps = new Map();
  const add = (era, index, delta) => {
    const key = `${era}:${index}`;
    if (!steps.has(key)) steps.set(key, { era, index, delta: 0n });
    steps.get(key).delta += delta;
  };
  for (const item of items) {
    const amount = BigInt(item.amount);
    add(item.era, item.milestoneIndex, amount);
    if (item.carriedToStardustAt != null) add('stardust', item.carriedToStardustAt, -amount);
    else if (item.spent) add(item.era, item.spent.milestoneIndex, -amount);
  }
  let balance = 0n;
  return [...steps.values()]
    .sort((a, b) => ERA_RANK[a.era] - ERA_RANK[b.era] || a.index - b.index)
    .map((s) => ({ ...s, balance: (balance += s.delta) }));
}

const CHART_PAGES = 10;
const CHART_PAGE = 1000;

// The balance chart from the history read whole, up to CHART_PAGES pages: one dataset per era,
// points evenly spaced in the eras' order (each era counts its milestones from its own start).
async function balanceChart(historyRoute) {
  const items = [];
  let cursor = null;
  for (let n = 0; n < CHART_PAGES && (n === 0 || cursor); n++) {
    const page = await api(`${historyRoute}?pageSize=${CHART_PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    items.push(...page.items);
    cursor = page.cursor;
  }
  if (cursor) {
    document.getElementById('chart-balance').closest('.card').querySelector('h2').textContent =
      `Balance over time: the newest ${fmt(items.length)} outputs only (older ones not counted)`;
  }
  const steps = balanceSteps(items);
  const eras = Object.keys(ERA_RANK).filter((era) => steps.some((s) => s.era === era));
  draw('chart-balance', {
    type: 'line',
    data: {
      datasets: eras.map((era) => ({
        label: ERAS[era],
        data: steps.flatMap((s, x) => (s.era === era ? [{ x, y: Number(s.balance) }] : [])),
        borderColor: ERA_COLOURS[era], backgroundColor: ERA_COLOURS[era], stepped: true,
        pointRadius: steps.length > 300 ? 0 : 2,
      })),
    },
    options: {
      scales: {
        x: axis(`milestone index (${eras.map((e) => ERAS[e]).join(', then ')})`, {
          type: 'linear', beginAtZero: false,
          ticks: { precision: 0, maxTicksLimit: 10, callback: (x) => steps[x]?.index ?? '' },
        }),
        y: valueAxis('tokens (base units)'),
      },
      // (the eras' points share no x: the tooltip picks the nearest, not the same index)
      interaction: { mode: 'nearest', axis: 'x', intersect: false },
      plugins: { tooltip: { callbacks: { title: (points) => {
        const s = steps[points[0].parsed.x];
        return `after ${ERAS[s.era]} milestone ${s.index}`;
      } } } },
    },
  });
}

// --- analytics: inx-chronicle's measurements over a window of measured milestones ---

const MEASUREMENTS = '/api/analytics/v2/measurements';
const WINDOWS = [50, 100, 250, 500, 1000];
const fillHint = () => ['Run ', el('code', {}, 'permanode analytics --fill FROM TO'),
  ' (milestone indexes) to measure them.'];

// The window a hash names: the newest `last` measured milestones (default 100), or from..to.
function analyticsWindow(last, from, to) {
  if (from != null) return { from: Number(from), to: Number(to) };
  return { last: Math.min(Math.max(Number(last ?? 100), 1), CHART_PAGE) };
}

// A measurement's items in the window, oldest first: the newest in one call, a range page by
// page (`next`) up to CHART_PAGES pages (items.truncated when more are measured).
async function measurements(name, choice) {
  if (choice.last) return (await api(`${MEASUREMENTS}/${name}?last=${choice.last}`)).items;
  const items = [];
  let from = choice.from;
  for (let n = 0; n < CHART_PAGES && from != null; n++) {
    const page = await api(`${MEASUREMENTS}/${name}?from=${from}&to=${choice.to}&pageSize=${CHART_PAGE}`);
    items.push(...page.items);
    from = page.next;
  }
  items.truncated = from != null;
  return items;
}

// Picks the window: the newest N, or a range of milestone indexes.
function windowForm(choice) {
  // (a window the URL names, #/analytics/last/5, among the choices)
  const sizes = [...new Set([...WINDOWS, choice.last ?? WINDOWS[0]])].sort((a, b) => a - b);
  const last = el('select', { id: 'window-last', 'aria-label': 'window' },
    el('option', { value: '' }, 'from–to'),
    sizes.map((n) => el('option', n === choice.last ? { value: n, selected: '' } : { value: n },
      `newest ${n} measured`)));
  last.onchange = () => { if (last.value) location.hash = `#/analytics/last/${last.value}`; };
  const bound = (id, value, label) => el('input', { id, type: 'number', min: '0', required: '',
    'aria-label': label, placeholder: label, value: value ?? '' });
  const form = el('form', { id: 'window-range', class: 'window' }, 'Milestones: ', last, ' or ',
    bound('window-from', choice.from, 'from'), '–', bound('window-to', choice.to, 'to'),
    el('button', { type: 'submit' }, 'Show'));
  form.onsubmit = (event) => {
    event.preventDefault();
    const [from, to] = ['#window-from', '#window-to'].map((q) => Number(form.querySelector(q).value));
    location.hash = `#/analytics/${Math.min(from, to)}-${Math.max(from, to)}`;
  };
  return form;
}

// A chart of measured milestones, evenly spaced (eras far apart take no room), labelled by
// index, the tooltip naming the milestone and its time.
function milestoneChart(id, items, series, { type = 'line', stacked = false, y = 'count', scales = {} } = {}) {
  const title = (points) => {
    const m = items[points[0].dataIndex];
    return `milestone ${m.milestoneIndex}, ${utc(m.milestoneTimestamp)} UTC`;
  };
  return seriesChart(id, type, items, (m) => String(m.milestoneIndex), series, {
    scales: { x: axis('milestone index', { stacked }), y: valueAxis(y, { stacked }), ...scales },
    plugins: { tooltip: { callbacks: { title } } },
  });
}

// Figures a measurement lacks in an era (alias outputs in Chrysalis) are null: a gap in the line.
const num = (v) => (v == null ? null : Number(v));

async function analyticsView(last, from, to) {
  const choice = analyticsWindow(last, from, to);
  view.replaceChildren(el('h1', {}, 'Analytics'), windowForm(choice), el('p', { class: 'muted' }, 'Loading…'));
  const names = ['block-activity', 'base-token-activity', 'ledger-outputs', 'ledger-size',
    'address-balance', 'unclaimed-tokens'];
  const [blocks, tokensMoved, outputs, size, balances, unclaimed] =
    await Promise.all(names.map((name) => measurements(name, choice)));
  if (!blocks.length) return noMeasurements(choice);
  const daily = await api('/api/analytics/v2/active-addresses/daily');
  const newest = balances[balances.length - 1];
  const latestDay = daily.items[daily.items.length - 1];
  const span = `${blocks[0].milestoneIndex}–${newest.milestoneIndex}`;
  view.replaceChildren(
    el('h1', {}, 'Analytics'), windowForm(choice),
    card(null, stats([
      ['milestones measured', fmt(blocks.length) + (blocks.truncated ? ' (more not shown)' : '')],
      ['window', span],
      ['active addresses, latest day', latestDay ? `${fmt(latestDay.addresses)} (${latestDay.start})` : '—'],
      ['addresses with balance', fmt(newest.addressesWithBalance)],
      ['unclaimed tokens', unclaimed.at(-1).unclaimedAmount != null ? fmt(unclaimed.at(-1).unclaimedAmount) : '—'],
    ])),
    el('div', { class: 'grid' },
      card('Active addresses (all periods rolled up)', periodButtons(), chartBox('chart-active')),
      card('Blocks per milestone, by payload', chartBox('chart-block-activity')),
      card('Tokens booked and transferred per milestone', chartBox('chart-token-activity')),
      card('Ledger outputs by kind (at each milestone\'s end)', chartBox('chart-ledger-outputs')),
      card('Ledger size (at each milestone\'s end)', chartBox('chart-ledger-size')),
      card(`Addresses by balance at milestone ${newest.milestoneIndex}`, chartBox('chart-balance-buckets')),
      card('Unclaimed tokens (Stardust genesis outputs not yet claimed)', chartBox('chart-unclaimed'))));
  activeChart(daily);
  milestoneChart('chart-block-activity', blocks, [
    { label: 'no payload', value: (m) => m.noPayload, colour: '#8d99ae' },
    { label: 'tagged data', value: (m) => m.taggedData, colour: '#2a9d8f' },
    { label: 'transaction', value: (m) => m.transaction, colour: '#1b5fc1' },
    { label: 'milestone', value: (m) => m.milestone, colour: '#fca311' },
    { label: 'treasury', value: (m) => m.treasuryTransaction, colour: '#e63946' },
  ], { type: 'bar', stacked: true, y: 'blocks' });
  milestoneChart('chart-token-activity', tokensMoved, [
    { label: 'booked', value: (m) => tokens(m.bookedAmount), colour: '#6a4c93' },
    { label: 'transferred', value: (m) => tokens(m.transferredAmount), colour: '#e76f51' },
  ], { y: 'tokens (base units)' });
  milestoneChart('chart-ledger-outputs', outputs, [
    ['basic', '#1b5fc1'], ['alias', '#2a9d8f'], ['foundry', '#e63946'], ['nft', '#fca311'],
    ['dustAllowance', '#8d99ae']].map(([kind, colour]) => ({
    label: kind === 'dustAllowance' ? 'dust allowance' : kind, value: (m) => num(m[kind].count), colour })),
  { y: 'outputs' });
  milestoneChart('chart-ledger-size', size, [
    { label: 'key bytes', value: (m) => m.totalKeyBytes, colour: '#457b9d' },
    { label: 'data bytes', value: (m) => m.totalDataBytes, colour: '#e63946' },
  ], { y: 'bytes' });
  bucketChart(newest);
  milestoneChart('chart-unclaimed', unclaimed, [
    { label: 'outputs', value: (m) => num(m.unclaimedCount), colour: '#2a9d8f' },
    { label: 'tokens', value: (m) => num(m.unclaimedAmount), colour: '#6a4c93', yAxisID: 'y1' },
  ], { y: 'outputs', scales: { y1: valueAxis('tokens (base units)', { position: 'right', grid: { drawOnChartArea: false } }) } });
}

// Nothing measured in the window: says so, and how to measure (nothing measured at all, or the
// newest measured milestone when the window missed them).
async function noMeasurements(choice) {
  const newest = (await api(`${MEASUREMENTS}/ledger-size?last=1`)).items[0];
  const what = newest ? `No milestone of ${choice.from}–${choice.to} is measured (the newest measured is ${newest.milestoneIndex}).`
    : 'Nothing is measured yet: the measurement table is empty.';
  view.replaceChildren(el('h1', {}, 'Analytics'), windowForm(choice),
    card(null, el('p', { id: 'analytics-empty', class: 'error' }, what, ' ', fillHint())));
}

// day, week and month buttons above the active-addresses chart.
function periodButtons() {
  return el('div', { class: 'pager' }, ['daily', 'weekly', 'monthly'].map((p) =>
    el('button', { type: 'button', 'data-period': p, 'aria-pressed': String(p === 'daily') }, p)));
}

// Distinct addresses per period as bars; a period button reads that period and redraws.
function activeChart(first) {
  const points = (answer) => answer.items.map((a) => a.addresses);
  const chart = seriesChart('chart-active', 'bar', first.items, (a) => a.start,
    [{ label: 'active addresses', value: (a) => a.addresses, colour: '#2a9d8f' }],
    { scales: { x: axis('period start (UTC)'), y: valueAxis('addresses') } });
  chart.canvas.dataset.period = first.period;
  for (const button of document.querySelectorAll('button[data-period]')) {
    button.onclick = async () => {
      const answer = await api(`/api/analytics/v2/active-addresses/${button.dataset.period}`);
      chart.data.labels = answer.items.map((a) => a.start);
      chart.data.datasets[0].data = points(answer);
      chart.update();
      chart.canvas.dataset.points = String(answer.items.length);
      chart.canvas.dataset.period = answer.period;
      document.querySelectorAll('button[data-period]').forEach((b) =>
        b.setAttribute('aria-pressed', String(b === button)));
    };
  }
}

// Addresses per balance bucket (a bucket: balances of the same number of decimal digits).
function bucketChart(measurement) {
  const buckets = measurement.distribution ?? [];
  seriesChart('chart-balance-buckets', 'bar', buckets, (b) => `≥ ${compact.format(10 ** b.magnitude)}`,
    [{ label: 'addresses', value: (b) => b.addresses, colour: '#1b5fc1' }], {
      scales: { x: axis('balance (base units)'), y: valueAxis('addresses') },
      plugins: { tooltip: { callbacks: { footer: (points) =>
        `holding ${fmt(buckets[points[0].dataIndex].amount)} tokens` } } },
    });
}

async function legacyAddressView(address) {
  const [balances, found_, migrations] = await Promise.all([
    iri({ command: 'getBalances', addresses: [address], threshold: 100 }),
    iri({ command: 'findTransactions', addresses: [address] }),
    found(api(`/api/explorer/v2/legacy/addresses/${address}/migrations`)),
  ]);
  const hashes = found_.hashes;
  const list = pagedList('Transactions', pagesOf(hashes, 10),
    (h) => el('tr', {}, el('td', { class: 'id' }, link(`/legacy-transaction/${h}`))));
  view.replaceChildren(
    el('h1', {}, 'Legacy address ', el('span', { class: 'mono' }, address)),
    card(null, stats([
      ['balance', fmt(balances.balances[0])],
      ['at milestone', String(balances.milestoneIndex)],
      ['transactions', fmt(hashes.length)],
    ])),
    migratedTo(migrations?.migrations ?? []),
    list.section);
  await list.load();
}

// Where a legacy address's funds went by migration: the Ed25519 address each receipt credited.
function migratedTo(migrations) {
  const section = card('Migrated to');
  section.id = 'migrated-to';
  if (!migrations.length) {
    section.append(el('p', { class: 'muted', 'data-empty': '' }, 'No migration of this address\'s funds is held.'));
    return section;
  }
  section.append(el('table', {},
    el('thead', {}, el('tr', {}, ['address', 'amount', 'milestone', 'bundle'].map((h) => el('th', {}, h)))),
    el('tbody', {}, migrations.map((m) => el('tr', { 'data-output': m.outputId },
      el('td', { class: 'mono', 'data-field': 'address' }, link(`/address/${m.addressHex}`, m.addressHex)),
      el('td', { class: 'num', 'data-field': 'amount' }, fmt(m.amount)),
      el('td', { 'data-field': 'milestone' }, link(`/milestone/${m.milestoneIndex}`, String(m.milestoneIndex))),
      el('td', { class: 'mono', 'data-field': 'bundle' },
        link(`/legacy-transaction/${m.tailTransactionHash}`, shortId(m.bundle))))))));
  return section;
}

// A table of a record's fields, each cell named by data-field.
function fields(rows) {
  return el('table', { class: 'fields' }, el('tbody', {}, rows.map(([key, label, value]) =>
    el('tr', {}, el('th', {}, label), el('td', { class: 'id', 'data-field': key }, value)))));
}

// A legacy transaction: its fields (the explorer's route), its bundle's transactions (IRI's
// findTransactions, each read by the route) and the transactions it approves, linked when held.
async function legacyTransactionView(hash) {
  const route = (h) => `/api/explorer/v2/legacy/transactions/${h}`;
  const tx = await found(api(route(hash)));
  if (!tx) return showError(`No legacy transaction ${hash} in the archive.`);
  const [bundle, trunk, branch] = await Promise.all([
    iri({ command: 'findTransactions', bundles: [tx.bundle] }),
    found(api(route(tx.trunk))), found(api(route(tx.branch)))]);
  const approved = (h, held) => (held ? link(`/legacy-transaction/${h}`, h)
    : el('span', {}, h, el('span', { class: 'muted' }, ' (not held)')));
  // A bundle's transactions in index order (reattachments share an index), read one by one:
  // the first 100 of a bundle with more.
  const members = (await Promise.all(bundle.hashes.slice(0, 100).map((h) => found(api(route(h))))))
    .filter((m) => m).sort((a, b) => a.currentIndex - b.currentIndex || a.hash.localeCompare(b.hash));
  const held = bundle.hashes.length;
  const list = pagedList(`Its bundle: ${fmt(held)} transaction${held === 1 ? '' : 's'} held, indexes 0–${tx.lastIndex}` +
    (held > members.length ? ` (the first ${members.length} shown)` : ''),
    pagesOf(members, 10), (m) => el('tr', m.hash === hash ? { class: 'current' } : {},
      el('td', {}, `${m.currentIndex} / ${m.lastIndex}`),
      el('td', { class: 'id' }, m.hash === hash ? m.hash : link(`/legacy-transaction/${m.hash}`, m.hash)),
      el('td', { class: 'num' }, fmt(m.value))));
  view.replaceChildren(
    el('h1', {}, 'Legacy transaction ', el('span', { class: 'mono' }, hash)),
    card(null, stats([
      ['value', fmt(tx.value)],
      ['index in bundle', `${tx.currentIndex} of 0–${tx.lastIndex}`],
      ['issued (UTC)', tx.issuedAt.replace('T', ' ').replace(/\.\d+Z$/, '')],
      ['month', tx.month],
      ['confirmed by milestone', tx.milestoneIndex != null ? String(tx.milestoneIndex) : 'not known'],
    ])),
    card('Fields', fields([
      ['address', 'address', link(`/legacy-address/${tx.address}`, tx.address)],
      ['bundle', 'bundle', tx.bundle],
      ['trunk', 'trunk', approved(tx.trunk, trunk)],
      ['branch', 'branch', approved(tx.branch, branch)],
      ['tag', 'tag', tx.tag],
      ['obsoleteTag', 'obsolete tag', tx.obsoleteTag],
      ['timestamp', 'timestamp', String(tx.timestamp)],
      ['attachmentTimestamp', 'attachment timestamp', String(tx.attachmentTimestamp)],
    ])),
    list.section);
  await list.load();
}

async function milestoneView(index) {
  const analytics = await found(api(`/api/analytics/v2/milestones/${index}`));
  const stardust = await found(api(`/api/core/v2/milestones/by-index/${index}`));
  const chrysalis = stardust ? null : await found(api(`/api/v1/milestones/${index}`));
  if (!analytics && !stardust && !chrysalis) return showError(`No milestone ${index} in the archive.`);
  const messages = pagedList('Its cone: blocks in white-flag order', async (cursor) => {
    const page = await api(`/milestones/${index}?pageSize=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    return { items: page.messageIds, cursor: page.cursor };
  }, (id) => el('tr', {}, el('td', { class: 'id' }, link(`/block/${id}`))));
  const timestamp = stardust?.timestamp ?? chrysalis?.data?.timestamp;
  view.replaceChildren(
    el('h1', {}, `Milestone ${index}`),
    card('Cone summary', stats([
      ['time (UTC)', timestamp ? new Date(timestamp * 1000).toISOString().replace('T', ' ').slice(0, 19) : '—'],
      ['blocks / messages', analytics ? fmt(analytics.blockCount) : '—'],
      ['transactions', analytics ? fmt(analytics.transactionCount) : '—'],
      ['tokens moved', analytics ? fmt(analytics.transferredTokens) : '—'],
      ['protocol', stardust ? 'Stardust' : chrysalis ? 'Chrysalis' : '—'],
    ])),
    el('div', { class: 'pager' },
      link(`/milestone/${Number(index) - 1}`, '← previous'), link(`/milestone/${Number(index) + 1}`, 'next →')),
    messages.section);
  await messages.load();
}

async function tagView(tag) {
  // The API takes a tag as 0x-hex: a text tag is its UTF-8 bytes.
  const hex = /^0x([0-9a-fA-F]{2})*$/.test(tag) ? tag
    : '0x' + [...new TextEncoder().encode(tag)].map((b) => b.toString(16).padStart(2, '0')).join('');
  const list = pagedList('Blocks with this tag, newest first', async (cursor) => {
    const page = await api(`/messages?index=${hex}&pageSize=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    return { items: page.messageIds, cursor: page.cursor };
  }, (id) => el('tr', {}, el('td', { class: 'id' }, link(`/block/${id}`))));
  view.replaceChildren(el('h1', {}, 'Tag ', el('span', { class: 'mono' }, tag),
    hex !== tag ? el('span', { class: 'muted mono' }, ` (${hex})`) : null), list.section);
  await list.load();
}

async function searchView(term) {
  const target = await resolve(term);
  if (!target) {
    return showError(`Nothing in the archive matches “${term}”. Search takes a block or message ID, ` +
      'a transaction or milestone ID (0x and 64 hex digits), an output ID (68 hex digits), an ' +
      'address (bech32, or 81 or 90 trytes), a legacy transaction hash (81 trytes), a milestone ' +
      'index or a tag.');
  }
  location.replace('#' + target);
}

// --- routing ---

const routes = [
  [/^\/?$/, overview],
  [/^\/block\/(.+)$/, blockView],
  [/^\/output\/(.+)$/, outputView],
  [/^\/address\/(.+)$/, addressView],
  [/^\/legacy-address\/(.+)$/, legacyAddressView],
  [/^\/legacy-transaction\/([A-Z9]{81})$/, legacyTransactionView],
  [/^\/milestone\/(\d+)$/, milestoneView],
  [/^\/tag\/(.+)$/, tagView],
  [/^\/search\/(.+)$/, searchView],
  [/^\/analytics(?:\/last\/(\d+)|\/(\d+)-(\d+))?$/, analyticsView],
];

async function render() {
  while (charts.length) charts.pop().destroy();
  const rendering = location.hash;
  const hash = decodeURIComponent(rendering.slice(1) || '/');
  document.body.dataset.state = 'loading';
  try {
    const route = routes.find(([re]) => re.test(hash));
    if (!route) showError(`No page ${hash}.`);
    else await route[1](...hash.match(route[0]).slice(1));
  } catch (e) {
    if (refused(e)) showTokenPrompt(e);
    else showError(`Could not load this page: ${e.message}`);
  }
  // A search that found its page has moved on to it: only the page shown says it is ready.
  if (location.hash === rendering) {
    document.body.dataset.state = 'ready';
    document.body.dataset.ready = rendering;
  }
}

document.getElementById('search').addEventListener('submit', (event) => {
  event.preventDefault();
  const term = document.getElementById('q').value.trim();
  if (term) location.hash = '#/search/' + encodeURIComponent(term);
});
document.getElementById('token').addEventListener('click', () => showTokenPrompt(null));
window.addEventListener('hashchange', render);
showTokenState();
render();
