/**
 * BERT uncased WordPiece tokenizer (the one all-MiniLM-L6-v2 uses), written to give the same ids
 * as Hugging Face `tokenizers` for a `BertNormalizer(lowercase) + BertPreTokenizer + WordPiece`
 * pipeline:
 *
 *  1. clean: drop NUL, U+FFFD and control/format chars (keeping \t \n \r), map whitespace to ' ';
 *  2. put spaces around CJK ideographs;
 *  3. strip accents (NFD, drop non-spacing marks), then lowercase;
 *  4. split on whitespace, and split out every punctuation char as its own word;
 *  5. greedy longest-match-first WordPiece with '##' continuations; a word with no full match, or
 *     longer than 100 chars, becomes [UNK];
 *  6. [CLS] tokens [SEP], truncating the tokens so the whole fits in maxLength.
 */
import { readFileSync } from 'node:fs';

const RE_CONTROL = /\p{C}/u;
const RE_WHITESPACE = /\p{White_Space}/u;
const RE_PUNCT = /\p{P}/u;
const RE_MARK_NONSPACING = /\p{Mn}/gu;

function isCjk(cp: number): boolean {
  return (
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x20000 && cp <= 0x2a6df) ||
    (cp >= 0x2a700 && cp <= 0x2b73f) ||
    (cp >= 0x2b740 && cp <= 0x2b81f) ||
    (cp >= 0x2b820 && cp <= 0x2ceaf) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x2f800 && cp <= 0x2fa1f)
  );
}

/** Lowercases char by char, as HF tokenizers does (so a final 'Σ' becomes 'σ', not 'ς'). */
function lowerPerChar(s: string): string {
  let out = '';
  for (const ch of s) out += ch.toLowerCase();
  return out;
}

function isAsciiPunct(cp: number): boolean {
  return (cp >= 33 && cp <= 47) || (cp >= 58 && cp <= 64) || (cp >= 91 && cp <= 96) || (cp >= 123 && cp <= 126);
}

export interface WordPieceOptions {
  /** Longest word (in chars) that is split into pieces; longer ones become [UNK]. */
  maxInputCharsPerWord?: number;
}

export class WordPieceTokenizer {
  readonly vocab: ReadonlyMap<string, number>;
  readonly clsId: number;
  readonly sepId: number;
  readonly padId: number;
  readonly unkId: number;
  private readonly maxInputCharsPerWord: number;
  private readonly cache = new Map<string, number[]>();

  constructor(vocab: Map<string, number>, opts: WordPieceOptions = {}) {
    this.vocab = vocab;
    const id = (t: string): number => {
      const v = vocab.get(t);
      if (v === undefined) throw new Error(`vocabulary has no ${t} token`);
      return v;
    };
    this.clsId = id('[CLS]');
    this.sepId = id('[SEP]');
    this.padId = id('[PAD]');
    this.unkId = id('[UNK]');
    this.maxInputCharsPerWord = opts.maxInputCharsPerWord ?? 100;
  }

  /** Loads a BERT vocab.txt: one token a line, the id is the line number. */
  static fromVocabFile(path: string, opts?: WordPieceOptions): WordPieceTokenizer {
    const lines = readFileSync(path, 'utf8').split('\n');
    if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    const vocab = new Map<string, number>();
    lines.forEach((line, i) => {
      const tok = line.replace(/\r$/, '');
      if (!vocab.has(tok)) vocab.set(tok, i);
    });
    return new WordPieceTokenizer(vocab, opts);
  }

  /**
   * Loads the vocabulary of a Hugging Face tokenizer.json, which must describe the pipeline this
   * class implements (BertNormalizer with lowercasing, BertPreTokenizer, WordPiece with '##').
   */
  static fromTokenizerJson(path: string, opts?: WordPieceOptions): WordPieceTokenizer {
    const spec = JSON.parse(readFileSync(path, 'utf8')) as {
      normalizer?: { type?: string; lowercase?: boolean; strip_accents?: boolean | null };
      pre_tokenizer?: { type?: string };
      model?: { type?: string; vocab?: Record<string, number>; continuing_subword_prefix?: string; max_input_chars_per_word?: number };
    };
    const m = spec.model;
    const ok =
      m?.type === 'WordPiece' &&
      m.vocab !== undefined &&
      (m.continuing_subword_prefix ?? '##') === '##' &&
      spec.normalizer?.type === 'BertNormalizer' &&
      spec.normalizer.lowercase === true &&
      spec.normalizer.strip_accents !== false &&
      spec.pre_tokenizer?.type === 'BertPreTokenizer';
    if (!ok || !m?.vocab) throw new Error(`${path}: not a lowercasing BERT WordPiece tokenizer`);
    return new WordPieceTokenizer(new Map(Object.entries(m.vocab)), { maxInputCharsPerWord: m.max_input_chars_per_word, ...opts });
  }

