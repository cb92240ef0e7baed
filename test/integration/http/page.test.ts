// Subject: the page (server/public) in Chromium.
import { chromium, type Browser, type Page } from 'playwright-core';
import type { Driver } from 'neo4j-driver';
import { loadConfig } from '../../../server/config.js';
import { createHashEmbedder } from '../../../server/embedders/hash.js';
import { resetGraph, testDriver } from '../../support/db.js';
import { bridgeFixture, loadGraph, type FixtureGraph, loadFixtureGraph } from '../../support/fixtures.js';
import { startServer, type RunningServer } from '../../support/server.js';

/** The page at / in Debian's headless Chromium, driven by playwright-core. */
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
/** Where the last test leaves its screenshot (docs/page.png is made from real demo data by docs/screenshot.mjs). */
const SCREENSHOT = process.env.PAGE_SCREENSHOT || 'bench/out/page.png';
const DEMO_QUESTION = 'Who is the current opposition leader in the country where Buyende is located?';
const embedder = createHashEmbedder(384);
const f = bridgeFixture();
let driver: Driver;
let srv: RunningServer;
let browser: Browser;

/**
 * The demo question's two hops in miniature (Buyende is in Uganda; Winnie Kiiza
 * led the opposition in Uganda's parliament), embedded with the hash embedder
 * the test server uses, with a look-alike from Jamaica and some neighbours. Five passages, all of them drawn: the
 * hash embedder ranks by shared words, not meaning, and a sixth ranked the two-hop passage out of the page's five.
 */
async function demoGraph(): Promise<FixtureGraph> {
  const entity = async (id: string, name: string, description: string) => {
    const [embedding, descriptionEmbedding] = await embedder.embed([name, description], 'document');
    return { id, name, type: 'Thing', embedding, descriptionEmbedding };
  };
  const passage = async (id: string, title: string, text: string, mentions: string[]) => {
    const [embedding] = await embedder.embed([`${title}\n${text}`], 'document');
    return { id, title, text, embedding, mentions };
  };
  return {
    entities: [
      await entity('d-buyende', 'Buyende', 'Buyende District, a district in the Eastern Region of Uganda'),
      await entity('d-uganda', 'Uganda', 'Uganda, a country in East Africa whose parliament has a leader of the opposition'),
      await entity('d-kiiza', 'Winnie Kiiza', 'Winnie Kiiza, Ugandan politician, the leader of the opposition in the Parliament of Uganda'),
      await entity('d-parliament', 'Parliament of Uganda', 'the Parliament of Uganda, the legislature of the country'),
      await entity('d-busoga', 'Busoga', 'Busoga, a kingdom in the Eastern Region of Uganda'),
      await entity('d-kamuli', 'Kamuli District', 'Kamuli District, a district in the Eastern Region of Uganda'),
      await entity('d-jamaica', 'Jamaica', 'Jamaica, a country in the Caribbean'),
      await entity('d-golding', 'Mark Golding', 'Mark Golding, the leader of the opposition of Jamaica'),
    ],
    passages: [
      await passage('dp-buyende', 'Buyende District', 'Buyende District is a district in the Eastern Region of Uganda, in the Busoga sub-region.', [
        'd-buyende',
        'd-busoga',
        'd-uganda',
      ]),
      await passage(
        'dp-kiiza',
        'Winnie Kiiza',
        'Winnie Kiiza is a Ugandan politician. She was the Leader of the Opposition in the Parliament of Uganda from 2016 to 2018.',
        ['d-kiiza', 'd-parliament'],
      ),
      await passage('dp-parliament', 'Parliament of Uganda', 'The Parliament of Uganda is the legislature of the country.', ['d-parliament', 'd-uganda']),
      await passage('dp-busoga', 'Busoga', 'Busoga is a traditional kingdom in the east of Uganda.', ['d-busoga', 'd-uganda']),
      await passage('dp-jamaica', 'Leader of the Opposition (Jamaica)', 'The current Leader of the Opposition of Jamaica is Mark Golding.', [
        'd-golding',
        'd-jamaica',
      ]),
    ],
    relations: [
      { from: 'd-buyende', to: 'd-uganda', type: 'RELATED', predicate: 'located in' },
      { from: 'd-buyende', to: 'd-busoga', type: 'RELATED', predicate: 'part of' },
      { from: 'd-busoga', to: 'd-uganda', type: 'RELATED', predicate: 'region of' },
      { from: 'd-kamuli', to: 'd-buyende', type: 'RELATED', predicate: 'borders' },
      { from: 'd-parliament', to: 'd-uganda', type: 'RELATED', predicate: 'legislature of' },
      { from: 'd-kiiza', to: 'd-parliament', type: 'RELATED', predicate: 'leader of the opposition in' },
      { from: 'd-golding', to: 'd-jamaica', type: 'RELATED', predicate: 'leader of the opposition of' },
    ],
  };
}

