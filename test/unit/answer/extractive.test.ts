// Subject: server/answer/extractive.ts + shared.ts: the offline answer and its sentence selection.
import fs from 'node:fs';
import path from 'node:path';
import { createAnthropicGenerator, userMessage } from '../../../server/answer/anthropic.js';
import { createExtractiveGenerator, extractiveAnswer, factsAnswer, sentences } from '../../../server/answer/extractive.js';
import { answerInput } from '../../../server/answer/shared.js';
import { ROOT } from '../../../server/config.js';
import { startMockAnthropic, type MockAnthropic } from '../../support/mock-anthropic.js';

describe('sentences', () => {
  it.each([
    [
      'The current opposition leader is Hon. Winnie Kiiza. She was elected in 2016.',
      ['The current opposition leader is Hon. Winnie Kiiza.', 'She was elected in 2016.'],
    ],
    ['Dr. Jane Smith founded it. It grew.', ['Dr. Jane Smith founded it.', 'It grew.']],
    ['A. B. Smith wrote the book. Critics liked it.', ['A. B. Smith wrote the book.', 'Critics liked it.']],
    ['The U.S. Army won the battle. The war ended.', ['The U.S. Army won the battle.', 'The war ended.']],
    [
      'He lives on St. Helena. Martin Luther King Jr. spoke there. Crowds came!',
      ['He lives on St. Helena.', 'Martin Luther King Jr. spoke there.', 'Crowds came!'],
    ],
    ['It rained. Then it stopped? Yes. 1990 was dry.', ['It rained.', 'Then it stopped?', 'Yes.', '1990 was dry.']],
  ])('splits %j without cutting titles, initials or acronyms', (text, expected) => {
    expect(sentences(text)).toEqual(expected);
  });
});

describe('extractiveAnswer', () => {
  it('keeps the name that follows a title in the answer sentence', () => {
    const passages = [
      { id: 'p1', title: 'Uganda', text: 'The current Leader of the Opposition in Uganda is Hon. Winnie Kiiza. Parliament sits in Kampala.' },
      { id: 'p2', title: 'Buyende', text: 'Buyende is a town in Uganda.' },
    ];
    const a = extractiveAnswer('Who is the current opposition leader in the country where Buyende is located?', passages);
    expect(a.text).toContain('Winnie Kiiza');
  });
});

/**
 * The demo question's shape: the top passage (Jamaica) matches the question's
 * words best but does not connect to the seed (Buyende); the evidence paths
 * lead from Buyende through Uganda to the passage that names the answer.
 */
const BUYENDE = 'Who is the current opposition leader in the country where Buyende is located?';
const buyende = {
  passages: [
    {
      id: 'jamaica',
      title: 'Leader of the Opposition (Jamaica)',
      text: 'The current holder of the post of Leader of the Opposition is Peter Phillips. He leads the opposition in the House.',
    },
    { id: 'buyende', title: 'Buyende', text: 'Buyende is a town in the Eastern Region of Uganda. It is the chief town of Buyende District.' },
    {
      id: 'uganda-opposition',
      title: 'Leader of Opposition (Uganda)',
      text:
        'The Leader of Opposition appoints and heads an alternative Shadow Cabinet. ' +
        'The current Leader of Opposition and first Ugandan female to hold the position is Hon. Winnie Kiiza of the Forum for Democratic Change.',
    },
  ],
  seeds: [{ id: 'e-buyende', name: 'Buyende', type: 'Location', activation: 1 }],
  entities: [
    { id: 'e-buyende', name: 'Buyende', type: 'Location', activation: 1 },
    { id: 'e-uganda', name: 'Uganda', type: 'Location', activation: 0.42 },
    { id: 'e-jamaica', name: 'Jamaica', type: 'Location', activation: 0.01 },
  ],
  paths: [
    { passageId: 'buyende', nodes: [{ id: 'e-buyende', name: 'Buyende' }], relationships: [] },
    {
      passageId: 'uganda-opposition',
      nodes: [
        { id: 'e-buyende', name: 'Buyende' },
        { id: 'e-uganda', name: 'Uganda' },
      ],
      relationships: [{ type: 'RELATED', predicate: 'located in' }],
    },
  ],
};

/** The same, but the answer sentence does not name Uganda: only its title and the graph do. */
const plain = {
  ...buyende,
  passages: buyende.passages.map((p) =>
    p.id === 'uganda-opposition'
      ? { ...p, text: 'The Leader of Opposition appoints and heads an alternative Shadow Cabinet. The current Leader of Opposition is Hon. Winnie Kiiza.' }
      : p,
  ),
};
const jamaicaPath = {
  passageId: 'jamaica',
  nodes: [
    { id: 'e-buyende', name: 'Buyende' },
    { id: 'e-jamaica', name: 'Jamaica' },
  ],
  relationships: [{ type: 'RELATED', predicate: 'near' }],
};

