// Subject: server/extractors/offline/: the rule-based extractor (names, relations, descriptions).
import { createOfflineExtractor, DESCRIPTION_MAX_CHARS, MAX_RELATIONS_PER_SENTENCE } from '../../../server/extractors/offline/index.js';
import { normalizeName } from '../../../server/graph/facts.js';
import type { Extraction, ExtractedEntity } from '../../../server/extractors/types.js';

const extractor = createOfflineExtractor();

async function run(title: string, text: string): Promise<Extraction> {
  return extractor.extract({ id: 't', title, text });
}

function entity(x: Extraction, name: string): ExtractedEntity | undefined {
  return x.entities.find((e) => normalizeName(e.name) === normalizeName(name));
}

/** The predicates of the relations from subject to object, in extraction order. */
function predicates(x: Extraction, subject: string, object: string): string[] {
  return x.relations.filter((r) => r.subject === subject && r.object === object).map((r) => r.predicate);
}

function names(x: Extraction): string[] {
  return x.entities.map((e) => e.name);
}

const SNOW_TEXT = 'Hank Snow was born in Brooklyn, Nova Scotia on May 9, 1914. He moved to Nashville, Tennessee in 1949 and joined the Grand Ole Opry.';

describe('offline extractor', () => {
  it('has the documented id', () => {
    expect(extractor.id).toBe('offline:v21');
  });

  it('extracts a named person and a place with guessed types', async () => {
    const x = await run('Marie Curie', 'Marie Curie was born in Warsaw. She married Pierre Curie in Paris.');
    expect(entity(x, 'Marie Curie')?.type).toBe('Person');
    expect(entity(x, 'Pierre Curie')?.type).toBe('Person');
    expect(entity(x, 'Warsaw')?.type).toBe('Place');
    expect(entity(x, 'Paris')?.type).toBe('Place');
  });

  it('keeps multiword proper names with connectors whole, plus their parts', async () => {
    const x = await run('Election', 'In 2015 the Green Party of England and Wales won a seat in Brighton.');
    expect(names(x)).toContain('Green Party of England and Wales');
    expect(entity(x, 'England')).toBeDefined();
    expect(entity(x, 'Wales')).toBeDefined();
    expect(entity(x, '2015')?.type).toBe('Date');
  });

  it('adds the title as an entity even when the text never names it, stripping a disambiguator that only types it', async () => {
    const x = await run('The Goose Woman (film)', 'It was directed by Clarence Brown and stars Louise Dresser.');
    const t = entity(x, 'The Goose Woman');
    expect(t).toBeDefined();
    expect(t?.name).toBe('The Goose Woman');
    expect(t?.type).toBe('Work');
    // title entity description = first sentence(s)
    expect(t?.description).toContain('It was directed by Clarence Brown');
    // the title links to the entities of the passage, with the verb of the sentence
    expect(x.relations).toContainEqual({ subject: 'The Goose Woman', predicate: 'direct_by', object: 'Clarence Brown' });
  });

  it("keeps a dated title whole, its own facts apart from its namesakes', and gives its short form the facts too", async () => {
    const x = await run(
      'The Picture of Dorian Gray (1913 film)',
      'The Picture of Dorian Gray (1913) is an American silent film, directed by Phillips Smalley, starring Wallace Reid.',
    );
    expect(entity(x, 'The Picture of Dorian Gray (1913 film)')?.type).toBe('Work');
    expect(predicates(x, 'The Picture of Dorian Gray (1913 film)', 'The Picture of Dorian Gray')).toEqual(['alias']);
    expect(predicates(x, 'The Picture of Dorian Gray (1913 film)', 'Phillips Smalley')).toEqual(['direct_by']);
    expect(predicates(x, 'The Picture of Dorian Gray', 'Phillips Smalley')).toEqual(['direct_by']);
    // a person's: kin the text gives the short name is the dated title's
    const p = await run('Bill Smith (footballer, born 1897)', 'Bill Smith (1897 – 1960) was an English footballer. He was the son of John Smith.');
    expect(predicates(p, 'Bill Smith (footballer, born 1897)', 'John Smith')).toEqual(['son_of']);
  });

  it('links two entities that co-occur in a sentence with the verb lemma as predicate', async () => {
    const x = await run('Hank Snow', SNOW_TEXT);
    expect(x.relations).toContainEqual({ subject: 'Hank Snow', predicate: 'born_in', object: 'Brooklyn' });
    // pronoun sentence: the title is the subject of the verb that governs the entity
    expect(x.relations).toContainEqual({ subject: 'Hank Snow', predicate: 'join', object: 'Grand Ole Opry' });
    // "<noun> of" predicates
    const y = await run('Teutberga', 'Teutberga was a queen of Lotharingia. She was a daughter of Boso the Elder.');
    expect(y.relations).toContainEqual({ subject: 'Teutberga', predicate: 'queen_of', object: 'Lotharingia' });
    expect(y.relations).toContainEqual({ subject: 'Teutberga', predicate: 'daughter_of', object: 'Boso the Elder' });
    // a role word or two between "of" and the name: "daughter of novelist J. G. Ballard", "wife of film director X"
    const z = await run(
      'Bea Ballard',
      'Bea Ballard is a producer. She is the daughter of novelist J. G. Ballard. She was the wife of film director Tom Smith.',
    );
    expect(z.relations).toContainEqual({ subject: 'Bea Ballard', predicate: 'daughter_of', object: 'J. G. Ballard' });
    expect(z.relations).toContainEqual({ subject: 'Bea Ballard', predicate: 'wife_of', object: 'Tom Smith' });
  });

  it('gives a name coordinated with another the predicate that links the other', async () => {
    // "child of A and B": the title is B's child too (a pronoun subject: the title's relations)
    const x = await run('Karl Pius', 'Karl Pius was an archduke. He was the youngest child of Leopold Salvator and Blanca of Spain.');
    expect(x.relations).toContainEqual({ subject: 'Karl Pius', predicate: 'child_of', object: 'Leopold Salvator' });
    expect(x.relations).toContainEqual({ subject: 'Karl Pius', predicate: 'child_of', object: 'Blanca of Spain' });
    // "son of A, Duke of C, and of his wife B", with a parenthesised aside; the subject named in the sentence
    const y = await run(
      'Adolph of Cleves',
      'Adolph of Cleves (1425 – 1492) was the youngest son of Adolph Gerhard, Duke of Cleves (died 1448), and of his wife Marie of Burgundy.',
    );
    expect(y.relations).toContainEqual({ subject: 'Adolph of Cleves', predicate: 'son_of', object: 'Marie of Burgundy' });
    // co-directors share "directed by"; a name after a full stop or a verb of its own is not coordinated
    const z = await run('Night Tide', 'Night Tide is a 1961 film. It was directed by Curtis Harrington and Denis Sanders. Roger Corman later bought it.');
    expect(z.relations).toContainEqual({ subject: 'Night Tide', predicate: 'direct_by', object: 'Curtis Harrington' });
    expect(z.relations).toContainEqual({ subject: 'Night Tide', predicate: 'direct_by', object: 'Denis Sanders' });
    expect(z.relations.filter((r) => r.object === 'Roger Corman').map((r) => r.predicate)).not.toContain('direct_by');
    // the rule needs a comma or a conjunction between the two names: "son of A in B" is not coordination
    const w = await run('Huo Yi', 'Huo Yi was the son of Huo Jun in Nanjun.');
    expect(predicates(w, 'Huo Yi', 'Nanjun')).not.toContain('son_of');
  });

  it('does not take a sentence-initial kin noun before "of" into the name after it', async () => {
    const x = await run('Helen of Greece', 'Helen of Greece was a queen. Daughter of King Constantine I of Greece, Princess Helen grew up in Athens.');
    expect(entity(x, 'King Constantine I of Greece')).toBeDefined();
    expect(entity(x, 'Constantine I of Greece')).toBeDefined();
    expect(names(x).filter((n) => n.startsWith('Daughter'))).toEqual([]);
  });

  it('reads a title that ends in "!" or "?" as the start of its sentence, not a sentence of its own', async () => {
    const x = await run(
      'Love, Honor and Oh-Baby!',
      'Love, Honor and Oh-Baby! is a 1940 American comedy film directed by Charles Lamont. It stars Wallace Ford.',
    );
    const directed = x.relations.filter((r) => r.subject === 'Love, Honor and Oh-Baby!' && r.object === 'Charles Lamont');
    expect(directed.map((r) => r.predicate)).toContain('direct_by');
    const asked = await run('Where Does it Hurt?', 'Where Does it Hurt? is a 1972 American comedy film directed by Rod Amateau.');
    expect(asked.relations.filter((r) => r.object === 'Rod Amateau').map((r) => r.predicate)).toContain('direct_by');
  });

  it('reads a passage that opens with its title as naming the title there, whatever names its words make', async () => {
    // "and the" splits the words into two names; "lit." is no sentence's end
    const goldfoot = await run(
      'Dr. Goldfoot and the Girl Bombs',
      'Dr. Goldfoot and the Girl Bombs( Italian:" Le spie vengono dal semifreddo", lit. " The spies who came in from the cool") is a 1966 Eurospy comedy film, made in Technicolor and directed by Mario Bava.',
    );
    expect(predicates(goldfoot, 'Dr. Goldfoot and the Girl Bombs', 'Mario Bava')).toEqual(['direct_by']);
    expect(goldfoot.relations.filter((r) => r.object === 'Mario Bava' && r.predicate === 'direct_by').map((r) => r.subject)).toEqual([
      'Dr. Goldfoot and the Girl Bombs',
    ]);
    // "!" inside the title, and a sentence that would start with its comma
    const stop = await run(
      'Stop! Or My Mom Will Shoot',
      'Stop! Or My Mom Will Shoot is a 1992 American buddy cop action comedy film directed by Roger Spottiswoode.',
    );
    expect(predicates(stop, 'Stop! Or My Mom Will Shoot', 'Roger Spottiswoode')).toEqual(['direct_by']);
    const deep = await run(
      'Man from the Deep River',
      'Il paese del sesso selvaggio( English: The Country of Savage Sex), also known as Man From Deep River and Sacrifice!, is a 1972 Italian film directed by Umberto Lenzi.',
    );
    expect(predicates(deep, 'Man from the Deep River', 'Umberto Lenzi')).toEqual(['direct_by']);
    // the title ends where a word ends
    const cohen = await run('Dana Blankstein', 'Dana Blankstein-Cohen (born March 3, 1981) is an Israeli film director.');
    expect(names(cohen)).toContain('Dana Blankstein-Cohen');
  });

  it("gives the title the verb that reaches a later mention in an entity's first sentence, where the first reaches none", async () => {
    const x = await run(
      'Joanna Elisabeth of Holstein-Gottorp',
      'Johanna Elisabeth of Holstein-Gottorp (24 October 1712 – 30 May 1760) was a German regent, Princess of Anhalt-Zerbst by marriage to Christian August, Prince of Anhalt-Zerbst, and regent of Anhalt-Zerbst from 1747 to 1752.',
    );
    expect(predicates(x, 'Joanna Elisabeth of Holstein-Gottorp', 'Anhalt-Zerbst')).toEqual(['regent_of']);
  });

  it('rejoins a hyphen spaced out after its first half, but not a suspended one', async () => {
    const x = await run(
      'Monster a Go-Go',
      'Monster a Go- Go is a 1965 American science- fiction film directed by Bill Rebane. It was shot in one- and two-reel parts.',
    );
    expect(entity(x, 'Go-Go')).toBeDefined();
    expect(names(x)).not.toContain('Go');
    expect(predicates(x, 'Monster a Go-Go', 'Bill Rebane')).toContain('direct_by');
    expect(entity(x, 'Monster a Go-Go')?.description).toContain('science-fiction');
    expect(entity(x, 'Monster a Go-Go')?.description).not.toContain('one-and');
  });

  it('reads a participle the tagger calls an adjective as the verb: "is married to", "was educated at"', async () => {
    const x = await run(
      'Emmanuelle Seigner',
      'Emmanuelle Seigner (born 22 June 1966) is a French actress. She is married to Polish film director Roman Polanski. She was educated at the Lycée Louis-le-Grand.',
    );
    const pred = (object: string) => predicates(x, 'Emmanuelle Seigner', object);
    expect(pred('Roman Polanski')).toEqual(['married_to']);
    expect(pred('Lycée Louis-le-Grand')).toEqual(['educated_at']);
    // an adjective that is no participle stays no verb: "a French actress" is no predicate
    expect(pred('French')).toEqual(['mentions']);
    // the nationality of the name the verb reaches is not the verb's object
    expect(pred('Polish')).not.toContain('married_to');
  });

  it('a place of birth is no one\'s son: "born in 1345 in Burg Grebenstein, the son of X" is the person\'s', async () => {
    const x = await run(
      'Hermann II, Landgrave of Hesse',
      'Hermann II of Hesse (1341 – 24 May 1413) was Landgrave of Hesse. Hermann II, called "the Scholar", was born in 1345 in Burg Grebenstein (Grebenstein castle), the son of Louis the Junker.',
    );
    // "Hermann II" is the title's name shortened: the fact is the title's
    expect(predicates(x, 'Hermann II, Landgrave of Hesse', 'Louis the Junker')).toEqual(['son_of']);
    expect(predicates(x, 'Burg Grebenstein', 'Louis the Junker')).not.toContain('son_of');
    expect(x.relations.filter((r) => r.predicate === 'son_of').map((r) => r.subject)).toEqual(['Hermann II, Landgrave of Hesse']);
  });

  it('"He was born in Nice, the son of X": the place is no son, the title is', async () => {
    const x = await run('Georges Lautner', 'Georges Lautner was a French film director. He was born in Nice, the son of actress Renée Saint-Cyr.');
    expect(predicates(x, 'Nice', 'Renée Saint-Cyr')).not.toContain('son_of');
    expect(predicates(x, 'Georges Lautner', 'Renée Saint-Cyr')).toEqual(['son_of']);
  });

  it('a part of another person\'s name is no mention of the title person ("Muhammad" of "Muhammad bin Musafir")', async () => {
    const x = await run(
      'Marzuban ibn Muhammad',
      'Marzuban ibn Muhammad (died 957) was the Sallarid ruler of Azerbaijan. He was the son of Muhammad bin Musafir, the ruler of Tarum.',
    );
    expect(predicates(x, 'Marzuban ibn Muhammad', 'Muhammad bin Musafir')).toEqual(['son_of']);
    expect(predicates(x, 'Muhammad bin Musafir', 'Marzuban ibn Muhammad')).toEqual([]);
    // a part of a name that is the title person's own still is: "Sackville-West" on Mortimer Sackville-West's page
    const y = await run(
      'Mortimer Sackville-West, 1st Baron Sackville',
      'Mortimer Sackville-West, 1st Baron Sackville was a British courtier. Sackville-West was the fourth son of George Sackville-West, 5th Earl De La Warr.',
    );
    expect(predicates(y, 'Mortimer Sackville-West, 1st Baron Sackville', 'George Sackville-West')).toEqual(['son_of']);
  });

  it('"the son of A and the nephew of B": the second kin phrase is the subject\'s, not A\'s', async () => {
    const x = await run(
      'Irdana Khan',
      'Irdana Khan was a ruler of Kokand. He was the son of Abdul Rahim Bey and the nephew of Abdul Kahrim Bey. Tom Gale was the son of the film director Carlos Ruiz, and grandson of Pedro Ruiz.',
    );
    expect(predicates(x, 'Irdana Khan', 'Abdul Rahim Bey')).toEqual(['son_of']);
    expect(predicates(x, 'Irdana Khan', 'Abdul Kahrim Bey')).toEqual(['nephew_of']);
    expect(predicates(x, 'Abdul Rahim Bey', 'Abdul Kahrim Bey')).toEqual(['related_to']);
    // the kin's descriptive words between "of" and its name, and a comma before "and"
    expect(predicates(x, 'Carlos Ruiz', 'Pedro Ruiz')).toEqual(['related_to']);
    expect(predicates(x, 'Tom Gale', 'Pedro Ruiz')).toEqual(['grandson_of']);
  });

  it('a sentence that opens with its kin: "The son of X, he ..." and "Daughter of X and Y, Princess Helen spent ..." are the title\'s', async () => {
    const x = await run('Cleomenes II', 'Cleomenes II was a king of Sparta. The son of Cleombrotus I, he succeeded his brother Agesipolis II.');
    expect(predicates(x, 'Cleomenes II', 'Cleombrotus I')).toEqual(['son_of']);
    const y = await run(
      'Helen of Greece and Denmark',
      'Helen of Greece and Denmark was the queen mother of Romania. Daughter of King Constantine I of Greece and his wife, Princess Sophia of Prussia, Princess Helen spent her childhood in Greece.',
    );
    expect(predicates(y, 'Helen of Greece and Denmark', 'King Constantine I of Greece')).toEqual(['daughter_of']);
    expect(predicates(y, 'Helen of Greece and Denmark', 'Princess Sophia of Prussia')).toEqual(['daughter_of']);
    // a kin phrase that is the sentence's subject, not fronted, writes none: "The son of a rich man marries ..."
    const z = await run('Never the Twain', 'Never the Twain is a film. The son of Lord Henry Clive marries the daughter of a beggar.');
    expect(z.relations.filter((r) => r.predicate === 'son_of')).toEqual([]);
  });

  it('"the film ..." after an opening phrase is the title, and so is a participle phrase\'s agent ("Directed by X, the film was ...")', async () => {
    const x = await run('Before Sunset', 'Before Sunset is a 2004 romantic drama film. Like its predecessor, the film was directed by Richard Linklater.');
    expect(predicates(x, 'Before Sunset', 'Richard Linklater')).toEqual(['direct_by']);
    const y = await run(
      'Iron Man 3',
      'Iron Man 3 is a 2013 superhero film. Directed by Shane Black and written by Justin Theroux, the film was distributed by Walt Disney Studios.',
    );
    expect(predicates(y, 'Iron Man 3', 'Shane Black')).toEqual(['direct_by']);
    expect(predicates(y, 'Iron Man 3', 'Justin Theroux')).toEqual(['write_by']);
    expect(predicates(y, 'Iron Man 3', 'Walt Disney Studios')).toEqual(['distribute_by']);
    // an opening phrase that is no participle's leaves its names alone; one with a subject of its own is a clause, not an opening
    const z = await run(
      'Communist Party of Ruritania',
      'Communist Party of Ruritania is a party. After the death of Josip Broz, the party was led by Milan Kovac.',
    );
    expect(predicates(z, 'Communist Party of Ruritania', 'Milan Kovac')).toEqual(['lead_by']);
    expect(predicates(z, 'Communist Party of Ruritania', 'Josip Broz')).toEqual(['mentions']);
    const w = await run('The Quiet Ones', 'The Quiet Ones is a band. When he left in 1990, the group was joined by Tom Varga.');
    expect(predicates(w, 'The Quiet Ones', 'Tom Varga')).toEqual(['mentions']);
  });

  it('a part of the title as the subject is the title\'s: "The film\'s music was composed by X", "Music of the film ..."', async () => {
    const x = await run('The Straw Hat', "The Straw Hat is a 1974 Soviet film. The film's music was composed by Isaac Schwartz.");
    expect(predicates(x, 'The Straw Hat', 'Isaac Schwartz')).toEqual(['compose_by']);
    const y = await run('Agni', 'Agni is a 2004 Bengali film. Music of the film has been composed by Ashok Bhadra.');
    expect(predicates(y, 'Agni', 'Ashok Bhadra')).toEqual(['compose_by']);
    const z = await run('Yaadein', 'Yaadein is a 1964 film. The music for the film was composed by Vasant Desai.');
    expect(predicates(z, 'Yaadein', 'Vasant Desai')).toEqual(['compose_by']);
  });

  it('a verbless fragment that opens with a participle is the title\'s: "Starring A, B in the lead roles and music composed by C"', async () => {
    const x = await run(
      'Thodallullu',
      'Thodallullu is a 1988 Telugu comedy film directed by Relangi Narasimha Rao. Starring Rajendra Prasad, Chandra Mohan, Gautami in the lead roles and music composed by Raj-Koti.',
    );
    expect(predicates(x, 'Thodallullu', 'Rajendra Prasad')).toEqual(['star']);
    expect(predicates(x, 'Thodallullu', 'Raj-Koti')).toEqual(['compose_by']);
    // without "the", wink tags "lead" a verb: still no verb of the fragment's own
    const w = await run(
      'Mister Pellam',
      'Mister Pellam is a 1994 Telugu film. Starring Jagapati Babu, Priyamani in lead roles and music composed by Agashtya.',
    );
    expect(predicates(w, 'Mister Pellam', 'Jagapati Babu')).toEqual(['star']);
    expect(predicates(w, 'Mister Pellam', 'Agashtya')).toEqual(['compose_by']);
    // a participle before a clause of its own is no fragment: "Following the war, Smith became ..." gives the title nothing
    const y = await run('Acme Works', 'Acme Works is a company. Following the war John Smith became the director of Zenith Motors.');
    expect(predicates(y, 'Acme Works', 'Zenith Motors')).toEqual(['mentions']);
  });

  it('a fragment that opens with an "-en" participle is the title\'s too: "Written and directed by X."', async () => {
    const x = await run('Evil Dead II', 'Evil Dead II is a 1987 American horror film. Written and directed by Sam Raimi.');
    expect(predicates(x, 'Evil Dead II', 'Sam Raimi')).toEqual(['direct_by']);
  });

  it('gives the title the verb of a later sentence about it where an earlier one only names the entity', async () => {
    // the co-occurrence pass links the pair first ("film with Sam Raimi": related_to); the later verb replaces it
    const x = await run('Evil Dead II', 'Evil Dead II is a 1987 film with Sam Raimi. It was written by Sam Raimi.');
    expect(predicates(x, 'Evil Dead II', 'Sam Raimi')).toEqual(['write_by']);
    // the first sentence gave "mentions": the later verb is taken instead
    const y = await run('Evil Dead II', 'Evil Dead II is a 1987 American horror film. Sam Raimi was on set daily. It was written by Sam Raimi.');
    expect(predicates(y, 'Evil Dead II', 'Sam Raimi')).toEqual(['write_by']);
    // a later sentence that is not about the title gives it nothing
    const z = await run('Evil Dead II', 'Evil Dead II is a 1987 film with Sam Raimi. Bruce Campbell was written into it by Sam Raimi.');
    expect(predicates(z, 'Evil Dead II', 'Sam Raimi')).toEqual(['related_to']);
  });

  it('reads a first name wink tags as a verb at the start of a sentence as part of the name ("Drew Barrymore appeared")', async () => {
    const x = await run('Test Film', 'Test Film is a 1999 drama film. Drew Barrymore appeared in it. Grant Gee edited it.');
    expect(names(x)).toEqual(expect.arrayContaining(['Drew Barrymore', 'Grant Gee']));
    expect(names(x)).not.toContain('Barrymore');
    // a participle and "Born" stay verbs; so does a question's opening verb
    const y = await run('Lord Lyon', 'Lord Lyon was a peer. Born Claude Lyon, he was styled Lord Lyon. Directed by John Ford, the film was a hit.');
    expect(names(y)).not.toContain('Born Claude Lyon');
    expect(names(y)).not.toContain('Directed');
  });

  it('reads "The film stars X" as a verb, which wink tags as a plural noun', async () => {
    const x = await run('Interview with a Hitman', 'Interview with a Hitman is a 2012 film. The film stars Luke Goss and Caroline Tillette.');
    expect(predicates(x, 'Interview with a Hitman', 'Luke Goss')).toEqual(['star']);
    expect(predicates(x, 'Interview with a Hitman', 'Caroline Tillette')).toEqual(['star']);
    // only the verbs wink mistags: "the band members John ..." stays a noun
    const y = await run('The Quiet Ones', 'The Quiet Ones is a band. The band members John Smith and Paul Jones wrote songs.');
    expect(y.relations.filter((r) => r.predicate.startsWith('member'))).toEqual([]);
  });

  it('"born ... to A and B": the person is child_of each parent, a parent\'s whole name too', async () => {
    const x = await run(
      'Eleanor of Brittany (abbess)',
      'Eleanor of Brittany (1275 – 16 May 1342) was an abbess of Fontevrault. She was born in England to John II, Duke of Brittany and Beatrice of England, and in 1281 entered Amesbury Abbey.',
    );
    expect(predicates(x, 'Eleanor of Brittany', 'Beatrice of England')).toEqual(['child_of']);
    expect(predicates(x, 'Eleanor of Brittany', 'John II, Duke of Brittany')).toEqual(['child_of']);
    // the place of birth and a later name are no parents
    expect(predicates(x, 'Eleanor of Brittany', 'England')).not.toContain('child_of');
    expect(predicates(x, 'Eleanor of Brittany', 'Amesbury Abbey')).not.toContain('child_of');
    const y = await run(
      'David Pigot (cricketer, born 1900)',
      'David Pigot (1900 – 1965) was an Irish cricketer. He was born at Dublin to Alice Maud Knox, and her husband, John Henry Pigot, who would serve as president of the union.',
    );
    expect(predicates(y, 'David Pigot', 'Alice Maud Knox')).toEqual(['child_of']);
    expect(predicates(y, 'David Pigot', 'John Henry Pigot')).toEqual(['child_of']);
    // the subject is the name before "born"; a verb between "born" and "to" is no birth to parents
    const z = await run(
      'Albert III, Duke of Bavaria',
      'Albert III was Duke of Bavaria-Munich. Albert was born in 1401 in Wolfratshausen to Elisabetta Visconti.',
    );
    expect(predicates(z, 'Albert III, Duke of Bavaria', 'Elisabetta Visconti')).toEqual(['child_of']);
    const w = await run('Isaac P. Walker', 'Isaac P. Walker was a senator. He was born in Virginia and moved with his family to Illinois in 1825.');
    expect(w.relations.filter((r) => r.predicate === 'child_of')).toEqual([]);
  });

  it("a kin noun in apposition to the title's kin describes that name, not the title; a list of the title's kin is the title's", async () => {
    const x = await run(
      'Gothelo I, Duke of Lorraine',
      'Gothelo (– 19 April 1044) was the duke of Lower Lorraine. Gothelo was the youngest son of Godfrey I, Count of Verdun, and Matilda Billung, daughter of Herman, Duke of Saxony.',
    );
    expect(predicates(x, 'Gothelo I, Duke of Lorraine', 'Matilda Billung')).toEqual(['son_of']);
    expect(predicates(x, 'Gothelo I, Duke of Lorraine', 'Herman')).not.toContain('daughter_of');
    expect(predicates(x, 'Matilda Billung', 'Herman')).toEqual(['daughter_of']);
    const y = await run(
      'Gia Coppola',
      'Gia Coppola is an American film director. She is a granddaughter of Francis Ford Coppola, the daughter of Gian-Carlo Coppola and the niece of Sofia Coppola.',
    );
    expect(predicates(y, 'Gia Coppola', 'Gian-Carlo Coppola')).toEqual(['daughter_of']);
    // the kin noun's own "the" ("daughter of the Earl") keeps it an apposition, for the title and for a pair around it
    const z = await run(
      'Edward Wingfield',
      'Edward Wingfield was an English politician. In 1864, he married Lady Julia Coke, daughter of the Earl of Leicester. Lord Audley married Anne Smith, son of the Duke of York.',
    );
    expect(predicates(z, 'Edward Wingfield', 'Earl of Leicester')).not.toContain('daughter_of');
    expect(predicates(z, 'Lady Julia Coke', 'Earl of Leicester')).toEqual(['daughter_of']);
    expect(predicates(z, 'Lord Audley', 'Duke of York')).toEqual(['related_to']);
    // a "Name, Nth Title" parent is one name in a coordination: the mother after it is kin too
    const w = await run(
      'Robert Douglas, 8th Earl of Morton',
      'Robert Douglas, 8th Earl of Morton was a Scottish nobleman. He was the son of William Douglas, 7th Earl of Morton and Lady Anne Keith, daughter of George Keith, 5th Earl Marischal.',
    );
    expect(predicates(w, 'Robert Douglas, 8th Earl of Morton', 'Lady Anne Keith')).toEqual(['son_of']);
    expect(predicates(w, 'Robert Douglas, 8th Earl of Morton', 'George Keith')).not.toContain('daughter_of');
  });

  it('a sentence about the title after an opening phrase: "In 1864, he married X", "In 1880 he directed X"', async () => {
    const x = await run(
      'Edward Wingfield',
      'Edward Wingfield was an English politician. In April 1864, he married Lady Julia Coke. In 1880 he directed Small Fish. After leaving Eton, he joined the Royal Navy. Later, he lived in Paris, where Anne Smith was married to John Brown. He worked with Tom Jones, who founded Big Records.',
    );
    expect(predicates(x, 'Edward Wingfield', 'Lady Julia Coke')).toEqual(['marry']);
    expect(predicates(x, 'Edward Wingfield', 'Small Fish')).toEqual(['direct']);
    expect(predicates(x, 'Edward Wingfield', 'Royal Navy')).toEqual(['join']);
    expect(predicates(x, 'Edward Wingfield', 'Paris')).toEqual(['live_in']);
    // a clause with a subject of its own keeps its verb
    expect(predicates(x, 'Anne Smith', 'John Brown')).toEqual(['married_to']);
    expect(predicates(x, 'Edward Wingfield', 'John Brown')).toEqual(['mentions']);
    // and so does a person's "who" clause
    expect(predicates(x, 'Edward Wingfield', 'Tom Jones')).toEqual(['work_with']);
    expect(predicates(x, 'Edward Wingfield', 'Big Records')).toEqual(['mentions']);
  });

  it('a copula\'s "<noun> in" before a place is the predicate ("is an unincorporated community in Giles County")', async () => {
    const x = await run(
      'Kimballton, Virginia',
      'Kimballton is an unincorporated community in Giles County, Virginia. The Millers River is a river in southwestern New Hampshire. He studied physics in Paris.',
    );
    expect(predicates(x, 'Kimballton, Virginia', 'Giles County')).toEqual(['community_in']);
    expect(predicates(x, 'Millers River', 'New Hampshire')).toEqual(['river_in']);
    // a full verb keeps its own predicate
    expect(predicates(x, 'Kimballton, Virginia', 'Paris')).toEqual(['study_in']);
  });

  it('"His father John Smith", "Her mother was Mary Jones": the named kin is <kin>_of the title, and keeps its own verb', async () => {
    const x = await run(
      'Leopoldo Torres Ríos',
      'Leopoldo Torres Ríos was an Argentine film director. His brother Carlos Torres Ríos was a cinematographer. His father, John Smith, was a painter. Her mother was Anne Brown. His elder brother, Tom Brown, directed Big Fish. His son Peter Jones died in 1990. His sister, Mary Doe and his cousins moved to Paris.',
    );
    expect(predicates(x, 'Carlos Torres Ríos', 'Leopoldo Torres Ríos')).toEqual(['brother_of']);
    expect(predicates(x, 'John Smith', 'Leopoldo Torres Ríos')).toEqual(['father_of']);
    expect(predicates(x, 'Anne Brown', 'Leopoldo Torres Ríos')).toEqual(['mother_of']);
    expect(predicates(x, 'Tom Brown', 'Leopoldo Torres Ríos')).toEqual(['brother_of']);
    expect(predicates(x, 'Peter Jones', 'Leopoldo Torres Ríos')).toEqual(['son_of']);
    // the kin's own verb is not the title's
    expect(predicates(x, 'Leopoldo Torres Ríos', 'Big Fish')).not.toContain('direct');
    expect(predicates(x, 'Leopoldo Torres Ríos', '1990')).not.toContain('die_in');
    // a list after the comma is no apposition
    expect(predicates(x, 'Mary Doe', 'Leopoldo Torres Ríos')).toEqual([]);
    // the kin's descriptive words after "was the"; a "<kin> of" in apposition to the kin is the kin's
    const y = await run(
      'Lionel Sackville-West, 3rd Baron Sackville',
      'Lionel Sackville-West, 3rd Baron Sackville was a British peer. His mother was Georgina, daughter of George Dodwell. Their daughter was the novelist and poet Vita Sackville-West.',
    );
    expect(predicates(y, 'Vita Sackville-West', 'Lionel Sackville-West, 3rd Baron Sackville')).toEqual(['daughter_of']);
    expect(predicates(y, 'Georgina', 'George Dodwell')).toEqual(['daughter_of']);
    expect(predicates(y, 'Lionel Sackville-West, 3rd Baron Sackville', 'George Dodwell')).not.toContain('daughter_of');
  });

  it('a past tense that wink tags as a noun or an adjective after a name that opens a sentence is its verb', async () => {
    const x = await run(
      'Edward Wingfield',
      'Edward Wingfield was an English politician. Wingfield married Lady Julia Coke in 1864. Tom Hanks starred in the film Big Fish.',
    );
    expect(predicates(x, 'Edward Wingfield', 'Lady Julia Coke')).toEqual(['marry']);
    expect(predicates(x, 'Tom Hanks', 'Big Fish')).toEqual(['star_in']);
  });

  it('"married ... to X" past places and dates: the spouse, with the subject right before the verb', async () => {
    const x = await run(
      'Benjamin Pierce Cheney Jr.',
      'Benjamin Pierce Cheney Jr. (1866 – 1942) was an American businessman. He was married at Covington, Kentucky, on February 23, 1898, to Julia Arthur.',
    );
    expect(predicates(x, 'Benjamin Pierce Cheney Jr.', 'Julia Arthur')).toEqual(['married_to']);
    expect(predicates(x, 'Covington', 'Julia Arthur')).not.toContain('married_to');
    // the name right before the verb is its subject, not the sentence's first name
    const y = await run(
      'Beatrice of Coimbra',
      'Beatrice of Coimbra was a princess. After the battle of Alfarrobeira, she took refuge in Burgundy, where Isabella of Portugal was married to Duke Philip III the Good.',
    );
    expect(predicates(y, 'Isabella of Portugal', 'Duke Philip III the Good')).toEqual(['married_to']);
    expect(y.relations.filter((r) => r.predicate === 'married_to' && r.subject !== 'Isabella of Portugal')).toEqual([]);
    // an apposition before the verb is no subject; the title opening the sentence is
    const z = await run(
      'Beatrice of Brabant',
      'Beatrice of Brabant (1225 – 1288), was a Countess consort of Flanders, married to Henry Raspe, Landgrave of Thuringia.',
    );
    expect(predicates(z, 'Beatrice of Brabant', 'Henry Raspe')).toEqual(['married_to']);
    expect(predicates(z, 'Flanders', 'Henry Raspe')).not.toContain('married_to');
  });

  it('a nationality before a role and a name is not the object ("written by American musicians Mike Love and Brian Wilson")', async () => {
    const x = await run('Kokomo', 'Kokomo is a song written by American musicians Mike Love and Brian Wilson. It was a 1988 hit for the Beach Boys.');
    const pred = (object: string) => predicates(x, 'Kokomo', object);
    expect(pred('Mike Love')).toEqual(['write_by']);
    expect(pred('American')).not.toContain('write_by');
    const y = await run("Aren't You Glad", '"Aren\'t You Glad" is a song written by Brian Wilson and Mike Love for American rock band the Beach Boys.');
    const yPred = (object: string) => predicates(y, "Aren't You Glad", object);
    expect(yPred('Mike Love')).toEqual(['write_by']);
    expect(yPred('American')).not.toContain('write_by');
  });

  it('extracts full dates, their years and "City, State" places', async () => {
    const x = await run('Hank Snow', SNOW_TEXT);
    expect(entity(x, 'May 9, 1914')?.type).toBe('Date');
    expect(entity(x, '1914')?.type).toBe('Date');
    expect(entity(x, 'Nashville, Tennessee')?.type).toBe('Place');
    expect(entity(x, 'Nashville')?.type).toBe('Place');
    expect(entity(x, 'May')).toBeUndefined();
  });

  it('does not emit function words, pronouns or sentence-initial capitals as entities', async () => {
    const x = await run(
      'Jaws',
      'The film was released in June 1975. In the same year, it was shown in London. However, they said it was great. Their critics agreed. Locations are listed below.',
    );
    const keys = x.entities.map((e) => normalizeName(e.name));
    for (const junk of ['the', 'in', 'however', 'it', 'they', 'their', 'film', 'locations', 'same year', '']) expect(keys).not.toContain(junk);
    expect(x.entities.some((e) => /^(The|In|However|It|They|Their)$/.test(e.name))).toBe(false);
    expect(entity(x, 'London')).toBeDefined();
    expect(entity(x, 'June 1975')?.type).toBe('Date');
  });

  describe('names at the start of a sentence', () => {
    // Four short abstracts whose titles do not name the drug: each names it in its first word.
    const ABSTRACTS: Array<[string, string, string]> = [
      [
        'Glutamate blockade in late-stage dementia',
        "Memantine is an uncompetitive NMDA receptor antagonist licensed for moderate to severe Alzheimer's disease. In a 24-week trial, patients given memantine declined less than those on placebo.",
        'Memantine',
      ],
      [
        'Cholinergic therapy for mild dementia',
        'Donepezil is a reversible acetylcholinesterase inhibitor taken once a day. Cholinesterase inhibitors give a modest benefit on cognition.',
        'Donepezil',
      ],
      [
        'Lipid lowering and cognitive decline',
        'Atorvastatin lowers LDL cholesterol by inhibiting HMG-CoA reductase. However, trials found no cognitive benefit.',
        'Atorvastatin',
      ],
    ];

    it.each(ABSTRACTS)('finds the drug an abstract names first (%s)', async (title, text, drug) => {
      const x = await run(title, text);
      expect(entity(x, drug)?.name).toBe(drug);
    });

    it('relates a drug named at the start of a sentence to the names beside it', async () => {
      const [title, text] = ABSTRACTS[0];
      const x = await run(title, text);
      expect(x.relations.some((r) => r.subject === 'Memantine' && r.object === 'NMDA')).toBe(true);
      // the lowercase "memantine" of the second sentence is the same entity, not a second one
      expect(x.entities.filter((e) => normalizeName(e.name) === 'memantine')).toHaveLength(1);
      expect(entity(x, 'Memantine')?.description).toContain('patients given memantine');
    });

    it('keeps no common word of an abstract that starts its sentences with them', async () => {
      const x = await run(
        'Sleep and amyloid clearance',
        'Sleep deprivation raises amyloid-beta in the cerebrospinal fluid. However, the effect was small. The effect was reversed by recovery sleep. This finding needs replication. Patients with chronic insomnia had higher tau. Treatment with melatonin did not help. Results were mixed. Burials were rare. Headquartered in Boston, the lab ran the trial.',
      );
      const keys = x.entities.map((e) => normalizeName(e.name));
      for (const junk of ['however', 'the', 'this', 'patients', 'treatment', 'results', 'burials', 'headquartered', 'effect', 'finding', 'insomnia', 'tau'])
        expect(keys).not.toContain(junk);
      expect(entity(x, 'Boston')).toBeDefined();
    });

    it('recognises a sentence-initial name by evidence other than its capital', async () => {
      // not an English word; an acronym; the subject of "is a"
      const x = await run('', 'Itzcoatl ruled from 1427. NASA launched the probe in 1977. Aspirin is an analgesic taken for pain.');
      for (const name of ['Itzcoatl', 'NASA', 'Aspirin']) expect(entity(x, name)).toBeDefined();
      // a lone given name would merge every person of that name
      const y = await run('', 'Stephen moved to Leeds in 1990.');
      expect(entity(y, 'Stephen')).toBeUndefined();
      expect(entity(y, 'Leeds')).toBeDefined();
    });

    it('finds lowercase compound names mid-sentence without taking common nouns', async () => {
      const x = await run('', 'Patients were randomised to lisinopril or amlodipine after a first stroke. Both lowered systolic pressure more than placebo.');
      expect(entity(x, 'lisinopril')).toBeDefined();
      expect(entity(x, 'amlodipine')).toBeDefined();
      const keys = x.entities.map((e) => normalizeName(e.name));
      for (const common of ['patients', 'stroke', 'placebo', 'pressure', 'both']) expect(keys).not.toContain(common);
      // an unknown lowercase word the passage never writes capitalised is no name
      const y = await run('', 'The gmina borders three other gminas and a river.');
      expect(y.entities.map((e) => normalizeName(e.name))).not.toContain('gmina');
    });
  });

  it('resolves a lone surname to the person named earlier instead of creating a new entity', async () => {
    const x = await run('Francis Buxton', 'Francis Buxton was a British politician. Buxton was the son of Sir Edward Buxton, 2nd Baronet.');
    expect(entity(x, 'Buxton')).toBeUndefined();
    expect(entity(x, 'Sir Edward Buxton, 2nd Baronet')).toBeDefined();
    expect(entity(x, 'Edward Buxton')).toBeDefined();
    expect(x.relations).toContainEqual({ subject: 'Francis Buxton', predicate: 'son_of', object: 'Sir Edward Buxton' });
  });

  it('dedupes entities by normalised name and only relates extracted entities', async () => {
    const x = await run('The Beatles', "The Beatles were formed in Liverpool. The Beatles' manager was Brian Epstein. Epstein managed the Beatles until 1967.");
    const keys = x.entities.map((e) => normalizeName(e.name));
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.filter((k) => k === 'beatles')).toHaveLength(1);
    const known = new Set(x.entities.map((e) => e.name));
    for (const r of x.relations) {
      expect(known.has(r.subject)).toBe(true);
      expect(known.has(r.object)).toBe(true);
      expect(r.predicate).toMatch(/^[a-z0-9_]+$/);
      expect(r.subject).not.toBe(r.object);
    }
  });

  it('builds descriptions from the sentences that mention the entity, capped in length', async () => {
    const x = await run('Hank Snow', SNOW_TEXT);
    expect(entity(x, 'Grand Ole Opry')?.description).toBe('He moved to Nashville, Tennessee in 1949 and joined the Grand Ole Opry.');
    expect(entity(x, 'Brooklyn')?.description).toContain('born in Brooklyn, Nova Scotia');
    expect(entity(x, 'Brooklyn')?.description).not.toContain('Grand Ole Opry');
    const long = await run('Paris', Array.from({ length: 12 }, (_, i) => `Paris hosted event number ${i + 1} of the long series of fairs.`).join(' '));
    for (const e of long.entities) expect(e.description.length).toBeLessThanOrEqual(DESCRIPTION_MAX_CHARS);
  });

  it('caps co-occurrence relations per sentence', async () => {
    const list = Array.from({ length: 40 }, (_, i) => `Town${String.fromCharCode(65 + (i % 26))}${i}`).join(', ');
    const x = await run('', `Visitors came from ${list} and stayed.`);
    expect(x.entities.length).toBe(40);
    // nearest pairs only, and at most MAX_RELATIONS_PER_SENTENCE of them (all-pairs would be 780)
    expect(x.relations.length).toBeGreaterThan(0);
    expect(MAX_RELATIONS_PER_SENTENCE).toBeLessThanOrEqual(12);
    expect(x.relations.length).toBeLessThanOrEqual(MAX_RELATIONS_PER_SENTENCE);
  });

  it('handles empty input', async () => {
    expect(await run('', '')).toEqual({ entities: [], relations: [] });
    const t = await run('Solo Title', '');
    expect(names(t)).toEqual(['Solo Title']);
  });
});

