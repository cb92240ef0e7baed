// A hub entity's own page, found by its title (passage ranking reads no hub's passages: docs/statements.md#hubs).
CREATE INDEX passage_title IF NOT EXISTS FOR (p:Passage) ON (p.title);
