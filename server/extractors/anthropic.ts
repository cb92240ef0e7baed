/**
 * Entity/relation extraction with Claude (Anthropic Messages API, official SDK).
 *
 * One `messages.create` call per passage, forced to answer through a single tool
 * (`record_graph`) whose input schema is the {@link Extraction} shape, so the
 * result is structured JSON rather than prose. The prompt lives in a versioned file
 * (prompts/extract-v1.md) read once when the extractor is created.
 *
 * - Retries: the SDK retries 408/409/429/5xx and connection errors with backoff
 *   (honouring retry-after); `maxRetries` defaults to 4 here.
 * - Validation: the tool input is checked item by item; malformed items are dropped,
 *   strings are trimmed, nothing is lowercased. An `alias` relation whose other name
 *   is missing from the entity list gets that name added as an entity (same type and
 *   description as the entity it aliases), because the pipeline only links entities.
 * - Cache: one JSON file per passage under `cacheDir` (default
 *   `.data/cache/extract/<model>/`), keyed by sha256 of prompt version + prompt file
 *   hash + model + title + text. A hit makes no HTTP request. Truncated
 *   (`max_tokens`) or refused answers are returned but not cached.
 * - The API key never appears in errors this module throws (messages are scrubbed,
 *   SDK errors are not attached as `cause`), and this module logs nothing.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import { ROOT } from '../config.js';
import type { ExtractedEntity, ExtractedRelation, Extraction, Extractor, PassageInput } from './types.js';

export const PROMPT_VERSION = 'extract-v1';
export const RECORD_GRAPH_TOOL_NAME = 'record_graph';
const MAX_TOKENS = 8192;
const REQUEST_TIMEOUT_MS = 300_000;

export interface AnthropicExtractorOptions {
  apiKey: string;
  model: string;
  /** API root, without /v1 (the SDK appends /v1/messages). Default: the SDK's (ANTHROPIC_BASE_URL or api.anthropic.com). */
  baseUrl?: string;
  /** Default `.data/cache/extract/<model>/` under the repository root. */
  cacheDir?: string;
  /** SDK retries for 429/5xx/connection errors. Default 4. */
  maxRetries?: number;
  /** Override the prompt file (tests, experiments). Default prompts/extract-v1.md next to this module. */
  promptPath?: string;
}

/** The tool the model must call; its input_schema is the Extraction shape. */
export const RECORD_GRAPH_TOOL = {
  name: RECORD_GRAPH_TOOL_NAME,
  description: 'Record the entities of the passage and the relations between them. Call exactly once with everything the passage states.',
  input_schema: {
    type: 'object' as const,
    properties: {
      entities: {
        type: 'array',
        description: 'Named entities, dates and key concepts of the passage.',
        items: {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'The name exactly as the passage writes it.' },
            type: { type: 'string', description: 'One PascalCase word: Person, Organization, Place, Date, Event, Work, Concept, or a more specific one.' },
            description: { type: 'string', description: 'One short sentence grounded in the passage.' },
          },
          required: ['name', 'type', 'description'],
          additionalProperties: false,
        },
      },
      relations: {
        type: 'array',
        description: 'Facts between two listed entities; predicate "alias" links a name to its abbreviation or other name.',
        items: {
          type: 'object',
          properties: {
            subject: { type: 'string', description: 'An entity name from the entities list.' },
            predicate: { type: 'string', description: 'A short verb phrase, e.g. "founded", "was born in", or "alias".' },
            object: { type: 'string', description: 'An entity name from the entities list.' },
          },
          required: ['subject', 'predicate', 'object'],
          additionalProperties: false,
        },
      },
    },
    required: ['entities', 'relations'],
    additionalProperties: false,
  },
};

export interface ExtractionPrompt {
  version: string;
  /** sha256 of the prompt file's bytes; part of the cache key. */
  sha256: string;
  system: string;
  user: string;
}

