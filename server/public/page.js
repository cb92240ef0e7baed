import { createGraphView, loadCytoscape } from './graph.js';
import { readFetch } from './keys.js';
import { setUpUpload } from './upload.js';

// Every SSE event as it arrives ({mode, type, t, data}), for people and for the browser test.
window.__events = [];
// Each column's graph view by mode (view.cy is the Cytoscape instance), for people and for the browser test.
window.__graphs = {};

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
}

function column(mode) {
  const col = el('div', { class: 'col', 'data-mode': mode });
  const graph = el('div', { class: 'graph', 'data-testid': 'graph' });
  col.append(
    el('h2', {}, mode),
    el('h3', {}, 'Entities'),
    el('div', { class: 'chips', 'data-testid': 'entities' }, el('span', { class: 'muted' }, 'waiting...')),
    el('h3', {}, 'Graph'),
    graph,
    el(
      'div',
      { class: 'legend' },
      el('i', { class: 'seed' }),
      'seed',
      el('i', { class: 'entity' }),
      'entity (size: activation)',
      el('i', { class: 'passage' }),
      'passage; click one to see its path from a seed',
    ),
    el('div', { class: 'path', 'data-testid': 'path' }),
    el('h3', { 'data-testid': 'facts-title', hidden: '' }, 'Facts'),
    el('ol', { class: 'facts', 'data-testid': 'facts', hidden: '' }),
    el('h3', {}, 'Passages'),
    el('div', { 'data-testid': 'passages' }),
    el('h3', {}, 'Answer'),
    el('div', { class: 'answer', 'data-testid': 'answer' }),
    el('div', { class: 'timings', 'data-testid': 'timings' }),
    el('div', { class: 'err', 'data-testid': 'error' }),
  );
  const q = (s) => col.querySelector(`[data-testid=${s}]`);
  const view = createGraphView(graph, {
    onSelect(picked, path) {
      const passageId = picked?.kind === 'passage' ? picked.id : null;
      for (const row of q('passages').querySelectorAll('.passage')) row.classList.toggle('selected', row.dataset.id === passageId);
      q('path').textContent = !picked ? '' : path ? view.describe(picked.id, picked.kind) : `no evidence path from a seed to this ${picked.kind}`;
    },
  });
  window.__graphs[mode] = view;
  return { col, q, view };
}

/** The source selector: All, then each source of GET /v1/sources with its document count. */
async function loadSources() {
  const select = document.getElementById('source');
  try {
    const res = await readFetch('/v1/sources');
    if (!res.ok) return;
    const { sources } = await res.json();
    const chosen = select.value;
    select.textContent = '';
    select.append(el('option', { value: '' }, 'All sources'));
    for (const s of sources) select.append(el('option', { value: s.source }, `${s.source} (${s.documents})`));
    if (sources.some((s) => s.source === chosen)) select.value = chosen;
  } catch {
    // No sources listed: the selector stays at All.
  }
}
loadSources();
setUpUpload(() => loadSources());

async function ask(question, mode, source, c) {
  const res = await readFetch('/v1/answer', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(source ? { question, mode, filter: { sources: [source] } } : { question, mode }),
  });
  if (!res.ok) {
    const body = await res.json().catch(() => ({}));
    c.q('error').textContent = body.error ? body.error.message : `HTTP ${res.status}`;
    c.q('entities').textContent = '';
    return;
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += value;
    let i;
    while ((i = buf.indexOf('\n\n')) >= 0) {
      const frame = buf.slice(0, i);
      buf = buf.slice(i + 2);
      const ev = /^event: (.*)$/m.exec(frame);
      const data = /^data: (.*)$/m.exec(frame);
      if (ev && data) handle(ev[1], JSON.parse(data[1]), c, mode);
    }
  }
}