async function postJson(url: string, body: unknown): Promise<any> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  return res.json();
}

interface Drawn {
  nodes: { id: string; ref: string; kind: string; size: number; x: number; y: number }[];
  edges: { id: string; source: string; target: string; label: string }[];
  highlighted: string[];
  faded: number;
}
/** What a column's graph view has drawn, read through Cytoscape's API; node positions relative to the page. */
async function drawn(page: Page, mode: string): Promise<Drawn> {
  return page.evaluate((m) => {
    const view = (window as any).__graphs[m];
    const cy = view.cy;
    const box = cy.container().getBoundingClientRect();
    return {
      nodes: cy.nodes().map((n: any) => ({
        id: n.id(),
        ref: n.data('ref'),
        kind: n.data('kind'),
        size: n.data('size'),
        x: box.left + n.renderedPosition().x,
        y: box.top + n.renderedPosition().y,
      })),
      edges: cy.edges().map((e: any) => ({ id: e.id(), source: e.data('source'), target: e.data('target'), label: e.data('label') })),
      highlighted: cy
        .elements('.hl')
        .map((e: any) => e.id())
        .sort(),
      faded: cy.elements('.faded').length,
    };
  }, mode);
}

beforeAll(async () => {
  driver = await testDriver();
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});
afterAll(async () => {
  await browser?.close();
  await srv?.close();
  await driver?.close();
});

describe('on the bridge fixture', () => {
  beforeAll(async () => {
    await loadFixtureGraph(driver, f.graph);
    srv = await startServer({ embedder });
  });
  afterAll(async () => {
    await srv?.close();
  });

  test('a person asks; entities, then passages, then the streamed answer appear, for two modes side by side', async () => {
    const page = await browser.newPage();
    await page.goto(srv.url);
    await page.fill('#question', 'What did Charles Babbage design?');
    await page.selectOption('#mode', 'gated');
    await page.selectOption('#compare', 'vector');
    await page.click('#ask button[type=submit]');
    for (const mode of ['gated', 'vector']) {
      const col = page.locator(`.col[data-mode=${mode}]`);
      await col.locator('[data-testid=timings]').filter({ hasText: 'first token' }).waitFor({ timeout: 60000 });
      await expect(col.locator('[data-testid=entities]').textContent()).resolves.toContain('Charles Babbage');
      await expect(col.locator('[data-testid=passages] .passage').count()).resolves.toBeGreaterThan(0);
      await expect(col.locator('[data-testid=answer]').textContent()).resolves.toMatch(/\S/);
    }
    await expect(page.locator('.col[data-mode=gated] [data-testid=passages] .passage[data-id=p-answer]').count()).resolves.toBe(1);
    await expect(page.locator('.col[data-mode=gated] [data-testid=answer]').textContent()).resolves.toContain('Analytical Engine');
    const events = (await page.evaluate('window.__events')) as { mode: string; type: string; t: number }[];
    for (const mode of ['gated', 'vector']) {
      const seq = events
        .filter((e) => e.mode === mode)
        .map((e) => e.type)
        .filter((t, i, a) => t !== 'token' || a[i - 1] !== 'token');
      expect(seq).toEqual(['entities', 'passages', 'token', 'done']);
    }
    await page.close();
  });
});

