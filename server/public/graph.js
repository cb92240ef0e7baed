// The graph view: what one retrieval activated, drawn with Cytoscape.js.
// Seeds on the left, the entities the walk reached in columns by hops from a
// seed, the passages on the right; entity size follows activation; edges are
// the relationships on the evidence paths (with their predicates) and the facts.
// Cytoscape.js is served by this server from node_modules (server/app.ts) and
// loaded on the first question only, so the page itself stays small.

let library;
/** Cytoscape.js, imported once, on first use. */
export function loadCytoscape() {
  library ??= import('/vendor/cytoscape.esm.min.mjs').then((m) => m.default);
  return library;
}

/** Entities drawn besides the seeds and the ends of paths and facts. */
export const TOP_ENTITIES = 12;
const MAX_FACTS = 20;
const ROW_H = 46;
const MAX_ROWS = 8;
/** Room kept right of the passage column for the passages' labels. */
const PASSAGE_LABEL_W = 150;

const STYLE = [
  {
    selector: 'node',
    style: {
      label: 'data(label)',
      width: 'data(size)',
      height: 'data(size)',
      'background-color': '#5b7fd6',
      'border-width': 1,
      'border-color': '#ffffff',
      'font-size': 10,
      color: '#1d2330',
      'text-valign': 'bottom',
      'text-margin-y': 3,
      'text-wrap': 'wrap',
      'text-max-width': 'data(wrap)',
      'text-background-color': '#ffffff',
      'text-background-opacity': 0.75,
      'text-background-padding': 1,
    },
  },
  { selector: 'node.seed', style: { 'background-color': '#f0a23b' } },
  {
    selector: 'node.passage',
    style: {
      shape: 'round-rectangle',
      width: 22,
      height: 16,
      'background-color': '#3a9d6a',
      'text-valign': 'center',
      'text-halign': 'right',
      'text-margin-x': 5,
      'text-margin-y': 0,
    },
  },
  {
    selector: 'edge',
    style: {
      label: 'data(label)',
      width: 1.5,
      'line-color': '#b8c0cf',
      'curve-style': 'bezier',
      'font-size': 9,
      color: '#5b6475',
      'text-rotation': 'autorotate',
      'text-background-color': '#ffffff',
      'text-background-opacity': 0.85,
      'text-background-padding': 1,
    },
  },
  { selector: 'edge[?directed]', style: { 'target-arrow-shape': 'triangle', 'target-arrow-color': '#b8c0cf', 'arrow-scale': 0.8 } },
  { selector: 'edge.mentions', style: { 'line-style': 'dashed', 'line-color': '#9fd3b5' } },
  { selector: '.faded', style: { opacity: 0.18 } },
  { selector: 'node.hl', style: { 'border-width': 3, 'border-color': '#d62d20' } },
  { selector: 'edge.hl', style: { width: 3.5, 'line-color': '#d62d20', 'target-arrow-color': '#d62d20', color: '#b3261e', 'z-index': 10 } },
];

/** A relationship in words: its predicate, else its type in lower case. */
const relLabel = (type, predicate) =>
  predicate ||
  String(type ?? 'related')
    .toLowerCase()
    .replaceAll('_', ' ');
const cut = (s, n) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const entityNode = (id) => `e:${id}`;
const passageNode = (id) => `p:${id}`;
/** One edge per relationship whichever way a path walked it: the key ignores order. */
const relEdge = (a, b, type, predicate) => `r:${[a, b].sort().join('|')}|${type}|${predicate ?? ''}`;
const mentionEdge = (entityId, passageId) => `m:${entityId}|${passageId}`;
const pathKey = (p) => (p.passageId != null ? passageNode(p.passageId) : p.entityId != null ? entityNode(p.entityId) : null);

/**
 * Cytoscape elements and positions for a retrieval result; pathElements maps
 * a passage (or entity) node id to the element ids of its evidence path.
 */
