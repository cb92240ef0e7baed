/**
 * Source readers: JSONL corpora, folders of .txt/.md files, and the Hetionet curated graph.
 * Readers never throw on bad input lines or files: they yield a SourceProblem saying where and why,
 * and carry on with the rest. They stream, so large files are fine.
 */
export { deriveDocumentId, looksBinary } from './common.js';
export { readJsonl } from './jsonl.js';
export { firstHeading, readFolder, stripFrontMatter } from './folder.js';
export { readHetionet } from './hetionet.js';
export { chunkText, escapeIdPart, passageId, toPassages } from './chunking.js';
