/**
 * Offline (embedded: no network, no model download) entity/relation extractor, id 'offline:v21'.
 *
 * Built on wink-nlp + wink-eng-lite-web-model (sentence splitting, POS tags, lemmas, a small
 * NER for numbers/dates); ~1,000 passages/s on one core. On top of that:
 *  - Text: spaced-out hyphens rejoined ("Go- Go", "comedy- drama"; not "one- and two-reel"), and no
 *    sentence starts with a lowercase word, a comma or a closing bracket, follows "lit." or cuts the opening title in two
 *    (wink ends one at the "!" of "Oh-Baby! is a 1940 film" and of "Stop! Or My Mom Will Shoot"); "The film stars X"
 *    has its verb, which wink tags as a plural noun ("stars", "features"); a first name that wink tags as a verb at
 *    a sentence's start is a name ("Drew Barrymore appeared", "Grant Gee edited"), and a past tense it tags as a
 *    noun or an adjective after such a name is its verb ("Tom Hanks starred in", "Wingfield married X");
 *  - Entities
 *    - capitalised-span chunking: proper-noun sequences with name connectors ("Green Party of
 *      England and Wales", "Jean de la Fontaine", "Kim Jong-il", title-case "Back In The U.S.A."),
 *      without sentence-initial function words, pronouns, kin nouns before "of" ("Daughter of King X")
 *      or lone sentence-initial capitals, unless other evidence makes the word a name (no English word,
 *      compound-name morphology, "X is a ...": evidence.ts);
 *    - lowercase names: compound-like words ("given atorvastatin") and unknown words the passage also
 *      writes capitalised ("Memantine ... given memantine");
 *    - components of long names ("Adalbert II of Tuscany" -> "Adalbert II", "Tuscany"), names
 *      without their titles ("Emperor Itzcoatl" -> "Itzcoatl"), "City, Region" places
 *      ("Burbank, California") and "Name, Nth Title of X" people ("Patrick Lyon, 3rd Earl of ...");
 *    - quoted titles ("Hello Love") as works; calendar dates ("7 September 1864", "May 3, 1869"),
 *      their years and other years; numbers, money and percentages;
 *    - the passage title (a Wikipedia disambiguator that only types it, "(film)", stripped and used to
 *      guess the type; a dated or proper-noun one, "(1925 film)", "(Uganda)", kept, its short form an
 *      alias that namesakes share and that gets the title's relations too) and the names inside it
 *      ("Prague astronomical clock" -> "Prague"); a text that opens with the title names it there,
 *      whatever names its words make ("Dr. Goldfoot and the Girl Bombs");
 *    - a lone surname that repeats a person named earlier ("Buxton") is that person, not a new entity; a part of another
 *      person's longer name is not ("Muhammad" of "Muhammad bin Musafir" on Marzuban ibn Muhammad's page: dropped);
 *    - types: Person, Place, Organization, Work, Date, Number, Money, Percent, Nationality, Entity
 *      (capitalised name of unknown kind), and Concept (optional, see {@link OfflineExtractorOptions}).
 *  - Relations
 *    - nearest co-occurring pairs in a sentence (the next two names and the next value after each name, at most
 *      {@link MAX_RELATIONS_PER_SENTENCE} per sentence); predicate = lemma of the verb between them plus a following
 *      preposition ("born_in", "direct_by"), or "<noun>_of" ("daughter_of", "daughter of novelist J. G. Ballard"), or a
 *      copula's "<noun> in" ("is an unincorporated community in Giles County": "community_in"), or ALIAS_PREDICATE ("also
 *      known as", "(born Samuel Cook)"), or the predicate of the name it is coordinated with ("son of A and B", "son of
 *      A, 7th Earl of X and B": B too), else "related_to"; a nationality that describes the name after it ("married to
 *      Polish film director Roman Polanski") is no verb's object: the verb goes to the name only; a "<noun> of" in
 *      apposition to a name in between is that name's ("A married B, daughter of C": A is no daughter of C), and a kin
 *      phrase coordinated with the one a name is the object of is the subject's ("the son of A and the nephew of B": A
 *      is no nephew of B);
 *    - kin a sentence states around the co-occurrences: an opening kin phrase ("The son of X, he ...": son_of X), a
 *      possessive kin phrase ("His father John Smith", "Her mother was Mary Jones", "Their daughter was the novelist X":
 *      John Smith father_of the title; the kin keeps its own verb, and a "<kin> of" in apposition to it is its own), a
 *      birth to named parents ("She was born in England to A and B": child_of A, B) and a marriage past places and
 *      dates ("married at Covington, Kentucky, on ..., to X": married_to X);
 *    - title -> every other entity of the passage: the verb of the first of the entity's mentions, in any sentence,
 *      that a sentence about the title links to it (title mention, pronoun, "The film ..." subject or a part of it: "The
 *      film's music was composed by X", "Music of the film ..."; a fragment that opens with a participle: "Starring A, B
 *      in lead roles and music composed by C", "Written and directed by X."; also after an opening phrase: "Like its
 *      predecessor, the film was directed by X", "In 1864, he married X", "In 1880 he directed X", and the agent of an
 *      opening participle phrase before that subject: "Directed by X, the film ..."), else "mentions"; where the
 *      co-occurrence pass linked the two first, that verb replaces its "related_to" ("a 1987 film with X. It was written
 *      by X": write_by X); a kin noun in apposition to the title's kin ("son of A and B, daughter of C") is B's, not the
 *      title's, and so is the verb of a name that opens a clause of its own ("..., where Isabella was married to X",
 *      "Mick Fleetwood, who later formed X");
 *    - a long name -> its components ("related_to") and variants (ALIAS_PREDICATE).
 *  - Descriptions: the sentences of the passage that mention the entity (the first sentences for
 *    the title), at most {@link DESCRIPTION_MAX_CHARS} characters.
 *
 * Entities are deduplicated within a passage by normalizeName; other code merges entities
 * across passages on the same key (ALIAS_PREDICATE and normalizeName live in server/graph/facts.ts).
 *
 * Modules, in pipeline order: nlp (wink pipeline, tokenizer) and tokens (token model, mentions);
 * values, spans, names and mentions (mention finding; lexicon holds the word lists, evidence the name tests and entity-types
 * the type guessing); entities, predicates and relations; extract (one passage, stage by stage).
 */
import type { Extraction, Extractor, PassageInput } from '../types.js';
import { extractPassage, type OfflineExtractorOptions } from './extract.js';

export { DESCRIPTION_MAX_CHARS } from './entities.js';
export { extractPassage, type OfflineExtractorOptions } from './extract.js';
export { MAX_RELATIONS_PER_SENTENCE } from './relations.js';

/** Bumped when the extraction of the same text changes, so re-posted documents are extracted again. */
export const OFFLINE_EXTRACTOR_ID = 'offline:v21';

export function createOfflineExtractor(options: OfflineExtractorOptions = {}): Extractor {
  const opts = { ...options };
  return {
    id: opts.concepts ? `${OFFLINE_EXTRACTOR_ID}+concepts` : OFFLINE_EXTRACTOR_ID,
    async extract(passage: PassageInput): Promise<Extraction> {
      return extractPassage(passage, opts);
    },
  };
}
