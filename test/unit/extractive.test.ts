import { extractiveAnswer, sentences } from '../../server/answer/extractive.js';

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