/** Facts (the relationships that carried activation), when the result has them. */
function showFacts(c, facts) {
  if (!Array.isArray(facts)) return;
  const list = c.q('facts');
  list.textContent = '';
  for (const f of facts.slice(0, 10)) {
    list.append(el('li', { 'data-subject': f.subject.id, 'data-object': f.object.id }, `${f.subject.name} ${f.predicate || f.type} ${f.object.name}`));
  }
  list.hidden = c.q('facts-title').hidden = facts.length === 0;
}

function handle(type, data, c, mode) {
  const { q, view } = c;
  window.__events.push({ mode, type, t: performance.now(), data });
  if (type === 'entities') {
    const box = q('entities');
    box.textContent = '';
    const seeds = new Set(data.seeds.map((s) => s.id));
    for (const e of data.entities.slice(0, 20)) {
      // A curated entity the returned passages were linked to: how (docs/linking.md).
      const links = e.links ?? [];
      const how = links.map((l) => `linked from ${l.passageId} (${l.method}, ${l.confidence.toFixed(2)})`).join('; ');
      box.append(
        el(
          'span',
          {
            class: [seeds.has(e.id) ? 'seed' : '', links.length ? 'linked' : ''].join(' ').trim(),
            title: `activation ${e.activation.toFixed(3)}${how ? `; ${how}` : ''}`,
          },
          `${e.name} ${e.activation.toFixed(2)}${links.length ? ' \u{1F517}' : ''}`,
        ),
      );
    }
    if (!data.entities.length) box.append(el('span', { class: 'muted' }, 'no entities'));
    view.update(data);
    showFacts(c, data.facts);
  } else if (type === 'passages') {
    const box = q('passages');
    box.textContent = '';
    for (const p of data.passages) {
      const path = (data.paths ?? []).find((x) => x.passageId === p.id && x.link);
      const end = path ? path.nodes[path.nodes.length - 1] : null;
      const row = el(
        'div',
        { class: 'passage', 'data-id': p.id, title: 'show its path from a seed in the graph' },
        el('b', {}, `${p.rank}. ${p.title || p.id} `),
        el('span', { class: 'score' }, `score ${p.score.toFixed(3)} (graph ${p.graphScore.toFixed(2)}, vector ${p.vectorScore.toFixed(2)})`),
        el('div', {}, p.text.length > 240 ? `${p.text.slice(0, 240)}...` : p.text),
        ...(end
          ? [
              el(
                'div',
                { class: 'muted', 'data-testid': 'link' },
                `reached through ${end.name}, linked ${path.link.method} (${path.link.confidence.toFixed(2)})`,
              ),
            ]
          : []),
      );
      row.addEventListener('click', () => view.select(row.classList.contains('selected') ? null : p.id));
      box.append(row);
    }
    view.update(data);
    showFacts(c, data.facts);
  } else if (type === 'token') {
    q('answer').textContent += data.text;
  } else if (type === 'done') {
    q('answer').textContent = data.answer;
    const t = data.timings;
    q('timings').textContent =
      `embed ${t.embedMs} ms, database ${t.dbMs} ms, first token ${t.firstTokenMs} ms, total ${t.totalMs} ms; ${data.generator}; cites ${data.citations.join(', ') || 'nothing'}`;
  } else if (type === 'error') {
    q('error').textContent = data.message;
  }
}

document.getElementById('ask').addEventListener('submit', (e) => {
  e.preventDefault();
  loadCytoscape().catch(() => {});
  const question = document.getElementById('question').value.trim();
  const source = document.getElementById('source').value;
  const modes = [document.getElementById('mode').value, document.getElementById('compare').value].filter((m, i, a) => m && a.indexOf(m) === i);
  const cols = document.getElementById('cols');
  cols.textContent = '';
  window.__events = [];
  window.__graphs = {};
  for (const mode of modes) {
    const c = column(mode);
    cols.append(c.col);
    ask(question, mode, source, c).catch((err) => {
      c.q('error').textContent = String(err);
    });
  }
});