export function buildGraph(model, width = 560) {
  const seeds = model.seeds ?? [];
  const entities = model.entities ?? [];
  const passages = model.passages ?? [];
  const paths = (model.paths ?? []).filter((p) => p && Array.isArray(p.nodes) && p.nodes.length > 0);
  const facts = (model.facts ?? []).slice(0, MAX_FACTS);

  const activation = new Map();
  for (const e of [...entities, ...seeds]) activation.set(e.id, Math.max(activation.get(e.id) ?? 0, e.activation ?? 0));
  const seedIds = new Set(seeds.map((s) => s.id));
  const names = new Map();
  const nodes = new Map();
  const addEntity = (id, name) => {
    if (name && !names.has(id)) names.set(id, name);
    if (!nodes.has(entityNode(id))) nodes.set(entityNode(id), { id: entityNode(id), ref: id, kind: seedIds.has(id) ? 'seed' : 'entity' });
  };
  for (const s of seeds) addEntity(s.id, s.name);
  for (const p of paths) for (const n of p.nodes) addEntity(n.id, n.name);
  for (const f of facts) {
    addEntity(f.subject.id, f.subject.name);
    addEntity(f.object.id, f.object.name);
  }
  const ranked = [...entities].sort((a, b) => b.activation - a.activation);
  for (const e of ranked.slice(0, TOP_ENTITIES)) addEntity(e.id, e.name);
  for (const e of entities) if (!names.has(e.id)) names.set(e.id, e.name);

  const edges = new Map();
  const byPairType = new Map();
  const addRel = (from, to, type, predicate, directed) => {
    const pairType = relEdge(from, to, type, '');
    // A path's relationship without a predicate is the fact's edge between the same two nodes, if there is one.
    const id = predicate ? relEdge(from, to, type, predicate) : (byPairType.get(pairType) ?? pairType);
    if (!byPairType.has(pairType)) byPairType.set(pairType, id);
    const edge = edges.get(id);
    if (!edge) {
      edges.set(id, { id, source: entityNode(from), target: entityNode(to), label: relLabel(type, predicate), directed });
    } else if (directed && !edge.directed) {
      Object.assign(edge, { source: entityNode(from), target: entityNode(to), directed: true });
    }
    return id;
  };
  const pathElements = new Map();
  for (const f of facts) addRel(f.subject.id, f.object.id, f.type, f.predicate, true);
  for (const p of paths) {
    const key = pathKey(p);
    const ids = p.nodes.map((n) => entityNode(n.id));
    p.nodes.slice(1).forEach((n, i) => {
      const r = p.relationships?.[i] ?? { type: 'RELATED' };
      const a = p.nodes[i].id;
      if (r.direction === 'backward') ids.push(addRel(n.id, a, r.type, r.predicate, true));
      else ids.push(addRel(a, n.id, r.type, r.predicate, r.direction === 'forward'));
    });
    if (p.passageId != null && passages.some((x) => x.id === p.passageId)) {
      const last = p.nodes[p.nodes.length - 1].id;
      const id = mentionEdge(last, p.passageId);
      edges.set(id, { id, source: entityNode(last), target: passageNode(p.passageId), label: '', mentions: true });
      ids.push(id, passageNode(p.passageId));
    }
    if (key && !pathElements.has(key)) pathElements.set(key, ids);
  }

  // Columns: hops from a seed over the drawn edges; entities no drawn edge reaches sit one hop out.
  const adjacent = new Map();
  for (const e of edges.values()) {
    if (e.mentions) continue;
    for (const [a, b] of [
      [e.source, e.target],
      [e.target, e.source],
    ]) {
      if (!adjacent.has(a)) adjacent.set(a, []);
      adjacent.get(a).push(b);
    }
  }
  const depth = new Map();
  let frontier = [...nodes.values()].filter((n) => n.kind === 'seed').map((n) => n.id);
  for (const id of frontier) depth.set(id, 0);
  while (frontier.length) {
    const next = [];
    for (const id of frontier) {
      for (const m of adjacent.get(id) ?? []) {
        if (!depth.has(m)) {
          depth.set(m, depth.get(id) + 1);
          next.push(m);
        }
      }
    }
    frontier = next;
  }
  const unreached = seedIds.size ? 1 : 0;
  for (const n of nodes.values()) if (!depth.has(n.id)) depth.set(n.id, unreached);
  const passageCol = Math.max(0, ...depth.values()) + 1;
  const columns = [];
  for (const n of nodes.values()) (columns[depth.get(n.id)] ??= []).push(n.id);
  const rowOf = new Map();
  columns.forEach((col, c) => {
    // Each column in the order of its neighbours in the column before (fewer crossings), then by activation.
    const centre = (id) => {
      const rows = (adjacent.get(id) ?? []).filter((m) => depth.get(m) === c - 1).map((m) => rowOf.get(m));
      return rows.length ? rows.reduce((s, x) => s + x, 0) / rows.length : Number.POSITIVE_INFINITY;
    };
    const act = (id) => activation.get(nodes.get(id).ref) ?? 0;
    col.sort((a, b) => centre(a) - centre(b) || act(b) - act(a) || a.localeCompare(b));
    col.forEach((id, i) => {
      rowOf.set(id, i);
    });
  });
  columns[passageCol] = passages.map((p) => passageNode(p.id));

  const maxActivation = Math.max(1e-9, ...[...nodes.values()].map((n) => activation.get(n.ref) ?? 0));
  const sizeOf = new Map();
  for (const n of nodes.values()) {
    const a = activation.get(n.ref);
    sizeOf.set(n.id, a == null ? 12 : Math.round(14 + 26 * Math.sqrt(Math.max(0, a) / maxActivation)));
  }
  // A column of more than MAX_ROWS nodes is split in several side by side; rows leave room for each node and its label.
  const slots = [];
  for (const col of columns) {
    const ids = col ?? [];
    for (let i = 0; i < Math.max(1, ids.length); i += MAX_ROWS) slots.push(ids.slice(i, i + MAX_ROWS));
  }
  const colW = Math.max(90, Math.min(190, (width - PASSAGE_LABEL_W - 40) / Math.max(1, slots.length - 1)));
  const step = (id) => Math.max(ROW_H, (sizeOf.get(id) ?? 16) + 26);
  const position = new Map();
  let tallest = 0;
  slots.forEach((ids, x) => {
    const total = ids.reduce((sum, id) => sum + step(id), 0);
    tallest = Math.max(tallest, total);
    let y = -total / 2;
    for (const id of ids) {
      position.set(id, { x: x * colW, y: y + step(id) / 2 });
      y += step(id);
    }
  });

  const elements = [];
  for (const n of nodes.values()) {
    const a = activation.get(n.ref);
    elements.push({
      group: 'nodes',
      data: { id: n.id, ref: n.ref, kind: n.kind, label: cut(names.get(n.ref) ?? n.ref, 40), size: sizeOf.get(n.id), activation: a ?? null, wrap: colW - 14 },
      classes: n.kind,
      position: position.get(n.id),
    });
  }
  passages.forEach((p, i) => {
    elements.push({
      group: 'nodes',
      data: { id: passageNode(p.id), ref: p.id, kind: 'passage', label: cut(`${p.rank ?? i + 1}. ${p.title || p.id}`, 40), size: 16, wrap: PASSAGE_LABEL_W },
      classes: 'passage',
      position: position.get(passageNode(p.id)),
    });
  });
  for (const e of edges.values()) {
    elements.push({
      group: 'edges',
      data: { id: e.id, source: e.source, target: e.target, label: e.label, directed: !!e.directed },
      classes: e.mentions ? 'mentions' : 'rel',
    });
  }
  return { elements, pathElements, height: Math.min(600, Math.max(220, tallest + 40)) };
}