/** Reads and splits a prompt file ("@@system" / "@@user" sections, {{title}} / {{text}} placeholders). */
export function loadExtractionPrompt(file?: string): ExtractionPrompt {
  const candidates = file
    ? [file]
    : [fileURLToPath(new URL(`./prompts/${PROMPT_VERSION}.md`, import.meta.url)), path.join(ROOT, 'server', 'extractors', 'prompts', `${PROMPT_VERSION}.md`)];
  const found = candidates.find((f) => fs.existsSync(f));
  if (!found) throw new Error(`extraction prompt not found: ${candidates.join(' or ')}`);
  const raw = fs.readFileSync(found, 'utf8');
  const body = raw.replace(/<!--[\s\S]*?-->/g, '');
  const m = body.match(/^@@system[ \t]*\r?\n([\s\S]*?)^@@user[ \t]*\r?\n([\s\S]*)$/m);
  if (!m) throw new Error(`extraction prompt ${found} needs an "@@system" section followed by an "@@user" section`);
  const system = m[1]!.trim();
  const user = m[2]!.trim();
  if (!user.includes('{{text}}')) throw new Error(`extraction prompt ${found}: the @@user section has no {{text}} placeholder`);
  return { version: PROMPT_VERSION, sha256: createHash('sha256').update(raw).digest('hex'), system, user };
}

/** Fills {{title}} and {{text}} (no `$` pattern surprises: plain split/join). */
export function renderUserPrompt(template: string, passage: Pick<PassageInput, 'title' | 'text'>): string {
  return template
    .split('{{title}}')
    .join(passage.title ?? '')
    .split('{{text}}')
    .join(passage.text ?? '');
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v.replace(/\s+/g, ' ').trim() : undefined);
const aliasKey = (name: string) => name.toLowerCase();

/**
 * Checks a record_graph tool input: keeps well-formed entities ({name, type} non-empty
 * strings, description a string or absent) and relations (subject, predicate, object
 * non-empty strings, subject !== object); drops the rest and exact duplicates. Strings are
 * trimmed and inner whitespace collapsed; case is kept.
 */
export function validateExtraction(input: unknown): Extraction {
  const obj = input && typeof input === 'object' ? (input as Record<string, unknown>) : {};
  const entities: ExtractedEntity[] = [];
  const seenEntities = new Map<string, ExtractedEntity>();
  for (const item of Array.isArray(obj.entities) ? obj.entities : []) {
    if (!item || typeof item !== 'object') continue;
    const e = item as Record<string, unknown>;
    const name = str(e.name);
    const type = str(e.type);
    const description = e.description === undefined || e.description === null ? '' : str(e.description);
    if (!name || !type || description === undefined) continue;
    const key = `${name}\u0000${type}`;
    if (seenEntities.has(key)) continue;
    const ent = { name, type, description };
    seenEntities.set(key, ent);
    entities.push(ent);
  }
  const relations: ExtractedRelation[] = [];
  const seenRelations = new Set<string>();
  for (const item of Array.isArray(obj.relations) ? obj.relations : []) {
    if (!item || typeof item !== 'object') continue;
    const r = item as Record<string, unknown>;
    const subject = str(r.subject);
    const predicate = str(r.predicate);
    const object = str(r.object);
    if (!subject || !predicate || !object || subject === object) continue;
    const key = `${subject}\u0000${predicate}\u0000${object}`;
    if (seenRelations.has(key)) continue;
    seenRelations.add(key);
    relations.push({ subject, predicate, object });
  }
  // An alias names an entity: make sure both names are listed, so the link survives resolution.
  const byName = new Map<string, ExtractedEntity>();
  for (const e of entities) if (!byName.has(aliasKey(e.name))) byName.set(aliasKey(e.name), e);
  for (const r of relations) {
    if (r.predicate.toLowerCase() !== 'alias') continue;
    const s = byName.get(aliasKey(r.subject));
    const o = byName.get(aliasKey(r.object));
    if (s && !o) {
      const ent = { name: r.object, type: s.type, description: s.description };
      entities.push(ent);
      byName.set(aliasKey(ent.name), ent);
    } else if (o && !s) {
      const ent = { name: r.subject, type: o.type, description: o.description };
      entities.push(ent);
      byName.set(aliasKey(ent.name), ent);
    }
  }
  return { entities, relations };
}

/** File-system-safe directory name for a model id. */
function safeSegment(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]+/g, '_') || '_';
}

interface CacheEntry {
  key: string;
  promptVersion: string;
  model: string;
  createdAt: string;
  extraction: Extraction;
}

/** Thrown for failed API calls; the message is scrubbed of the API key and no SDK object is attached. */
export class AnthropicExtractionError extends Error {
  readonly status: number | undefined;
  readonly errorType: string | undefined;
  constructor(message: string, status?: number, errorType?: string) {
    super(message);
    this.name = 'AnthropicExtractionError';
    this.status = status;
    this.errorType = errorType;
  }
}