describe('the graph view, on the demo question', () => {
  beforeAll(async () => {
    await resetGraph(driver);
    await loadGraph(driver, await demoGraph());
    srv = await startServer({ embedder });
  });

  test('the library is served by the server itself, as a JavaScript module', async () => {
    const res = await fetch(`${srv.url}/vendor/cytoscape.esm.min.mjs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(await res.text()).toMatch(/export\s*\{\s*\w+ as default\s*\}/);
  });

  test('side by side, each mode draws the seeds, entities and passages the API returned; clicking a passage highlights its path from a seed', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const external: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(srv.url)) external.push(r.url());
    });
    await page.goto(srv.url);
    await expect(page.inputValue('#question')).resolves.toBe(DEMO_QUESTION);
    await page.selectOption('#mode', 'gated');
    await page.selectOption('#compare', 'vector');
    await page.click('#ask button[type=submit]');
    const api: Record<string, any> = {};
    for (const mode of ['gated', 'vector']) {
      const col = page.locator(`.col[data-mode=${mode}]`);
      await col.locator('[data-testid=timings]').filter({ hasText: 'first token' }).waitFor({ timeout: 60000 });
      // The same retrieval through the API (deterministic: the hash embedder, the same parameters).
      api[mode] = await postJson(`${srv.url}/v1/retrieve`, { question: DEMO_QUESTION, mode });
      const r = api[mode];
      const listed = await col.locator('[data-testid=passages] .passage').evaluateAll((rows) => rows.map((x) => (x as HTMLElement).dataset.id));
      expect(listed).toEqual(r.passages.slice(0, 5).map((p: { id: string }) => p.id));

      const g = await drawn(page, mode);
      // What the page was sent: the facts (when the result has them) and the paths.
      const sent = ((await page.evaluate('window.__events')) as { mode: string; type: string; data: any }[]).find(
        (e) => e.mode === mode && e.type === 'passages',
      )!.data;
      const facts: any[] = sent.facts ?? [];
      const kinds = new Map(g.nodes.map((n) => [`${n.kind === 'passage' ? 'p' : 'e'}:${n.ref}`, n.kind]));
      // gated maps seeds; vector, on a graph with passages, none: its entities are those its passages mention.
      if (mode === 'gated') expect(r.seeds.length).toBeGreaterThan(0);
      else expect(r.seeds).toEqual([]);
      expect(r.entities.length).toBeGreaterThan(0);
      for (const s of r.seeds) expect(kinds.get(`e:${s.id}`)).toBe('seed');
      // The top entities by activation, every one of them, and nothing the result does not name.
      const top = [...r.entities].sort((a, b) => b.activation - a.activation).slice(0, 12);
      for (const e of top) expect(['seed', 'entity']).toContain(kinds.get(`e:${e.id}`));
      const ends = facts.flatMap((x) => [x.subject, x.object]);
      const named = new Set([...r.seeds, ...r.entities, ...sent.paths.flatMap((p: any) => p.nodes), ...ends].map((e: { id: string }) => `e:${e.id}`));
      for (const n of g.nodes.filter((x) => x.kind !== 'passage')) expect(named.has(`e:${n.ref}`)).toBe(true);
      expect(
        g.nodes
          .filter((n) => n.kind === 'passage')
          .map((n) => n.ref)
          .sort(),
      ).toEqual([...listed].sort());
      // Sized by activation: the most activated entity drawn is the largest.
      const sizes = new Map(g.nodes.map((n) => [n.ref, n.size]));
      const drawnEntities = r.entities.filter((e: { id: string }) => kinds.has(`e:${e.id}`));
      const most = drawnEntities.reduce((a: any, b: any) => (b.activation > a.activation ? b : a));
      for (const e of drawnEntities) expect(sizes.get(e.id)).toBeLessThanOrEqual(sizes.get(most.id)!);
      // Every evidence path's relationships, with their predicates, are edges.
      for (const p of r.paths.filter((x: { passageId?: string }) => listed.includes(x.passageId))) {
        p.relationships.forEach((rel: { predicate: string }, i: number) => {
          const [a, b] = [p.nodes[i].id, p.nodes[i + 1].id].map((id) => `e:${id}`);
          const edge = g.edges.find((e) => [e.source, e.target].sort().join() === [a, b].sort().join());
          expect(edge?.label).toBe(rel.predicate);
        });
        expect(g.edges.some((e) => e.target === `p:${p.passageId}`)).toBe(true);
      }
      // The facts: listed under the graph, and drawn as edges from subject to object with their predicates.
      const items = await col.locator('[data-testid=facts] li').allTextContents();
      expect(items).toEqual(facts.slice(0, 10).map((x) => `${x.subject.name} ${x.predicate} ${x.object.name}`));
      await expect(col.locator('[data-testid=facts]').isVisible()).resolves.toBe(facts.length > 0);
      for (const x of facts.slice(0, 20)) {
        expect(g.edges.some((e) => e.source === `e:${x.subject.id}` && e.target === `e:${x.object.id}` && e.label === x.predicate)).toBe(true);
      }
    }

    // gated walks from Buyende: of the passages drawn, the one with the longest evidence path (the first by rank on a
    // tie); a click on that passage in the graph lights the path.
    const gated = page.locator('.col[data-mode=gated]');
    const drawnIds = api.gated.passages.slice(0, 5).map((x: { id: string }) => x.id);
    const walked = api.gated.paths.filter(
      (p: { passageId?: string; relationships: unknown[] }) => drawnIds.includes(p.passageId) && p.relationships.length > 0,
    );
    const path = walked.reduce((a: any, b: any) => (b.relationships.length > a.relationships.length ? b : a));
    // The demo's two hops: Winnie Kiiza's passage, reached from Buyende through Uganda and its parliament.
    expect(path.relationships.length).toBeGreaterThanOrEqual(2);
    const targetId: string = path.passageId;
    const targetTitle: string = api.gated.passages.find((x: { id: string }) => x.id === targetId).title;
    expect(path.nodes[0].name).toBe('Buyende');
    const before = await drawn(page, 'gated');
    expect(before.highlighted).toEqual([]);
    const target = before.nodes.find((n) => n.id === `p:${targetId}`)!;
    await page.mouse.click(target.x, target.y);
    await gated.locator('[data-testid=path]').filter({ hasText: targetTitle }).waitFor({ timeout: 5000 });
    const after = await drawn(page, 'gated');
    const lit = after.highlighted;
    const expected = new Set([...path.nodes.map((n: { id: string }) => `e:${n.id}`), `p:${targetId}`]);
    expect(lit.filter((id) => !id.startsWith('r:') && !id.startsWith('m:')).sort()).toEqual([...expected].sort());
    // Its edges: one per relationship on the path, plus the passage's mention of where the path ends.
    const litEdges = after.edges.filter((e) => lit.includes(e.id));
    expect(litEdges).toHaveLength(path.relationships.length + 1);
    for (const e of litEdges) expect(expected.has(e.source) && expected.has(e.target)).toBe(true);
    expect(after.faded).toBe(after.nodes.length + after.edges.length - lit.length);
    await expect(gated.locator('.passage.selected').getAttribute('data-id')).resolves.toBe(targetId);
    const words = await gated.locator('[data-testid=path]').textContent();
    for (const rel of path.relationships) expect(words).toContain(rel.predicate);
    expect(words?.startsWith('Buyende ')).toBe(true);
    expect(words).toMatch(new RegExp(` ⇢ passage \\d+ “${targetTitle}”$`));
    // The other view is untouched by a click in this one.
    expect((await drawn(page, 'vector')).highlighted).toEqual([]);

    // A passage picked from the list works the same way; a second click clears it.
    const other = api.gated.paths.find(
      (p: { passageId?: string }) => p.passageId && p.passageId !== targetId && api.gated.passages.slice(0, 5).some((x: any) => x.id === p.passageId),
    );
    await gated.locator(`[data-testid=passages] .passage[data-id=${other.passageId}]`).click();
    expect((await drawn(page, 'gated')).highlighted).toContain(`p:${other.passageId}`);
    expect((await drawn(page, 'gated')).highlighted).not.toContain(`p:${targetId}`);
    await gated.locator(`[data-testid=passages] .passage[data-id=${other.passageId}]`).click();
    expect((await drawn(page, 'gated')).highlighted).toEqual([]);
    await page.mouse.click(target.x, target.y);

    // vector does not walk: its passages have no path from a seed, and the page says so.
    const vector = page.locator('.col[data-mode=vector]');
    const first = api.vector.passages[0].id;
    expect(api.vector.paths.some((p: { passageId?: string }) => p.passageId === first)).toBe(false);
    await vector.locator(`[data-testid=passages] .passage[data-id=${first}]`).click();
    await expect(vector.locator('[data-testid=path]').textContent()).resolves.toBe('no evidence path from a seed to this passage');
    await expect(vector.locator('.passage.selected').getAttribute('data-id')).resolves.toBe(first);
    expect((await drawn(page, 'vector')).highlighted).toEqual([]);
    expect((await drawn(page, 'gated')).highlighted).toContain(`p:${targetId}`);

    expect(external).toEqual([]);
    await page.screenshot({ path: SCREENSHOT, fullPage: true }).catch(() => {});
    await page.close();
  });

  test('a knowledge graph without passages: seeds, entities and the facts as edges with their predicates', async () => {
    const page = await browser.newPage();
    await page.goto(srv.url);
    const g = await page.evaluate(async () => {
      const { createGraphView } = await import('/graph.js' as string);
      const box = document.createElement('div');
      box.style.width = '500px';
      document.body.append(box);
      const view = createGraphView(box);
      await view.ready;
      const thing = (id: string, name: string) => ({ id, name, type: 'Gene' });
      view.update({
        seeds: [{ ...thing('g1', 'APOE'), score: 0.9, activation: 1, sources: ['vector'] }],
        entities: [
          { ...thing('g1', 'APOE'), activation: 1 },
          { ...thing('d1', "Alzheimer's disease"), activation: 0.6 },
          { ...thing('c1', 'Donepezil'), activation: 0.3 },
        ],
        passages: [],
        paths: [],
        facts: [
          {
            rank: 1,
            subject: thing('g1', 'APOE'),
            type: 'ASSOCIATES_DaG',
            predicate: 'associates',
            object: thing('d1', "Alzheimer's disease"),
            score: 0.6,
            text: '',
          },
          {
            rank: 2,
            subject: thing('c1', 'Donepezil'),
            type: 'TREATS_CtD',
            predicate: 'treats',
            object: thing('d1', "Alzheimer's disease"),
            score: 0.2,
            text: '',
          },
        ],
      });
      const cy = view.cy;
      const drawnNow = {
        nodes: cy.nodes().map((n: any) => `${n.data('kind')}:${n.data('ref')}`),
        edges: cy.edges().map((e: any) => `${e.data('source')} ${e.data('label')} ${e.data('target')} ${e.data('directed')}`),
      };
      // A path to a top entity (not a passage), walked against the relationship's direction.
      view.update({
        paths: [
          {
            entityId: 'c1',
            nodes: [thing('g1', 'APOE'), thing('d1', 'AD'), thing('c1', 'Donepezil')],
            relationships: [
              { type: 'ASSOCIATES_DaG', predicate: 'associates', direction: 'forward' },
              { type: 'TREATS_CtD', predicate: null, direction: 'backward' },
            ],
          },
        ],
      });
      const edgesAfter = cy.edges().length;
      view.select('c1', 'entity');
      return {
        ...drawnNow,
        edgesAfter,
        words: view.describe('c1', 'entity'),
        lit: cy.elements('.hl').map((e: any) => e.id()).length,
        litNodes: cy
          .nodes('.hl')
          .map((n: any) => n.data('ref'))
          .sort(),
      };
    });
    expect(g.nodes.sort()).toEqual(['entity:c1', 'entity:d1', 'seed:g1']);
    expect(g.edges.sort()).toEqual(['e:c1 treats e:d1 true', 'e:g1 associates e:d1 true']);
    // The path's relationships are the facts' edges, not new ones; selecting the entity lights its 3 nodes and 2 edges.
    expect(g.edgesAfter).toBe(2);
    expect(g.litNodes).toEqual(['c1', 'd1', 'g1']);
    expect(g.lit).toBe(5);
    expect(g.words).toBe('APOE –associates→ AD ←treats– Donepezil');
    await page.close();
  });
});

describe('uploading a document, and the keys', () => {
  const WRITE_KEY = 'page-write-key';
  const READ_KEY = 'page-read-key';
  let up: RunningServer;
  beforeAll(async () => {
    await resetGraph(driver);
    up = await startServer({ embedder, config: { apiKey: WRITE_KEY, jobs: { ...loadConfig({}).jobs, leaseMs: 1000 } } });
  });
  afterAll(async () => {
    await up?.services.retriever.projection.idle();
    await up?.close();
  });

  test('the page asks for the write key, uploads a file as a job and shows its progress until it is done', async () => {
    const page = await browser.newPage();
    const prompts: string[] = [];
    page.on('dialog', (d) => {
      prompts.push(d.message());
      void d.accept(WRITE_KEY);
    });
    const sent: { url: string; key?: string; prefer?: string }[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/v1/')) sent.push({ url: new URL(r.url()).pathname, key: r.headers()['x-api-key'], prefer: r.headers().prefer });
    });
    await page.goto(up.url);
    await page.click('#upload-box summary');
    await page.fill('#upload-title', 'Uploaded from the page');
    const text = Array.from({ length: 12 }, (_, i) => `Ada Lovelace wrote note ${i} on the Analytical Engine of Charles Babbage in London.`).join(' ');
    await page.setInputFiles('#upload-file', { name: 'lovelace.txt', mimeType: 'text/plain', buffer: Buffer.from(text) });
    await page.click('#upload button[type=submit]');
    await page.locator('[data-testid=upload-status][data-status=done]').waitFor({ timeout: 120_000 });

    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toMatch(/write key/);
    const post = sent.find((s) => s.url === '/v1/documents')!;
    expect(post).toMatchObject({ key: WRITE_KEY, prefer: 'respond-async' });
    // Progress was shown as the job went, from its first state to done.
    const jobs = await page.evaluate(() => (window as any).__jobs);
    expect(['queued', 'running']).toContain(jobs[0].status);
    expect(jobs.at(-1)).toMatchObject({ status: 'done', progress: { done: jobs.at(-1).progress.total } });
    expect(jobs.at(-1).progress.total).toBeGreaterThan(0);
    expect(sent.filter((s) => s.url === `/v1/jobs/${jobs[0].id}`).length).toBeGreaterThan(0);
    await expect(page.locator('[data-testid=upload-status]').textContent()).resolves.toMatch(/done, \d+\/\d+ passages: \d+ passages/);
    await expect(page.locator('#upload-progress').evaluate((p: HTMLProgressElement) => p.value === p.max)).resolves.toBe(true);
    // The key is kept for this tab only.
    await expect(page.evaluate(() => [sessionStorage.getItem('graph-recall.writeKey'), localStorage.length, document.cookie])).resolves.toEqual([
      WRITE_KEY,
      0,
      '',
    ]);
    const n = await driver.executeQuery("MATCH (d:Document {title: 'Uploaded from the page', source: 'page'}) RETURN count(d) AS n");
    expect(n.records[0].get('n')).toBe(1);
    // A second upload in the same tab asks for no key.
    await page.fill('#upload-title', 'Second upload');
    await page.setInputFiles('#upload-file', { name: 'second.txt', mimeType: 'text/plain', buffer: Buffer.from(`${text} Again.`) });
    await page.click('#upload button[type=submit]');
    await page.waitForFunction((count) => (window as any).__jobs.length > count && (window as any).__jobs.at(-1).status === 'done', jobs.length, {
      timeout: 120_000,
    });
    expect(prompts).toHaveLength(1);
    await page.close();
  }, 300_000);

  test('when a read answers 401 the page asks for the read key and sends it as X-Api-Key on reads', async () => {
    const page = await browser.newPage();
    const prompts: string[] = [];
    page.on('dialog', (d) => {
      prompts.push(d.message());
      void d.accept(READ_KEY);
    });
    // The server as READ_API_KEY makes it: reads without the key answer 401.
    const keys: Record<string, (string | undefined)[]> = {};
    await page.route(/\/v1\/(sources|answer)$/, async (route) => {
      const path = new URL(route.request().url()).pathname;
      const key = route.request().headers()['x-api-key'];
      (keys[path] ??= []).push(key);
      if (key !== READ_KEY) {
        await route.fulfill({
          status: 401,
          contentType: 'application/json',
          body: JSON.stringify({ error: { code: 'unauthorized', message: 'read key needed' } }),
        });
      } else await route.continue();
    });
    await page.goto(up.url);
    await page.waitForFunction(() => document.querySelectorAll('#source option').length > 1, undefined, { timeout: 30_000 });
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toMatch(/read key/);
    expect(keys['/v1/sources']).toEqual([undefined, READ_KEY]);
    await expect(page.evaluate(() => sessionStorage.getItem('graph-recall.readKey'))).resolves.toBe(READ_KEY);
    // Later reads send it at once, with no second prompt.
    await page.fill('#question', 'What did Ada Lovelace write?');
    await page.selectOption('#mode', 'vector');
    await page.selectOption('#compare', '');
    await page.click('#ask button[type=submit]');
    await page.locator('.col[data-mode=vector] [data-testid=timings]').filter({ hasText: 'first token' }).waitFor({ timeout: 60_000 });
    expect(keys['/v1/answer']).toEqual([READ_KEY]);
    expect(prompts).toHaveLength(1);
    await page.close();
  }, 300_000);
});