/**
 * A graph view in `box`: update() with parts of a result as they stream in,
 * select(passageId) to highlight a passage's path from its seed. onSelect gets
 * {id, kind} (null when cleared) and the path's element ids (null: no path).
 */
export function createGraphView(box, { onSelect } = {}) {
  const model = { seeds: [], entities: [], passages: [], paths: [], facts: [] };
  let graph = { elements: [], pathElements: new Map() };
  let selected = null;
  let cy = null;
  let width = 0;

  const ready = loadCytoscape().then(
    (cytoscape) => {
      cy = cytoscape({ container: box, style: STYLE, elements: [], maxZoom: 1.4, minZoom: 0.2, userZoomingEnabled: false, boxSelectionEnabled: false });
      cy.on('tap', 'node.passage', (e) => view.select(e.target.data('ref')));
      cy.on('tap', 'node.seed, node.entity', (e) => view.select(graph.pathElements.has(e.target.id()) ? e.target.data('ref') : null, 'entity'));
      cy.on('tap', (e) => {
        if (e.target === cy) view.select(null);
      });
      draw();
      // Columns follow the box's width: laid out again when it changes (a narrower window, one column instead of two).
      new ResizeObserver(() => {
        if (box.clientWidth !== width) draw();
      }).observe(box);
    },
    (err) => {
      box.textContent = `graph view unavailable: ${err.message ?? err}`;
      box.classList.add('unavailable');
    },
  );

  function draw() {
    if (!cy) return;
    width = box.clientWidth;
    graph = buildGraph(model, width || 560);
    box.style.height = `${graph.height}px`;
    cy.batch(() => {
      cy.elements().remove();
      cy.add(graph.elements);
    });
    cy.resize();
    cy.fit(undefined, 14);
    box.dataset.nodes = String(cy.nodes().length);
    paint();
  }

  function paint() {
    cy.elements().removeClass('hl faded');
    const ids = selected ? graph.pathElements.get(selected) : null;
    box.dataset.selected = selected ?? '';
    if (!ids) return;
    cy.elements().addClass('faded');
    for (const id of ids) cy.getElementById(id).removeClass('faded').addClass('hl');
  }

  const view = {
    ready,
    get cy() {
      return cy;
    },
    get model() {
      return model;
    },
    /** Replaces the parts given (seeds, entities, passages, facts); paths are merged by the passage or entity they lead to. */
    update(part) {
      for (const k of ['seeds', 'entities', 'passages', 'facts']) if (Array.isArray(part[k])) model[k] = part[k];
      if (Array.isArray(part.paths)) {
        const byKey = new Map(model.paths.map((p) => [pathKey(p), p]));
        for (const p of part.paths) byKey.set(pathKey(p), p);
        model.paths = [...byKey.values()];
      }
      draw();
    },
    /** Highlights the evidence path to a passage (or, kind 'entity', to a top entity); null clears. */
    select(id, kind = 'passage') {
      selected = id == null ? null : kind === 'entity' ? entityNode(id) : passageNode(id);
      if (cy) paint();
      onSelect?.(id == null ? null : { id, kind }, selected ? (graph.pathElements.get(selected) ?? null) : null);
    },
    /** The path to a passage (or, kind 'entity', to a top entity) as words: seed -predicate- ... -> passage. */
    describe(id, kind = 'passage') {
      const p = model.paths.find((x) => (kind === 'entity' ? x.entityId === id : x.passageId === id));
      if (!p) return null;
      // The labels the edges are drawn with (a fact's predicate where the path's relationship has none).
      const ids = graph.pathElements.get(kind === 'entity' ? entityNode(id) : passageNode(id)) ?? [];
      const drawnLabel = new Map(graph.elements.filter((e) => e.group === 'edges').map((e) => [e.data.id, e.data.label]));
      let s = p.nodes[0].name;
      p.nodes.slice(1).forEach((n, i) => {
        const r = p.relationships?.[i] ?? {};
        const label = drawnLabel.get(ids[p.nodes.length + i]) || relLabel(r.type, r.predicate);
        s += r.direction === 'backward' ? ` ←${label}– ${n.name}` : r.direction === 'forward' ? ` –${label}→ ${n.name}` : ` –${label}– ${n.name}`;
      });
      const passage = kind === 'passage' && model.passages.find((x) => x.id === id);
      return passage ? `${s} ⇢ passage ${passage.rank} “${passage.title || passage.id}”` : s;
    },
  };
  return view;
}