describe('extractiveAnswer with the graph evidence', () => {
  it('passages alone: the best word match wins when no name joins the hops', () => {
    const a = extractiveAnswer(BUYENDE, plain.passages);
    expect(a.text).toContain('Peter Phillips');
    expect(a.text).not.toContain('Winnie Kiiza');
  });

  it('passages alone: two sentences joined by a name both use (Uganda, Ugandan) beat the best word match', () => {
    const a = extractiveAnswer(BUYENDE, buyende.passages);
    expect(a.text).toBe(
      'Buyende is a town in the Eastern Region of Uganda. [buyende] ' +
        'The current Leader of Opposition and first Ugandan female to hold the position is Hon. Winnie Kiiza of the Forum for Democratic Change. [uganda-opposition]',
    );
  });

  it('the bridge entity of the evidence (Uganda, on the path and in the title) carries the answer to the second hop', () => {
    const a = extractiveAnswer(BUYENDE, { ...plain, paths: [...plain.paths, jamaicaPath] });
    expect(a.text).toBe(
      'Buyende is a town in the Eastern Region of Uganda. [buyende] The current Leader of Opposition is Hon. Winnie Kiiza. [uganda-opposition]',
    );
    expect(a.citations).toEqual(['buyende', 'uganda-opposition']);
    // The top entities alone do it too (vector and hybrid return no paths).
    expect(extractiveAnswer(BUYENDE, { passages: plain.passages, seeds: plain.seeds, entities: plain.entities }).text).toContain('Winnie Kiiza');
  });

  it('no sentence from a passage no evidence path reaches, even with room for more', () => {
    const a = extractiveAnswer(BUYENDE, plain, 4);
    expect(a.text).toContain('Winnie Kiiza');
    expect(a.citations).not.toContain('jamaica');
    expect(a.text).not.toContain('Peter Phillips');
  });

  it('falls back to every passage when no path reaches any of them', () => {
    const paths = [{ passageId: 'elsewhere', nodes: [{ id: 'e-buyende', name: 'Buyende' }], relationships: [] }];
    const a = extractiveAnswer(BUYENDE, { passages: plain.passages, seeds: plain.seeds, paths }, 4);
    expect(a.citations).toContain('jamaica');
  });

  it('one sentence: the one carrying the most of the question', () => {
    expect(extractiveAnswer(BUYENDE, buyende, 1).text).toBe(
      'The current Leader of Opposition and first Ugandan female to hold the position is Hon. Winnie Kiiza of the Forum for Democratic Change. [uganda-opposition]',
    );
  });
});

/** A knowledge graph without passages: Hetionet-like facts around Alzheimer's disease. */
const ad = { id: 'Disease::DOID:10652', name: "Alzheimer's disease", type: 'Disease' };
const end = (id: string, name: string, type: string) => ({ id, name, type });
const fact = (rank: number, subject: typeof ad, predicate: string, object: typeof ad, type: string, score: number) => ({
  rank,
  subject,
  type,
  predicate,
  object,
  score,
  text: `${subject.name} ${predicate} ${object.name}`,
});
const rivastigmine = end('Compound::DB00989', 'Rivastigmine', 'Compound');
const donepezil = end('Compound::DB00843', 'Donepezil', 'Compound');
const memory = end('Symptom::D008569', 'Memory Disorders', 'Symptom');
const hippocampus = end('Anatomy::UBERON:0001954', 'hippocampus', 'Anatomy');
const apoe = end('Gene::348', 'APOE', 'Gene');
const kgFacts = [
  fact(1, ad, 'associates', apoe, 'ASSOCIATES_DaG', 0.9),
  fact(2, rivastigmine, 'treats', ad, 'TREATS_CtD', 0.8),
  fact(3, ad, 'presents', memory, 'PRESENTS_DpS', 0.7),
  fact(4, donepezil, 'treats', ad, 'TREATS_CtD', 0.6),
  fact(5, ad, 'localizes', hippocampus, 'LOCALIZES_DlA', 0.5),
  fact(6, donepezil, 'binds', apoe, 'BINDS_CbG', 0.4),
];
const kg = { passages: [], seeds: [{ ...ad, activation: 1 }], facts: kgFacts };

