import { chromium, type Browser } from 'playwright-core';
import type { Driver } from 'neo4j-driver';
import { createHashEmbedder } from '../../server/embedders/hash.js';
import { manageProjection } from '../../server/retrieval/projection.js';
import { resetGraph, testDriver } from '../support/db.js';
import { bridgeFixture, loadGraph } from '../support/fixtures.js';
import { startServer, type RunningServer } from '../support/server.js';

/** The page at / in Debian's headless Chromium, driven by playwright-core. */
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const f = bridgeFixture();
let driver: Driver;
let srv: RunningServer;
let browser: Browser;

beforeAll(async () => {
  driver = await testDriver();
  await resetGraph(driver);
  await loadGraph(driver, f.graph);
  await manageProjection(driver, 'refresh', { graphName: 'graph_recall_ppr' });
  srv = await startServer({ embedder: createHashEmbedder(384) });
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

test('a person asks; entities, then passages, then the streamed answer appear, for two modes side by side', async () => {
  const page = await browser.newPage();
  await page.goto(srv.url);
  await page.fill('#question', 'What did Charles Babbage design?');
  await page.selectOption('#mode', 'gated');
  await page.selectOption('#compare', 'vector');
  await page.click('button[type=submit]');
  for (const mode of ['gated', 'vector']) {
    const col = page.locator(`.col[data-mode=${mode}]`);
    await col.locator('[data-testid=timings]').filter({ hasText: 'first token' }).waitFor({ timeout: 30000 });
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
  await page.screenshot({ path: 'bench/out/page.png', fullPage: true }).catch(() => {});
  await page.close();
});