  /** Normalises and splits into words (steps 1-4). */
  basicTokenize(text: string): string[] {
    // 1 + 2: clean and pad CJK chars, code point by code point.
    let cleaned = '';
    for (const ch of text) {
      const cp = ch.codePointAt(0)!;
      if (cp < 128) {
        if (cp === 9 || cp === 10 || cp === 13 || cp === 32) cleaned += ' ';
        else if (cp === 0 || cp < 32 || cp === 127) continue;
        else cleaned += ch;
        continue;
      }
      if (cp === 0xfffd) continue;
      if (RE_CONTROL.test(ch)) continue;
      if (RE_WHITESPACE.test(ch)) {
        cleaned += ' ';
        continue;
      }
      cleaned += isCjk(cp) ? ` ${ch} ` : ch;
    }
    // 3: strip accents, then lowercase (the order HF tokenizers uses).
    // eslint-disable-next-line no-control-regex
    const normalised = /^[\x00-\x7f]*$/.test(cleaned) ? cleaned.toLowerCase() : lowerPerChar(cleaned.normalize('NFD').replace(RE_MARK_NONSPACING, ''));
    // 4: whitespace split, punctuation isolated.
    const words: string[] = [];
    let cur = '';
    for (const ch of normalised) {
      const cp = ch.codePointAt(0)!;
      if (cp === 32 || (cp >= 128 && RE_WHITESPACE.test(ch))) {
        if (cur) {
          words.push(cur);
          cur = '';
        }
      } else if (isAsciiPunct(cp) || (cp >= 128 && RE_PUNCT.test(ch))) {
        if (cur) {
          words.push(cur);
          cur = '';
        }
        words.push(ch);
      } else {
        cur += ch;
      }
    }
    if (cur) words.push(cur);
    return words;
  }

  /** WordPiece ids of one basic-tokenized word (step 5). */
  private wordIds(word: string): number[] {
    const hit = this.cache.get(word);
    if (hit) return hit;
    // Code-unit offsets of each code point, so slices never cut a surrogate pair.
    const offs: number[] = [];
    for (let i = 0; i < word.length; ) {
      offs.push(i);
      i += word.codePointAt(i)! > 0xffff ? 2 : 1;
    }
    offs.push(word.length);
    const n = offs.length - 1;
    let ids: number[] = [];
    if (n > this.maxInputCharsPerWord) {
      ids = [this.unkId];
    } else {
      let start = 0;
      while (start < n) {
        let end = n;
        let found: number | undefined;
        while (start < end) {
          const sub = word.slice(offs[start], offs[end]);
          found = this.vocab.get(start > 0 ? `##${sub}` : sub);
          if (found !== undefined) break;
          end--;
        }
        if (found === undefined) {
          ids = [this.unkId];
          break;
        }
        ids.push(found);
        start = end;
      }
    }
    if (this.cache.size >= 100_000) this.cache.clear();
    this.cache.set(word, ids);
    return ids;
  }

  /** Token ids without special tokens. */
  tokenizeToIds(text: string): number[] {
    const out: number[] = [];
    for (const w of this.basicTokenize(text)) for (const id of this.wordIds(w)) out.push(id);
    return out;
  }

  /** [CLS] ids [SEP], truncated so the result has at most maxLength ids (step 6). */
  encode(text: string, maxLength = 256): number[] {
    if (maxLength < 2) throw new Error('maxLength must be at least 2');
    const ids = this.tokenizeToIds(text);
    if (ids.length > maxLength - 2) ids.length = maxLength - 2;
    return [this.clsId, ...ids, this.sepId];
  }
}