describe('answers from facts (no passages)', () => {
  it('lists the entities of the type the question names, each with its supporting facts', () => {
    const a = extractiveAnswer("Which compounds treat Alzheimer's disease?", kg);
    expect(a.text).toBe(
      "Compounds linked: Rivastigmine (Rivastigmine treats Alzheimer's disease), " + "Donepezil (Donepezil treats Alzheimer's disease; Donepezil binds APOE).",
    );
    expect(a.citations).toEqual([]);
  });

  it('symptoms: the type word in the question picks them', () => {
    expect(factsAnswer("What symptoms does Alzheimer's disease present?", kg)).toBe(
      "Symptoms linked: Memory Disorders (Alzheimer's disease presents Memory Disorders).",
    );
  });

  it('no type named: the predicate the question uses picks the entities, labelled by their type', () => {
    expect(factsAnswer("Where in the body does Alzheimer's disease localize?", kg)).toBe(
      "Anatomy linked: hippocampus (Alzheimer's disease localizes hippocampus).",
    );
  });

  it('neither type nor predicate named: every entity the facts reach, best fact first', () => {
    const a = factsAnswer("Tell me about Alzheimer's disease", kg);
    expect(a.startsWith("Entities linked: APOE (Alzheimer's disease associates APOE; Donepezil binds APOE), Rivastigmine")).toBe(true);
    expect(a).toContain('hippocampus');
  });

  it('passages that do not answer leave the word to the facts; no facts and no passages is the no-answer sentence', () => {
    const a = extractiveAnswer("Which compounds treat Alzheimer's disease?", { ...kg, passages: [{ id: 'p', title: 'x', text: 'Nothing relevant here.' }] });
    expect(a.text).toMatch(/^Compounds linked: Rivastigmine/);
    expect(extractiveAnswer("Which compounds treat Alzheimer's disease?", { passages: [] }).text).toBe('The retrieved passages do not answer this question.');
  });

  it('the offline generator streams the facts answer', async () => {
    const gen = createExtractiveGenerator();
    let streamed = '';
    const it = gen.stream("Which compounds treat Alzheimer's disease?", kg);
    for (;;) {
      const n = await it.next();
      if (n.done) {
        expect(n.value.answer).toBe(streamed);
        expect(n.value.citations).toEqual([]);
        break;
      }
      streamed += n.value;
    }
    expect(streamed).toMatch(/^Compounds linked: Rivastigmine \(Rivastigmine treats Alzheimer's disease\)/);
  });
});

describe('answer input and the Claude prompt', () => {
  it('answerInput keeps the first topK passages, their paths and the entity paths, and the facts', () => {
    const input = answerInput(
      {
        ...buyende,
        paths: [...buyende.paths, { passageId: null, entityId: 'e-uganda', nodes: [{ id: 'e-buyende', name: 'Buyende' }], relationships: [] }],
        facts: kgFacts,
      },
      2,
    );
    expect(input.passages.map((p) => p.id)).toEqual(['jamaica', 'buyende']);
    expect(input.paths!.map((p) => p.passageId ?? p.entityId)).toEqual(['buyende', 'e-uganda']);
    expect(input.facts).toHaveLength(6);
  });

  it('the user message carries a Facts section beside the passages, and says when there are no passages', () => {
    const withBoth = userMessage('Q?', { passages: buyende.passages.slice(1, 2), facts: kgFacts.slice(0, 2) });
    expect(withBoth).toBe(
      'Passages:\n\n[buyende] Buyende\nBuyende is a town in the Eastern Region of Uganda. It is the chief town of Buyende District.\n\n' +
        "Facts:\n\n- Alzheimer's disease associates APOE\n- Rivastigmine treats Alzheimer's disease\n\nQuestion: Q?",
    );
    expect(userMessage('Q?', { passages: [], facts: kgFacts.slice(1, 2) })).toBe(
      "Passages:\n\n(none)\n\nFacts:\n\n- Rivastigmine treats Alzheimer's disease\n\nQuestion: Q?",
    );
    expect(userMessage('Q?', { passages: buyende.passages.slice(1, 2) })).not.toContain('Facts:');
  });
});

describe('anthropic generator with facts, against a local server speaking the Messages API', () => {
  let mock: MockAnthropic;
  beforeAll(async () => {
    mock = await startMockAnthropic();
  });
  afterAll(async () => mock.close());

  it('sends the facts in the prompt and answers from them, citing nothing', async () => {
    mock.setTextReply('Rivastigmine and Donepezil treat it.');
    const gen = createAnthropicGenerator({ apiKey: 'test-key-not-secret', model: 'claude-sonnet-4-6', baseUrl: mock.url, maxRetries: 0 });
    const r = await gen.complete("Which compounds treat Alzheimer's disease?", kg);
    expect(r.answer).toBe('Rivastigmine and Donepezil treat it.');
    expect(r.citations).toEqual([]);
    const req = mock.messageRequests.at(-1)!;
    expect(req.body.system).toContain('answer from the facts alone');
    expect(req.body.messages[0].content).toContain("Facts:\n\n- Alzheimer's disease associates APOE\n- Rivastigmine treats Alzheimer's disease\n");
    expect(req.body.messages[0].content).toContain('Passages:\n\n(none)');
  });
});

describe('the demo question on the demo corpus (recorded retrievals)', () => {
  const demo = JSON.parse(fs.readFileSync(path.join(ROOT, 'test', 'support', 'buyende-demo.json'), 'utf8'));
  it.each(['vector', 'hybrid', 'gated', 'ppr'])('%s: the offline answer names Winnie Kiiza and the bridge, Uganda', (mode) => {
    const a = extractiveAnswer(demo.question, answerInput(demo.modes[mode], 5));
    expect(a.text).toContain('Winnie Kiiza');
    expect(a.text).toContain('Buyende is a town in the Eastern Region of Uganda.');
    expect(a.text).not.toContain('Peter Phillips');
    expect(a.citations).toEqual(['musique-01040', 'musique-01045']);
  });
});