describe('normalizeName', () => {
  it('collapses case, possessives, leading articles and punctuation', () => {
    expect(normalizeName("The Beatles'")).toBe('beatles');
    expect(normalizeName('beatles')).toBe('beatles');
    expect(normalizeName("The Beatles'")).toBe(normalizeName('  BEATLES  '));
    expect(normalizeName("Maurice's")).toBe('maurice');
    expect(normalizeName('A Tale of Winter')).toBe(normalizeName('tale of winter'));
  });

  it('strips accents, dots of abbreviations and hyphens, keeps decimals', () => {
    expect(normalizeName('Université de Paris')).toBe('universite de paris');
    expect(normalizeName('St. Louis, Missouri')).toBe('st louis missouri');
    expect(normalizeName('U.S.')).toBe('us');
    expect(normalizeName('Kim Jong-il')).toBe(normalizeName('Kim Jong - il'));
    expect(normalizeName('273,282')).toBe('273282');
    expect(normalizeName('5.1')).toBe('5.1');
    expect(normalizeName('Brooks & Dunn')).toBe('brooks and dunn');
  });

  it('is idempotent and keeps a lone article', () => {
    for (const s of ["The Beatles'", 'Sir Edward Buxton, 2nd Baronet', 'Ertuğrul', '“The” End', 'The']) {
      expect(normalizeName(normalizeName(s))).toBe(normalizeName(s));
    }
    expect(normalizeName('The')).toBe('the');
  });
});
