// Lexical passage search for hybrid mode: Lucene BM25 over passage title and text.
CREATE FULLTEXT INDEX passage_text IF NOT EXISTS FOR (p:Passage) ON EACH [p.title, p.text];
