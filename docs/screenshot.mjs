#!/usr/bin/env node
// Makes docs/page.png: the page at / asking the demo question, gated and vector
// side by side, with the evidence path of gated's passage on the longest path
// highlighted. Against a running server (npm start loads the MuSiQue demo):
//
//   node docs/screenshot.mjs [http://127.0.0.1:8080] [docs/page.png]
//
// Needs Debian's chromium (CHROMIUM_PATH to use another) and playwright-core.
import { chromium } from 'playwright-core';

const url = process.argv[2] || 'http://127.0.0.1:8080';
const out = process.argv[3] || 'docs/page.png';
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(url);
  await page.selectOption('#mode', 'gated');
  await page.selectOption('#compare', 'vector');
  await page.click('#ask button[type=submit]');
  for (const mode of ['gated', 'vector']) {
    await page.locator(`.col[data-mode=${mode}] [data-testid=timings]`).filter({ hasText: 'first token' }).waitFor({ timeout: 120000 });
  }
  const id = await page.evaluate(() => {
    const view = window.__graphs.gated;
    const shown = new Set(view.model.passages.map((p) => p.id));
    const paths = view.model.paths.filter((p) => shown.has(p.passageId));
    paths.sort((a, b) => b.nodes.length - a.nodes.length);
    return paths[0]?.passageId ?? null;
  });
  if (id) await page.locator(`.col[data-mode=gated] .passage[data-id="${id}"]`).click();
  await page.screenshot({ path: out, fullPage: true });
  console.log(`${out}: highlighted ${id ?? 'nothing'}`);
} finally {
  await browser.close();
}