export function createAnthropicExtractor(opts: AnthropicExtractorOptions): Extractor {
  if (!opts.apiKey) throw new Error('anthropic extractor: apiKey is required');
  if (!opts.model) throw new Error('anthropic extractor: model is required');
  const prompt = loadExtractionPrompt(opts.promptPath);
  const cacheDir = path.resolve(opts.cacheDir ?? path.join(ROOT, '.data', 'cache', 'extract', safeSegment(opts.model)));
  const client = new Anthropic({
    apiKey: opts.apiKey,
    ...(opts.baseUrl ? { baseURL: opts.baseUrl } : {}),
    maxRetries: opts.maxRetries ?? 4,
    timeout: REQUEST_TIMEOUT_MS,
  });
  const apiKey = opts.apiKey;
  const scrub = (s: string) => (apiKey.length >= 4 ? s.split(apiKey).join('[redacted]') : s);
  const inFlight = new Map<string, Promise<Extraction>>();

  const cacheKey = (p: PassageInput) =>
    createHash('sha256')
      .update(JSON.stringify([prompt.version, prompt.sha256, opts.model, p.title ?? '', p.text ?? '']))
      .digest('hex');
  const cacheFile = (key: string) => path.join(cacheDir, key.slice(0, 2), `${key}.json`);

  function readCache(key: string): Extraction | undefined {
    try {
      const entry = JSON.parse(fs.readFileSync(cacheFile(key), 'utf8')) as CacheEntry;
      if (entry?.key !== key || !entry.extraction) return undefined;
      return validateExtraction(entry.extraction);
    } catch {
      return undefined; // missing or unreadable: extract again (and overwrite)
    }
  }

  function writeCache(key: string, extraction: Extraction): void {
    const file = cacheFile(key);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const entry: CacheEntry = { key, promptVersion: prompt.version, model: opts.model, createdAt: new Date().toISOString(), extraction };
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(entry));
    fs.renameSync(tmp, file);
  }

  async function callModel(passage: PassageInput): Promise<{ extraction: Extraction; cacheable: boolean }> {
    let message: Anthropic.Message;
    try {
      message = await client.messages.create({
        model: opts.model,
        max_tokens: MAX_TOKENS,
        system: prompt.system,
        messages: [{ role: 'user', content: renderUserPrompt(prompt.user, passage) }],
        tools: [RECORD_GRAPH_TOOL],
        tool_choice: { type: 'tool', name: RECORD_GRAPH_TOOL_NAME },
      });
    } catch (err) {
      const e = err as { status?: unknown; type?: unknown; message?: unknown; name?: unknown };
      const status = typeof e.status === 'number' ? e.status : undefined;
      const type = typeof e.type === 'string' ? e.type : undefined;
      const detail = typeof e.message === 'string' ? e.message : String(err);
      throw new AnthropicExtractionError(
        scrub(`anthropic extraction failed for passage ${passage.id} (model ${opts.model}): ${typeof e.name === 'string' ? e.name + ': ' : ''}${detail}`),
        status,
        type,
      );
    }
    const block = message.content.find((b) => b.type === 'tool_use' && b.name === RECORD_GRAPH_TOOL_NAME);
    if (block?.type !== 'tool_use') {
      if (message.stop_reason === 'refusal') return { extraction: { entities: [], relations: [] }, cacheable: false };
      throw new AnthropicExtractionError(
        scrub(`anthropic extraction for passage ${passage.id}: no ${RECORD_GRAPH_TOOL_NAME} call in the response (stop_reason ${message.stop_reason})`),
      );
    }
    return { extraction: validateExtraction(block.input), cacheable: message.stop_reason !== 'max_tokens' };
  }

  async function extractUncached(passage: PassageInput, key: string): Promise<Extraction> {
    const { extraction, cacheable } = await callModel(passage);
    if (cacheable) writeCache(key, extraction);
    return extraction;
  }

  return {
    id: `anthropic:${opts.model}`,
    async extract(passage: PassageInput): Promise<Extraction> {
      const key = cacheKey(passage);
      const cached = readCache(key);
      if (cached) return cached;
      const pending = inFlight.get(key);
      if (pending) return pending;
      const p = extractUncached(passage, key).finally(() => inFlight.delete(key));
      inFlight.set(key, p);
      return p;
    },
  };
}
