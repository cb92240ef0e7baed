/** Entity and relation extraction from one passage. */
export interface PassageInput {
  id: string;
  title: string;
  text: string;
}

export interface ExtractedEntity {
  name: string;
  type: string;
  description: string;
}

export interface ExtractedRelation {
  subject: string;
  predicate: string;
  object: string;
}

export interface Extraction {
  entities: ExtractedEntity[];
  relations: ExtractedRelation[];
}

export interface Extractor {
  readonly id: string;
  extract(passage: PassageInput): Promise<Extraction>;
}
